import { byteAtATime, splitAt, splitOffsets, utf8 } from '@llm/test-utils';
import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { propertyRuns } from '@llm/test-utils/property-runs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_SSE_EVENT_SIZE, sseDecoder, utf8ChunkDecoder } from './decode.js';
import { readPlainEvents } from './plain-events.js';
import type { SseEvent } from './types.js';

/** What a decoder gave for some chunks: its events in order, and the error it threw (its type), if any. */
interface Outcome {
  events: SseEvent[];
  error?: string;
}

/** The decoding before plain events were read apart: eventsource-parser fed every chunk's text. */
function referenceDecode(chunks: Uint8Array[], maxEventSize = DEFAULT_MAX_SSE_EVENT_SIZE): Outcome {
  const events: SseEvent[] = [];
  const decoder = utf8ChunkDecoder();
  const parser = createParser({
    onEvent: (event) => events.push(event),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') throw error;
    },
    maxBufferSize: maxEventSize,
  });
  try {
    for (const chunk of chunks) {
      const text = decoder.decode(chunk);
      if (text !== '') parser.feed(text);
    }
    const rest = decoder.end();
    if (rest !== '') parser.feed(rest);
  } catch (error) {
    return { events, error: (error as { type?: string }).type ?? String(error) };
  }
  return { events };
}

function decode(chunks: Uint8Array[], maxEventSize?: number): Outcome {
  const events: SseEvent[] = [];
  const out = { enqueue: (event: SseEvent) => events.push(event) };
  const step = sseDecoder(maxEventSize === undefined ? {} : { maxEventSize });
  try {
    for (const chunk of chunks) step.transform(chunk, out);
    step.flush?.(out);
  } catch (error) {
    return { events, error: (error as { type?: string }).type ?? String(error) };
  }
  return { events };
}

/** Events and their key order, as a decoder's consumers see them. */
const visible = (outcome: Outcome): unknown => ({ ...outcome, events: outcome.events.map((event) => [Object.keys(event), event]) });

describe('readPlainEvents', () => {
  it('reads event and data lines ended by LF or CRLF, and stops at the first event that is not plain', () => {
    const events: SseEvent[] = [];
    const text = 'event: a\ndata: {"x":1}\n\ndata:no space\r\n\r\nevent:\ndata:  two spaces\n\n: comment\ndata: later\n\n';
    const end = readPlainEvents(text, (event) => events.push(event));
    expect(events).toEqual([
      { id: undefined, event: 'a', data: '{"x":1}' },
      { id: undefined, event: undefined, data: 'no space' },
      { id: undefined, event: undefined, data: ' two spaces' },
    ]);
    expect(text.slice(end)).toBe(': comment\ndata: later\n\n');
  });

  it('leaves to the parser what only it reads right', () => {
    const cases = [
      'data: a\rdata: b\n\n', // a lone CR ends a line
      'data: a\n\r', // a CR at the end may be the start of CRLF
      'data: a\ndata: b\n\n', // two data lines
      'id: 1\ndata: a\n\n',
      'retry: 10\ndata: a\n\n',
      'event: a\nid: 1\ndata: a\n\n',
      '\ndata: a\n\n', // a blank line first
      'data: a\n', // cut before the blank line
      'data: cut',
      'Data: a\n\n',
      'event a\ndata: a\n\n',
    ];
    for (const text of cases)
      expect(
        readPlainEvents(text, () => undefined),
        text,
      ).toBe(0);
    const events: SseEvent[] = [];
    // Line ends may differ from line to line, as the parser allows.
    expect(readPlainEvents('data: a\r\n\ndata: b\n\r\ndata: c\n\r', (event) => events.push(event))).toBe(20);
    expect(events.map((event) => event.data)).toEqual(['a', 'b']);
  });
});

