import type { LlmAssistantContent, LlmFinishReason } from '@llm/core';

/**
 * Responses has no finish reason: derive one from `status`, `incomplete_details.reason` and the
 * output (https://platform.openai.com/docs/api-reference/responses/object). The raw value is
 * `status` or `incomplete:<reason>`.
 */
export function decodeFinishReason(
  status: string | undefined,
  incompleteReason: string | undefined,
  content: readonly LlmAssistantContent[],
): { reason: LlmFinishReason; raw: string } {
  switch (status) {
    case 'incomplete': {
      const raw = incompleteReason ? `incomplete:${incompleteReason}` : 'incomplete';
      if (incompleteReason === 'max_output_tokens') return { reason: 'length', raw };
      if (incompleteReason === 'content_filter') return { reason: 'content_filter', raw };
      return { reason: 'other', raw };
    }
    case 'failed':
      return { reason: 'error', raw: 'failed' };
    case 'cancelled':
      return { reason: 'other', raw: 'cancelled' };
    case 'queued':
    case 'in_progress':
      // A background response that has not finished yet
      // (https://platform.openai.com/docs/guides/background).
      return { reason: 'pause', raw: status };
    case 'completed':
    case undefined: {
      const raw = status ?? 'completed';
      let refusal = false;
      for (const part of content) {
        if (part.type === 'tool-call') return { reason: 'tool_calls', raw };
        if (part.type === 'mcp-approval-request' || (part.type === 'provider' && isApprovalRequest(part.value))) return { reason: 'tool_calls', raw };
        if (part.type === 'refusal') refusal = true;
      }
      return { reason: refusal ? 'refusal' : 'stop', raw };
    }
    default:
      return { reason: 'other', raw: status };
  }
}

function isApprovalRequest(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'mcp_approval_request';
}

/** Canonical finish reason -> Responses `status` and `incomplete_details`. */
export function encodeFinishReason(reason: LlmFinishReason | undefined, raw: string | undefined): { status: string; incomplete?: { reason: string } } {
  if (raw !== undefined) {
    if (raw.startsWith('incomplete')) {
      const detail = raw.slice('incomplete:'.length);
      return detail ? { status: 'incomplete', incomplete: { reason: detail } } : { status: 'incomplete' };
    }
    if (raw === 'completed' || raw === 'failed' || raw === 'cancelled' || raw === 'in_progress' || raw === 'queued') return { status: raw };
  }
  switch (reason) {
    case 'length':
    case 'context_exceeded':
      return { status: 'incomplete', incomplete: { reason: 'max_output_tokens' } };
    case 'content_filter':
      return { status: 'incomplete', incomplete: { reason: 'content_filter' } };
    case 'error':
      return { status: 'failed' };
    case 'pause':
      return { status: 'incomplete' };
    case undefined:
    case 'stop':
    case 'tool_calls':
    case 'refusal':
    case 'other':
      return { status: 'completed' };
    default: {
      const unreachable: never = reason;
      return unreachable;
    }
  }
}
