import { EventStreamCodec } from '@smithy/core/event-streams';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../test/helpers/cloud-mocks/eventstream-frames.js';
import { presentedKey } from './client-credential.js';
import { isConverseStream, sseToEventStream } from './converse-answer.js';
import { protocolError } from './protocol-error.js';

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

async function bytesOf(body: unknown): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of body as AsyncIterable<Uint8Array>) parts.push(part);
  return new Uint8Array(Buffer.concat(parts));
}

/** Splits an event stream by its length prefixes, each message's CRC checked independently of the codec. */
function messages(bytes: Uint8Array): { headers: Record<string, unknown>; body: string }[] {
  const out: { headers: Record<string, unknown>; body: string }[] = [];
  for (let at = 0; at < bytes.length; ) {
    const total = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0);
    const frame = bytes.subarray(at, at + total);
    expect(new DataView(frame.buffer, frame.byteOffset + total - 4, 4).getUint32(0)).toBe(crc32(frame.subarray(0, total - 4)));
    const decoded = codec.decode(frame);
    out.push({
      headers: Object.fromEntries(Object.entries(decoded.headers).map(([name, header]) => [name, header.value])),
      body: new TextDecoder().decode(decoded.body),
    });
    at += total;
  }
  return out;
}

describe('sseToEventStream', () => {
  it('writes each SSE event as an event-stream message, an exception under :exception-type', async () => {
    const sse = [
      'event: messageStart\ndata: {"role":"assistant"}\n\n',
      'event: contentBlockDelta\ndata: {"contentBlockIndex":0,"delta":{"text":"hé"}}\n\n',
      'event: throttlingException\ndata: {"message":"slow down"}\n\n',
    ];
    const reply = await sseToEventStream({
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'content-length': '99' },
      body: (async function* () {
        yield* sse;
      })(),
    });
    expect(reply.headers).toEqual({ 'content-type': 'application/vnd.amazon.eventstream' });
    expect(messages(await bytesOf(reply.body))).toEqual([
      { headers: { ':message-type': 'event', ':event-type': 'messageStart', ':content-type': 'application/json' }, body: '{"role":"assistant"}' },
      {
        headers: { ':message-type': 'event', ':event-type': 'contentBlockDelta', ':content-type': 'application/json' },
        body: '{"contentBlockIndex":0,"delta":{"text":"hé"}}',
      },
      {
        headers: { ':message-type': 'exception', ':exception-type': 'throttlingException', ':content-type': 'application/json' },
        body: '{"message":"slow down"}',
      },
    ]);
  });

  it('returns a JSON answer (an error before the stream) as it is', async () => {
    const reply = { status: 429, headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'ThrottlingException' }, body: '{"message":"slow down"}' };
    expect(await sseToEventStream(reply)).toBe(reply);
  });

  it('knows ConverseStream paths', () => {
    expect([isConverseStream(new URL('http://g/model/m/converse-stream')), isConverseStream(new URL('http://g/model/m/converse'))]).toEqual([true, false]);
  });
});

describe('Converse client keys and errors', () => {
  const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name.toLowerCase()] ?? null });
  const url = new URL('http://g/model/m/converse');

  it("takes a SigV4 signature's access key id, or a bearer token, as the gateway key", () => {
    const sigv4 = 'AWS4-HMAC-SHA256 Credential=gw-key-1/20261125/us-east-1/bedrock/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc';
    expect(presentedKey('bedrock-converse', headers({ authorization: sigv4 }), url)).toBe('gw-key-1');
    expect(presentedKey('bedrock-converse', headers({ authorization: 'Bearer gw-key-2' }), url)).toBe('gw-key-2');
    // Only Converse clients sign with SigV4: elsewhere the header is no key.
    expect(presentedKey('claude', headers({ authorization: sigv4 }), url)).toBe(undefined);
  });

  it("answers the gateway's own errors as the AWS SDK reads them", () => {
    expect(protocolError('bedrock-converse', 401, 'invalid gateway key')).toEqual({
      status: 401,
      headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'UnrecognizedClientException' },
      body: '{"message":"invalid gateway key"}',
    });
    expect(protocolError('bedrock-converse', 404, 'no endpoint at GET /model/m/converse').headers['x-amzn-errortype']).toBe('ResourceNotFoundException');
  });
});
