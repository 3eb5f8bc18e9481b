/**
 * Why generation ended, one set for every protocol. Codecs map their wire values onto it (each
 * codec's `finish-reason.ts`) and keep the wire value next to it (`rawFinishReason`).
 * - `stop`: natural end or a stop sequence.
 * - `length`: the output token limit.
 * - `tool_calls`: the turn ends with tool calls for the client to run.
 * - `content_filter`: output withheld by a safety filter.
 * - `refusal`: the model declined.
 * - `pause`: a long-running turn paused (Claude `pause_turn`); send it back to continue.
 * - `context_exceeded`: the context window filled up.
 * - `error`: the provider failed mid-generation.
 * - `other`: anything else.
 */
export type LlmFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'refusal' | 'pause' | 'context_exceeded' | 'error' | 'other';

/** Every {@link LlmFinishReason}. */
export const FINISH_REASONS: readonly LlmFinishReason[] = Object.freeze([
  'stop',
  'length',
  'tool_calls',
  'content_filter',
  'refusal',
  'pause',
  'context_exceeded',
  'error',
  'other',
]);

/**
 * The refusal text a codec writes when a `refusal` finish reaches a protocol whose clients look
 * for refusal text (Chat `message.refusal`, a Responses refusal part) and the upstream gave none
 * (a Claude classifier refusal): written by the gateway, never by the model, and the same words
 * in every protocol.
 */
export const REFUSAL_FALLBACK_TEXT = 'The model declined to respond to this request.';
