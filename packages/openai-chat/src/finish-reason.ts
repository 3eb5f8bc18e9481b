import type { LlmFinishReason } from '@llm/core';

/** Wire `finish_reason` -> canonical (mapping.md §7). */
export function decodeFinishReason(raw: string): LlmFinishReason {
  switch (raw) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}

/**
 * The finish reason of a choice, looking at what it holds: `stop` on a turn that called tools is
 * `tool_calls` (some compatible servers say `stop` there, and a Claude client would then never
 * run the tool: REGRESSIONS #15), and `stop` with a refusal is `refusal` (mapping.md §7).
 */
export function decodeChoiceFinish(raw: string, calledTools: boolean, refused: boolean): LlmFinishReason {
  if (raw === 'stop') {
    if (calledTools) return 'tool_calls';
    if (refused) return 'refusal';
  }
  return decodeFinishReason(raw);
}

const WIRE = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);

/** Canonical finish reason -> wire; the raw value wins when it is a chat value. */
export function encodeFinishReason(reason: LlmFinishReason, raw: string | undefined): string {
  // `stop` read as tool_calls or refusal (decodeChoiceFinish) is written back as it came.
  if (raw !== undefined && WIRE.has(raw) && (decodeFinishReason(raw) === reason || (raw === 'stop' && (reason === 'tool_calls' || reason === 'refusal')))) return raw;
  switch (reason) {
    case 'stop':
    case 'refusal':
    case 'pause':
    case 'error':
    case 'other':
      return 'stop';
    case 'length':
    case 'context_exceeded':
      return 'length';
    case 'tool_calls':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default: {
      const unreachable: never = reason;
      return unreachable;
    }
  }
}
