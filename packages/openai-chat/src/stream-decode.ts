import type { LlmStreamEvent, SseEvent, StreamOptions, StreamStep } from '@llm/core';
import { checkParsedDepth, upstreamDecodeFailure } from '@llm/core';
import { PROTOCOL } from './internal.js';
import { createDecodeState, decodeChunk, endInput, endStream, failStream } from './stream-decode-state.js';

/**
 * Chat Completions SSE events -> canonical stream events. `finish` events are held until the
 * usage is known (the usage-only chunk, `[DONE]` or the end of the stream). A stream that ends
 * before every choice's `finish_reason` (and without `[DONE]`) ends with an `upstream` error.
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 */
export function streamDecoder(_options?: StreamOptions): StreamStep<SseEvent, LlmStreamEvent> {
  const state = createDecodeState();
  return {
    transform(event, controller) {
      if (state.done) return;
      const data = event.data;
      if (data === '[DONE]') {
        endStream(state, controller);
        return;
      }
      if (data === '') return;
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
        checkParsedDepth(data, chunk);
      } catch (error) {
        failStream(state, controller, upstreamDecodeFailure(PROTOCOL, 'stream chunk', error));
        return;
      }
      decodeChunk(state, controller, chunk);
    },
    flush: (controller) => endInput(state, controller),
  };
}
