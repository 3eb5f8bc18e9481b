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

/**
 * Canonical -> wire. Gemini has no refusal finish: a refusal (a Claude classifier's `refusal`) is
 * `SAFETY`, the finish Gemini itself gives an answer its safety layer stopped, which every Gemini
 * client already treats as "no usable answer" (`PROHIBITED_CONTENT` and `SPII` name particular
 * policies a refusal does not state). No canonical reason but `stop` and `tool_calls` becomes
 * `STOP`, so nothing that went wrong reads as a normal answer: `pause` and `error` are `OTHER`
 * (Gemini's `CONTINUATION` promises a continuation token, `MALFORMED_FUNCTION_CALL` a bad call),
 * `context_exceeded` is `MAX_TOKENS` (the output was cut).
 */
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

/**
 * Canonical finish reason -> wire value; Gemini's own raw value comes back when it still fits.
 * `refused`: the choice holds a refusal part. A refusal that finished `stop` (an OpenAI Chat
 * `message.refusal` comes with `finish_reason: "stop"`) is `SAFETY` too: `STOP` would hand a
 * Gemini client the refusal text as a normal answer.
 */
export function encodeFinishReason(reason: LlmFinishReason, raw: string | undefined, refused = false): string {
  if (refused && reason === 'stop') return ENCODE.refusal;
  if (raw !== undefined && Object.hasOwn(DECODE, raw) && (DECODE[raw] === reason || (reason === 'tool_calls' && raw === 'STOP'))) return raw;
  return ENCODE[reason];
}
