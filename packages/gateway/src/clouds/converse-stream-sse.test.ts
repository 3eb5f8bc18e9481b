import { EventStreamCodec } from '@smithy/core/event-streams';
import { describe, expect, it } from 'vitest';
import { eventStreamMessage, exceptionMessage } from '../../test/helpers/cloud-mocks/eventstream-frames.js';
import { converseSse } from './converse-stream-sse.js';
import { type MessageDecoder, eventStreamToSse } from './eventstream-to-sse.js';

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);
const decode: MessageDecoder = (frame) => codec.decode(frame) as ReturnType<MessageDecoder>;

const event = (type: string, json: string) =>
  eventStreamMessage({ ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' }, new TextEncoder().encode(json));
const join = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

async function sse(pieces: Uint8Array[]): Promise<string> {
  async function* source() {
    yield* pieces;
  }
  let out = '';
  for await (const chunk of eventStreamToSse(source(), decode, converseSse)) out += new TextDecoder().decode(chunk);
  return out;
}

const START = '{"role":"assistant","p":"abc"}';
const DELTA = '{"contentBlockIndex":0,"delta":{"text":"héllo"},"p":"abcd"}';
const STOP = '{"stopReason":"end_turn","p":"ab"}';

describe('converseSse', () => {
  it('writes each ConverseStream event under its :event-type, whatever byte the stream is split at', async () => {
    const bytes = join(event('messageStart', START), event('contentBlockDelta', DELTA), event('messageStop', STOP));
    const expected = `event: messageStart\ndata: ${START}\n\nevent: contentBlockDelta\ndata: ${DELTA}\n\nevent: messageStop\ndata: ${STOP}\n\n`;
    for (let cut = 0; cut <= bytes.length; cut++) expect(await sse([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(expected);
    expect(await sse(Array.from(bytes, (byte) => Uint8Array.of(byte)))).toBe(expected);
  });

  it('keeps a payload written over several lines on one data line', async () => {
    expect(await sse([event('messageStop', '{\n  "stopReason": "end_turn"\n}')])).toBe('event: messageStop\ndata: {"stopReason":"end_turn"}\n\n');
  });

  it('writes an exception under its :exception-type, and a broken stream or error message as internalServerException', async () => {
    expect(await sse([join(event('messageStart', START), exceptionMessage('throttlingException', 'Too many requests'))])).toBe(
      `event: messageStart\ndata: ${START}\n\nevent: throttlingException\ndata: {"message":"Too many requests"}\n\n`,
    );
    expect(await sse([event('messageStart', START).subarray(0, 30)])).toBe(
      'event: internalServerException\ndata: {"message":"the Bedrock event stream ended in the middle of a message"}\n\n',
    );
    const error = eventStreamMessage({ ':message-type': 'error', ':error-code': 'InternalFailure', ':error-message': 'boom' }, new Uint8Array());
    expect(await sse([error])).toBe('event: internalServerException\ndata: {"message":"boom"}\n\n');
  });
});
