import { EventSourceParserStream } from 'eventsource-parser/stream';
import { LlmError } from '../errors.js';
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
  const parser = new EventSourceParserStream({ maxBufferSize: options.maxEventSize ?? DEFAULT_MAX_SSE_EVENT_SIZE });
  // TS's DOM lib types TextDecoderStream's writable side as BufferSource, wider than Uint8Array.
  const text = new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>;
  return body.pipeThrough(text).pipeThrough(parser);
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
      : new LlmError({ kind: 'upstream', message: `invalid event stream: ${(error as Error).message}`, cause: error });
  }
}
