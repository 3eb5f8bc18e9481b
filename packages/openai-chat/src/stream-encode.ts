import type { LlmStreamEvent, SseEvent, StreamOptions, StreamStep } from '@llm/core';
import { createEncodeState, encodeEvent, endEncode } from './stream-encode-state.js';

/**
 * Canonical stream events -> Chat Completions SSE events (`chat.completion.chunk` payloads, the
 * usage-only chunk when `includeUsage`, then `[DONE]`; an `error` event, or input that ends
 * without a `finish`, becomes a `{"error":...}` payload and ends the stream without `[DONE]`).
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 */
export function streamEncoder(options: StreamOptions = {}): StreamStep<LlmStreamEvent, SseEvent> {
  const state = createEncodeState(options.id, options.includeUsage === true, options);
  return {
    transform: (event, out) => encodeEvent(state, out, event),
    flush: (out) => endEncode(state, out),
  };
}