describe('sseDecoder, plain events read apart', () => {
  const CAPTURE = [
    'event: message_start\r\ndata: {"t":"héllo 👋"}\r\n\r\n',
    'data: {"n":1}\r\n\r\n',
    ': ping\n\n',
    'event: delta\nid: 7\ndata: {"a":1}\ndata: {"b":2}\n\n',
    'data: [DONE]\n\n',
    'retry: 5\nunknown: x\ndata\n\n',
    'data: a\rdata: b\r\r',
    'data: after CR\n\n',
    'event: last\ndata: cut',
  ].join('');

  it('gives the events eventsource-parser gives, split at every offset and byte at a time', () => {
    const bytes = utf8(CAPTURE);
    const whole = referenceDecode([bytes]);
    expect(whole.events.length).toBe(7);
    expect(visible(decode([bytes]))).toEqual(visible(whole));
    expect(visible(decode(byteAtATime(bytes)))).toEqual(visible(referenceDecode(byteAtATime(bytes))));
    for (const offset of splitOffsets(bytes.length, 10_000)) {
      const chunks = splitAt(bytes, [offset]);
      expect(visible(decode(chunks))).toEqual(visible(referenceDecode(chunks)));
    }
  });

  it('drops a Latin-1 byte-order mark from the first text only, as the parser does', () => {
    const marked = utf8('\u00ef\u00bb\u00bfdata: x\n\n\u00ef\u00bb\u00bfdata: y\n\n');
    // The second one is the start of a line named `\u00ef\u00bb\u00bfdata`, a field no one knows.
    expect(decode([marked]).events.map((event) => event.data)).toEqual(['x']);
    for (const offset of splitOffsets(marked.length, 100)) {
      const chunks = splitAt(marked, [offset]);
      expect(visible(decode(chunks))).toEqual(visible(referenceDecode(chunks)));
    }
  });

  it('fails an oversize event after the same events as the parser, whatever the split', () => {
    const text = `data: ${'x'.repeat(50)}\n\ndata: ${'y'.repeat(300)}\n\ndata: z\n\n`;
    const bytes = utf8(text);
    for (const max of [-1, 0, 10, 100, 400, Number.NaN]) {
      for (const offset of splitOffsets(bytes.length, 1000)) {
        const chunks = splitAt(bytes, [offset]);
        expect(visible(decode(chunks, max)), `max ${max} at ${offset}`).toEqual(visible(referenceDecode(chunks, max)));
      }
    }
    expect(decode([bytes], 100)).toMatchObject({ events: [{ data: 'x'.repeat(50) }, { data: 'y'.repeat(300) }, { data: 'z' }] });
    // Only what waits for the next read counts: 150 characters of the second event here.
    expect(decode(splitAt(bytes, [208]), 100)).toMatchObject({ events: [{ data: 'x'.repeat(50) }], error: 'max-buffer-size-exceeded' });
  });

  it('gives the events eventsource-parser gives for any lines, line ends and splits (property)', () => {
    const value = fc.oneof(fc.constantFrom('', ' ', 'x', ' {"a":1}', 'é👋', '\u2028', '\u0000', '\u00ef\u00bb\u00bf'), fc.string({ maxLength: 8 }));
    const line = fc.oneof(
      { weight: 6, arbitrary: value.map((text) => `data: ${text}`) },
      { weight: 2, arbitrary: value.map((text) => `data:${text}`) },
      { weight: 3, arbitrary: value.map((text) => `event: ${text}`) },
      { weight: 4, arbitrary: fc.constant('') },
      {
        weight: 2,
        arbitrary: fc.oneof(
          value.map((text) => `id: ${text}`),
          value.map((text) => `: ${text}`),
          value.map((text) => `retry:${text}`),
          fc.constantFrom('data', 'event', 'event:', 'x: y'),
        ),
      },
    );
    const ending = fc.constantFrom('\n', '\n', '\r\n', '\r\n', '\r');
    const stream = fc.array(fc.tuple(line, ending), { maxLength: 14 }).map((lines) => lines.map(([text, end]) => text.replace(/[\r\n]/g, '') + end).join(''));
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 4 }), fc.constantFrom(undefined, 0, 8, 64), (text, cuts, max) => {
        const bytes = utf8(text);
        const chunks = splitAt(
          bytes,
          cuts.map((cut) => (bytes.length === 0 ? 0 : cut % bytes.length)).sort((a, b) => a - b),
        );
        expect(visible(decode(chunks, max))).toEqual(visible(referenceDecode(chunks, max ?? DEFAULT_MAX_SSE_EVENT_SIZE)));
      }),
      propertyRuns(1000),
    );
  });
});
