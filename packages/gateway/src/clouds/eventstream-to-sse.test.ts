import { EventStreamCodec } from '@smithy/core/event-streams';
import { describe, expect, it } from 'vitest';
import { chunkMessage, eventStreamMessage, exceptionMessage } from '../../test/helpers/cloud-mocks/eventstream-frames.js';
import { type MessageDecoder, anthropicSse, eventStreamToSse } from './eventstream-to-sse.js';

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);
const decode: MessageDecoder = (frame) => codec.decode(frame) as ReturnType<MessageDecoder>;

const START = '{"type":"message_start","message":{"id":"msg_1","model":"claude","content":[]}}';
const DELTA = '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"héllo"}}';
const STOP = '{"type":"message_stop"}';
const EXPECTED = `event: message_start\ndata: ${START}\n\nevent: content_block_delta\ndata: ${DELTA}\n\nevent: message_stop\ndata: ${STOP}\n\n`;

async function sse(pieces: Uint8Array[]): Promise<string> {
  async function* source() {
    yield* pieces;
  }
  let out = '';
  for await (const chunk of eventStreamToSse(source(), decode, anthropicSse)) out += new TextDecoder().decode(chunk);
  return out;
}

const join = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

describe('eventStreamToSse', () => {
  it('writes each chunk as the Anthropic event it carries, whatever byte the stream is split at', async () => {
    const bytes = join(chunkMessage(START), chunkMessage(DELTA), chunkMessage(STOP));
    for (let cut = 0; cut <= bytes.length; cut++) expect(await sse([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(EXPECTED);
    expect(await sse(Array.from(bytes, (byte) => Uint8Array.of(byte)))).toBe(EXPECTED);
  });

  it('ends with an Anthropic error event on an exception message', async () => {
    const out = await sse([join(chunkMessage(START), exceptionMessage('throttlingException', 'Too many tokens, please wait before trying again.'))]);
    expect(out).toBe(
      `event: message_start\ndata: ${START}\n\nevent: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"Too many tokens, please wait before trying again."}}\n\n`,
    );
  });

  it('ends with an error event on a corrupt message, a cut one, or an impossible length', async () => {
    const corrupt = chunkMessage(DELTA);
    const at = corrupt.length - 10;
    corrupt[at] = (corrupt[at] as number) ^ 0xff;
    expect(await sse([join(chunkMessage(START), corrupt, chunkMessage(STOP))])).toMatch(
      /^event: message_start\ndata: .*\n\nevent: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"unreadable Bedrock event stream: [^"]+"\}\}\n\n$/,
    );
    expect(await sse([chunkMessage(START).subarray(0, 40)])).toBe(
      'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"the Bedrock event stream ended in the middle of a message"}}\n\n',
    );
    const huge = new Uint8Array(16);
    new DataView(huge.buffer).setUint32(0, 0x7fffffff);
    expect(await sse([huge])).toBe(
      'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"unreadable Bedrock event stream: an event-stream message of 2147483647 bytes"}}\n\n',
    );
  });

  it('skips events that are not chunks (the initial-response kind) and ends on an error message', async () => {
    const other = eventStreamMessage({ ':event-type': 'initial-response', ':message-type': 'event' }, new Uint8Array());
    const error = eventStreamMessage({ ':message-type': 'error', ':error-code': 'InternalFailure', ':error-message': 'boom' }, new Uint8Array());
    expect(await sse([join(other, chunkMessage(STOP), error)])).toBe(
      `event: message_stop\ndata: ${STOP}\n\nevent: error\ndata: {"type":"error","error":{"type":"api_error","message":"boom"}}\n\n`,
    );
  });

  it('cancels the source at once when the reader stops, even while a read waits', async () => {
    let cancelled = false;
    const pending: AsyncIterator<Uint8Array> = {
      next: () => new Promise(() => undefined),
      return: async () => {
        cancelled = true;
        return { done: true, value: undefined };
      },
    };
    const iterator = eventStreamToSse({ [Symbol.asyncIterator]: () => pending }, decode, anthropicSse);
    void iterator.next();
    await iterator.return?.();
    expect(cancelled).toBe(true);
  });
});
