import type { LlmFinishReason } from '@llm/core';
import type { ConverseStopReason } from './wire-types.js';

/** @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax */
const DECODE: Readonly<Record<string, LlmFinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
  model_context_window_exceeded: 'context_exceeded',
  malformed_model_output: 'error',
  malformed_tool_use: 'error',
};

/** True for the stop reasons this codec maps (others decode to `other` and are kept in the extension bag). */
export function isKnownStopReason(value: string): boolean {
  return Object.hasOwn(DECODE, value);
}

/** Wire `stopReason` -> canonical finish reason (unknown values are `other`). */
export function decodeStopReason(value: string): LlmFinishReason {
  return DECODE[value] ?? 'other';
}

/**
 * Canonical -> wire. Converse has no refusal word: a refusal is `content_filtered`, the model's
 * output withheld (its text, if any, stays); `pause`, `error` and `other` end the turn.
 */
const ENCODE: Readonly<Record<LlmFinishReason, ConverseStopReason>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'content_filtered',
  refusal: 'content_filtered',
  pause: 'end_turn',
  context_exceeded: 'model_context_window_exceeded',
  error: 'end_turn',
  other: 'end_turn',
};

/**
 * Canonical finish reason -> wire `stopReason`. The raw wire value wins when it came from Converse
 * and still means the same thing (`guardrail_intervened`, `malformed_tool_use`); a stop caused by
 * a stop sequence says so.
 */
export function encodeStopReason(reason: LlmFinishReason | undefined, raw: string | undefined, stopSequence: string | undefined): ConverseStopReason {
  if (reason === undefined) return 'end_turn';
  if (raw !== undefined && Object.hasOwn(DECODE, raw) && DECODE[raw] === reason) return raw as ConverseStopReason;
  if (reason === 'stop' && stopSequence !== undefined) return 'stop_sequence';
  return ENCODE[reason];
}
