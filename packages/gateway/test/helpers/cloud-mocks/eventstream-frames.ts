// AWS event-stream messages written from the format's description (prelude with CRC32, typed
// headers, payload, message CRC32), independently of @smithy/core, for the Bedrock mock.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** One message with string headers (type 7) and a payload. */
export function eventStreamMessage(headers: Readonly<Record<string, string>>, payload: Uint8Array): Uint8Array {
  const encoder = new TextEncoder();
  const parts: number[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const n = encoder.encode(name);
    const v = encoder.encode(value);
    parts.push(n.length, ...n, 7, v.length >> 8, v.length & 0xff, ...v);
  }
  const headerBytes = Uint8Array.from(parts);
  const total = 12 + headerBytes.length + payload.length + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headerBytes.length);
  view.setUint32(8, crc32(out.subarray(0, 8)));
  out.set(headerBytes, 12);
  out.set(payload, 12 + headerBytes.length);
  view.setUint32(total - 4, crc32(out.subarray(0, total - 4)));
  return out;
}

/** A `chunk` event carrying one Anthropic stream event, as Bedrock sends it (base64 `bytes`, padding `p`). */
export function chunkMessage(eventJson: string): Uint8Array {
  const payload = JSON.stringify({ bytes: Buffer.from(eventJson).toString('base64'), p: 'abcdefghij' });
  return eventStreamMessage({ ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' }, new TextEncoder().encode(payload));
}

/** An exception message (`throttlingException`, `modelStreamErrorException`...) ending a stream. */
export function exceptionMessage(type: string, message: string): Uint8Array {
  return eventStreamMessage(
    { ':exception-type': type, ':content-type': 'application/json', ':message-type': 'exception' },
    new TextEncoder().encode(JSON.stringify({ message })),
  );
}
