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

const WIRE = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);

/** Canonical finish reason -> wire; the raw value wins when it is a chat value. */
export function encodeFinishReason(reason: LlmFinishReason, raw: string | undefined): string {
  if (raw !== undefined && WIRE.has(raw) && decodeFinishReason(raw) === reason) return raw;
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
