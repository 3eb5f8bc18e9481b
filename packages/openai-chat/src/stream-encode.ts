import type { LlmStreamEvent, SseEvent, StreamOptions } from '@llm/core';
import { createEncodeState, encodeEvent, endEncode } from './stream-encode-state.js';

/**
 * Canonical stream events -> Chat Completions SSE events (`chat.completion.chunk` payloads, the
 * usage-only chunk when `includeUsage`, then `[DONE]`; an `error` event becomes a
 * `{"error":...}` payload and ends the stream).
 * @see openai-chat.md §3
 */
export function encodeStream(options: StreamOptions = {}): TransformStream<LlmStreamEvent, SseEvent> {
  const state = createEncodeState(options.id, options.includeUsage === true, options);
  return new TransformStream<LlmStreamEvent, SseEvent>({
    transform(event, controller) {
      encodeEvent(state, controller, event);
    },
    flush(controller) {
      endEncode(state, controller);
    },
  });
}
