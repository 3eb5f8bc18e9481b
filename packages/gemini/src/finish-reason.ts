import type { LlmFinishReason } from '@llm/core';

const DECODE: Readonly<Record<string, LlmFinishReason>> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
  IMAGE_PROHIBITED_CONTENT: 'content_filter',
  IMAGE_RECITATION: 'content_filter',
  CONTINUATION: 'pause',
  MALFORMED_FUNCTION_CALL: 'error',
  UNEXPECTED_TOOL_CALL: 'error',
  TOO_MANY_TOOL_CALLS: 'error',
  OTHER: 'other',
  LANGUAGE: 'other',
  NO_IMAGE: 'other',
  IMAGE_OTHER: 'other',
  FINISH_REASON_UNSPECIFIED: 'other',
};

/**
 * Wire `finishReason` (or a prompt `blockReason`) -> canonical. Gemini ends a tool-call turn with
 * `STOP`: a candidate holding function calls finished for `tool_calls`.
 */
export function decodeFinishReason(value: string, hasCalls: boolean): LlmFinishReason {
  const reason = (Object.hasOwn(DECODE, value) ? DECODE[value] : undefined) ?? 'other';
  return reason === 'stop' && hasCalls ? 'tool_calls' : reason;
}

const ENCODE: Readonly<Record<LlmFinishReason, string>> = {
  stop: 'STOP',
  length: 'MAX_TOKENS',
  tool_calls: 'STOP',
  content_filter: 'SAFETY',
  refusal: 'SAFETY',
  pause: 'OTHER',
  context_exceeded: 'MAX_TOKENS',
  error: 'OTHER',
  other: 'OTHER',
};

/** Canonical finish reason -> wire value; Gemini's own raw value comes back when it still fits. */
export function encodeFinishReason(reason: LlmFinishReason, raw: string | undefined): string {
  if (raw !== undefined && Object.hasOwn(DECODE, raw) && (DECODE[raw] === reason || (reason === 'tool_calls' && raw === 'STOP'))) return raw;
  return ENCODE[reason];
}
