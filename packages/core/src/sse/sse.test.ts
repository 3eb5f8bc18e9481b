import { byteAtATime, collect, splitAt, splitOffsets, streamOf, utf8 } from '@llm/test-utils';
import fc from 'fast-check';
import { propertyRuns } from '@llm/test-utils/property-runs';
import { describe, expect, it } from 'vitest';
import { collectSse, decodeSse, parseSseText } from './decode.js';
import { encodeSse, formatSseEvent } from './encode.js';
import { JsonSseEvent } from './json-event.js';
import type { SseEvent } from './types.js';

const CAPTURE = [
  ': comment lines are skipped\n',
  'event: message_start\n',
  'data: {"type":"message_start","text":"héllo 👋 wörld"}\n',
  '\n',
  'event: content_block_delta\n',
  'id: 7\n',
  'data: {"a":1}\n',
  'data: {"b":2}\n',
  '\n',
  'data: [DONE]\n',
  '\n',
].join('');

const EXPECTED: SseEvent[] = [
  { event: 'message_start', id: undefined, data: '{"type":"message_start","text":"héllo 👋 wörld"}' },
  { event: 'content_block_delta', id: '7', data: '{"a":1}\n{"b":2}' },
  { event: undefined, id: undefined, data: '[DONE]' },
];

async function decodeChunks(chunks: Uint8Array[]): Promise<SseEvent[]> {
  return collectSse(streamOf(chunks));
}

describe('decodeSse', () => {
  it('decodes a whole capture, keeping event and id lines', async () => {
    expect(await decodeChunks([utf8(CAPTURE)])).toEqual(EXPECTED);
  });

  it('gives the same events when the bytes are split at every offset (multi-byte UTF-8 included)', async () => {
    const bytes = utf8(CAPTURE);
    for (const offset of splitOffsets(bytes.length, 10_000)) {
      expect(await decodeChunks(splitAt(bytes, [offset]))).toEqual(EXPECTED);
    }
  });

  it('gives the same events one byte at a time', async () => {
    expect(await decodeChunks(byteAtATime(utf8(CAPTURE)))).toEqual(EXPECTED);
  });

  it('accepts CRLF and CR line endings (Gemini separates events with \\r\\n\\r\\n)', async () => {
    const crlf = CAPTURE.replace(/\n/g, '\r\n');
    // With bare CR endings the parser must see the next byte to rule out CRLF, so a stream that
    // ends exactly on "\r\r" keeps its last event pending; a CR-only server that keeps the
    // connection open (or sends a comment) delivers it.
    const cr = `${CAPTURE.replace(/\n/g, '\r')}: keep-alive\r`;
    expect(await decodeChunks([utf8(crlf)])).toEqual(EXPECTED);
    expect(await decodeChunks([utf8(cr)])).toEqual(EXPECTED);
    const bytes = utf8(crlf);
    for (const offset of splitOffsets(bytes.length, 200, 3)) {
      expect(await decodeChunks(splitAt(bytes, [offset]))).toEqual(EXPECTED);
    }
  });

  it('ignores a final event without its blank line (the connection closed mid-event)', async () => {
    expect(await decodeChunks([utf8('data: {"a":1}\n\ndata: {"partial"')])).toEqual([{ event: undefined, id: undefined, data: '{"a":1}' }]);
  });

  it('errors a stream whose single event outgrows the buffer limit', async () => {
    const huge = utf8(`data: ${'x'.repeat(5000)}`);
    await expect(collect(decodeSse(streamOf([huge, huge]), { maxEventSize: 1024 }))).rejects.toThrow();
  });

  it('strips a leading byte-order mark', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('data: x\n\n')]);
    expect(await decodeChunks([bytes])).toEqual([{ event: undefined, id: undefined, data: 'x' }]);
  });
});

describe('parseSseText', () => {
  it('gives the events the byte decoder gives, from text', () => {
    expect(parseSseText(CAPTURE)).toEqual(EXPECTED);
    expect(parseSseText('data: {"a":1}\r\n\r\ndata: {"partial"')).toEqual([{ event: undefined, id: undefined, data: '{"a":1}' }]);
  });

  it('throws on an event past the size limit', () => {
    expect(() => parseSseText(`data: ${'x'.repeat(5000)}`, { maxEventSize: 1024 })).toThrow();
  });
});

describe('formatSseEvent', () => {
  it('writes event, id and data lines and a blank line', () => {
    expect(formatSseEvent({ event: 'ping', data: '{"type":"ping"}' })).toBe('event: ping\ndata: {"type":"ping"}\n\n');
    expect(formatSseEvent({ data: '[DONE]' })).toBe('data: [DONE]\n\n');
    expect(formatSseEvent({ event: 'e', id: '1', data: 'x' })).toBe('event: e\nid: 1\ndata: x\n\n');
  });

  it('splits multi-line data into one data line per line', () => {
    expect(formatSseEvent({ data: 'a\nb\r\nc\rd' })).toBe('data: a\ndata: b\ndata: c\ndata: d\n\n');
  });

  it('strips CR and LF from event and id so they cannot inject fields', () => {
    expect(formatSseEvent({ event: 'x\ndata: evil', id: '1\r\n2', data: 'ok' })).toBe('event: xdata: evil\nid: 12\ndata: ok\n\n');
  });

  it("writes an encoder's JSON line as the same text as the plain event (property)", () => {
    expect(formatSseEvent(new JsonSseEvent('content_block_delta', '{"a":"x\\ny"}'))).toBe('event: content_block_delta\ndata: {"a":"x\\ny"}\n\n');
    expect(formatSseEvent(new JsonSseEvent(undefined, '[DONE]'))).toBe('data: [DONE]\n\n');
    fc.assert(
      fc.property(fc.option(fc.stringMatching(/^[a-z_.]{1,20}$/), { nil: undefined }), fc.jsonValue(), (name, value) => {
        const data = JSON.stringify(value);
        const plain: SseEvent = name === undefined ? { data } : { event: name, data };
        expect(formatSseEvent(new JsonSseEvent(name, data))).toBe(formatSseEvent(plain));
      }),
      propertyRuns(200),
    );
  });
});

describe('encodeSse then decodeSse', () => {
  const eventName = fc.stringMatching(/^[a-z_.]{1,20}$/);
  const lineText = fc.string({ unit: 'grapheme', maxLength: 30 }).map((text) => text.replace(/[\r\n]/g, ''));
  const event = fc.record(
    {
      event: eventName,
      data: fc.array(lineText, { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n')),
    },
    { requiredKeys: ['data'] },
  );

  it('is the identity for any events, however the bytes are split', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 5 }), async (events, cuts) => {
        const chunks = await collect(streamOf(events).pipeThrough(encodeSse()));
        const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
        let offset = 0;
        for (const chunk of chunks) {
          bytes.set(chunk, offset);
          offset += chunk.length;
        }
        const decoded = await decodeChunks(
          splitAt(
            bytes,
            cuts.map((cut) => cut % (bytes.length + 1)),
          ),
        );
        // Leading spaces after "data:" are part of the value except the first one.
        expect(decoded).toEqual(events.map((item) => ({ event: item.event, id: undefined, data: item.data })));
      }),
      propertyRuns(200),
    );
  });
});
