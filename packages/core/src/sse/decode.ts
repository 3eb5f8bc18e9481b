import { createParser, type EventSourceParser } from 'eventsource-parser';
import { LlmError } from '../errors.js';
import { stepStream, type StepOutput, type StreamStep } from '../stream-step.js';
import { readPlainEvents } from './plain-events.js';
import type { SseEvent } from './types.js';

/** Options of {@link decodeSse}. */
export interface SseDecodeOptions {
  /**
   * Largest event (in characters) the parser may buffer. A stream whose single event grows past
   * it errors instead of exhausting memory. Default: 16 MiB.
   */
  maxEventSize?: number;
}

/** Default {@link SseDecodeOptions.maxEventSize}: large enough for a long tool-call argument blob. */
export const DEFAULT_MAX_SSE_EVENT_SIZE = 16 * 1024 * 1024;

/**
 * Decodes a byte stream of server-sent events (a `fetch` response body) into events.
 * Bytes may be split anywhere, multi-byte UTF-8 characters included; lines may end in LF, CRLF
 * or CR; `event:` and `id:` lines are kept; comments (`: ping`) are skipped.
 *
 * A stream that grows one event past `maxEventSize` errors (the parser cannot recover).
 */
export function decodeSse(body: ReadableStream<Uint8Array>, options: SseDecodeOptions = {}): ReadableStream<SseEvent> {
  return body.pipeThrough(stepStream(sseDecoder(options)));
}

/**
 * {@link decodeSse} as a stream step (bytes in, events out): UTF-8 decoded across chunk
 * boundaries, then parsed. A parse error past `maxEventSize` is thrown.
 *
 * Text read at an event boundary is read by {@link readPlainEvents} as far as it holds plain
 * events (most streams hold nothing else), and eventsource-parser reads the rest, and every
 * chunk after it until one ends with a blank line: then the parser holds nothing again, and
 * the plain reading resumes. Both read the same events from the same text.
 */
export function sseDecoder(options: SseDecodeOptions = {}): StreamStep<Uint8Array, SseEvent> {
  const decoder = utf8ChunkDecoder();
  const maxEventSize = options.maxEventSize ?? DEFAULT_MAX_SSE_EVENT_SIZE;
  let target: StepOutput<SseEvent> | undefined;
  const emit = (event: SseEvent): void => target?.enqueue(event);
  let parser: EventSourceParser | undefined;
  /** The parser holds nothing: the next text starts at an event boundary. */
  let atBoundary = true;
  let first = true;
  const feed = (text: string): void => {
    // A limit below zero (or NaN) fails every chunk in eventsource-parser: left to it alone.
    if (!(maxEventSize >= 0)) {
      parser ??= sseParser(options, emit);
      parser.feed(text);
      return;
    }
    let rest = text;
    if (first) {
      first = false;
      // What eventsource-parser drops from its first text: a byte-order mark decoded as Latin-1.
      if (rest.charCodeAt(0) === 0xef && rest.charCodeAt(1) === 0xbb && rest.charCodeAt(2) === 0xbf) rest = rest.slice(3);
    }
    if (atBoundary) {
      const end = readPlainEvents(rest, emit);
      if (end === rest.length) return;
      rest = rest.slice(end);
    }
    if (!parser) {
      parser = sseParser(options, emit);
      // Its first-text check was made above, on the stream's first text.
      parser.feed('');
    }
    parser.feed(rest);
    atBoundary = rest.endsWith('\n\n') || rest.endsWith('\r\n\r\n');
  };
  return {
    transform(chunk, out) {
      target = out;
      const text = decoder.decode(chunk);
      if (text !== '') feed(text);
    },
    flush(out) {
      target = out;
      const rest = decoder.end();
      if (rest !== '') feed(rest);
    },
  };
}

/** UTF-8 chunks -> text, characters split between chunks included: what `TextDecoder` gives with `stream: true`. */
export interface Utf8ChunkDecoder {
  /** The text of `chunk`, with the bytes a previous chunk left; a character cut at its end waits. */
  decode(chunk: Uint8Array): string;
  /** The text of the bytes still waiting (a cut character: U+FFFD), at the end of the input. */
  end(): string;
}

/**
 * A {@link Utf8ChunkDecoder} that decodes each chunk whole. Node's `TextDecoder` leaves its fast
 * path for good once called with `stream: true`, and its streaming path costs about twice as much
 * per small chunk (an upstream read holds an event or two); reads end on a character boundary
 * almost always, so only the bytes of a character cut at the end of one wait for the next.
 * Cutting before a byte that starts a character gives the same text as one streaming decode,
 * malformed input included, and the byte-order mark is dropped only at the very start, as there.
 */
export function utf8ChunkDecoder(): Utf8ChunkDecoder {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let waiting: Uint8Array | undefined;
  let atStart = true;
  const text = (bytes: Uint8Array): string => {
    if (bytes.length === 0) return '';
    const decoded = decoder.decode(bytes);
    if (!atStart || decoded === '') return decoded;
    atStart = false;
    return decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  };
  return {
    decode(chunk) {
      let bytes = chunk;
      if (waiting) {
        bytes = new Uint8Array(waiting.length + chunk.length);
        bytes.set(waiting);
        bytes.set(chunk, waiting.length);
        waiting = undefined;
      }
      const whole = completeLength(bytes);
      if (whole === bytes.length) return text(bytes);
      waiting = bytes.slice(whole);
      return text(bytes.subarray(0, whole));
    },
    end() {
      const rest = waiting;
      waiting = undefined;
      return rest ? text(rest) : '';
    },
  };
}

/**
 * Length of the longest prefix of `bytes` that does not end inside a character: `bytes.length`
 * unless its last lead byte (a sequence's first byte) announces more bytes than follow it.
 */
function completeLength(bytes: Uint8Array): number {
  const length = bytes.length;
  for (let back = 1; back <= 4 && back <= length; back++) {
    const byte = bytes[length - back] as number;
    // 10xxxxxx continues a character: look further back.
    if ((byte & 0xc0) === 0x80) continue;
    const size = byte >= 0xf0 && byte <= 0xf4 ? 4 : byte >= 0xe0 ? (byte <= 0xef ? 3 : 1) : byte >= 0xc2 ? 2 : 1;
    return back < size ? length - back : length;
  }
  return length;
}

/**
 * The events of SSE text already decoded (a capture, the kept tail of a stream), as
 * {@link sseDecoder} gives them for its bytes: an event not ended by a blank line is not one yet.
 */
export function parseSseText(text: string, options: SseDecodeOptions = {}): SseEvent[] {
  const events: SseEvent[] = [];
  sseParser(options, (event) => events.push(event)).feed(text);
  return events;
}

function sseParser(options: SseDecodeOptions, onEvent: (event: SseEvent) => void): EventSourceParser {
  return createParser({
    onEvent,
    onError: (error) => {
      // Like eventsource-parser's own stream: only an overflow ends the stream.
      if (error.type === 'max-buffer-size-exceeded') throw error;
    },
    maxBufferSize: options.maxEventSize ?? DEFAULT_MAX_SSE_EVENT_SIZE,
  });
}

/** Collects every event of an SSE byte stream (for tests and small captures). */
export async function collectSse(body: ReadableStream<Uint8Array>, options?: SseDecodeOptions): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const reader = decodeSse(body, options).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return events;
      events.push(value);
    }
  } catch (error) {
    throw LlmError.isInstance(error)
      ? error
      : // The reader's or parser's own message (a socket error, a buffer size) stays in the cause.
        new LlmError({ kind: 'upstream', message: 'the event stream could not be read', cause: error });
  }
}
