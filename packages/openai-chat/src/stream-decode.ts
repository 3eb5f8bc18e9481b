import type { LlmStreamEvent, SseEvent, StreamOptions, StreamStep } from '@llm/core';
import { readSseJson } from '@llm/core/kit';
import { PROTOCOL } from './protocol.js';
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
      const { payload, error } = readSseJson(PROTOCOL, data, 'stream chunk');
      if (error) failStream(state, controller, error);
      else decodeChunk(state, controller, payload);
    },
    flush: (controller) => endInput(state, controller),
  };
}
