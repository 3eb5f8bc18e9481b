import type { LlmFinishReason } from '@llm/core';
import type { ClaudeStopReason } from './wire-types.js';

const DECODE: Readonly<Record<string, LlmFinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  pause_turn: 'pause',
  refusal: 'refusal',
  model_context_window_exceeded: 'context_exceeded',
  // Beta: the server compacted the context and stopped.
  compaction: 'other',
};

/** Wire `stop_reason` -> canonical finish reason (unknown values are `other`). */
export function decodeStopReason(value: string): LlmFinishReason {
  return DECODE[value] ?? 'other';
}

const ENCODE: Readonly<Record<LlmFinishReason, ClaudeStopReason>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
  refusal: 'refusal',
  pause: 'pause_turn',
  context_exceeded: 'model_context_window_exceeded',
  error: 'end_turn',
  other: 'end_turn',
};

/**
 * Canonical finish reason -> wire `stop_reason`. The raw wire value wins when it came from Claude
 * and still means the same thing (keeps `compaction` and other values we only know as `other`);
 * a stop caused by a stop sequence says so.
 */
export function encodeStopReason(reason: LlmFinishReason | undefined, raw: string | undefined, stopSequence: string | undefined): string | null {
  if (reason === undefined) return null;
  if (raw !== undefined && Object.hasOwn(DECODE, raw) && DECODE[raw] === reason) return raw;
  if (reason === 'stop' && stopSequence !== undefined) return 'stop_sequence';
  return ENCODE[reason];
}
