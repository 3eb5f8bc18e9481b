import { createParser, type EventSourceParser } from 'eventsource-parser';
import { LlmError } from '../errors.js';
import { stepStream, type StepOutput, type StreamStep } from '../stream-step.js';
import type { SseEvent } from './types.js';

/** Options of {@link decodeSse}. */
export interface SseDecodeOptions {
  /**
   * Largest event (in characters) the parser may buffer. A stream whose single event grows past
   * it errors instead of exhausting memory. Default: 16 MiB.
   */
  maxEventSize?: number;
}

/** TextDecoder options for a chunk that may end inside a character (one object, not one per chunk). */
const STREAMING: TextDecodeOptions = { stream: true };

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
 * boundaries, parsed by eventsource-parser. A parse error past `maxEventSize` is thrown.
 */
export function sseDecoder(options: SseDecodeOptions = {}): StreamStep<Uint8Array, SseEvent> {
  const decoder = new TextDecoder();
  let target: StepOutput<SseEvent> | undefined;
  const parser = sseParser(options, (event) => target?.enqueue(event));
  return {
    transform(chunk, out) {
      target = out;
      const text = decoder.decode(chunk, STREAMING);
      if (text !== '') parser.feed(text);
    },
    flush(out) {
      target = out;
      const rest = decoder.decode();
      if (rest !== '') parser.feed(rest);
    },
  };
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
