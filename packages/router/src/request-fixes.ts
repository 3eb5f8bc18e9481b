import type { LlmMessage, LlmRequest, LlmToolMessage, ProtocolId } from '@llm/core';
import { reportLoss, type CodecContext } from '@llm/core';

/** Output-token default for targets that require one (Claude's `max_tokens`). */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

/** Stop-sequence limits per target (OpenAI Chat: 4, Gemini: 5; others unbounded). */
const STOP_LIMITS: Partial<Record<ProtocolId, number>> = { 'openai-chat': 4, gemini: 5 };

/**
 * Request-side canonical fixes for a target protocol, applied before the upstream codec encodes:
 * - max-token default where the target requires one (`defaulted` warning),
 * - stop sequences cut to the target's limit (`dropped-field`),
 * - consecutive same-role user / assistant turns merged where the target demands alternation
 *   (Claude, Gemini),
 * - tool results reordered to follow the assistant turn that called them.
 */
export function fixRequestForTarget(request: LlmRequest, target: ProtocolId, context?: CodecContext): LlmRequest {
  if (target === 'claude' && request.maxOutputTokens === undefined) {
    request.maxOutputTokens = DEFAULT_MAX_OUTPUT_TOKENS;
    reportLoss(context, {
      code: 'defaulted',
      path: 'max_tokens',
      message: `max_tokens defaulted to ${DEFAULT_MAX_OUTPUT_TOKENS}`,
    });
  }
  const limit = STOP_LIMITS[target];
  if (limit !== undefined && request.stop && request.stop.length > limit) {
    reportLoss(context, {
      code: 'dropped-field',
      path: `stop[${limit}]`,
      message: `${target} accepts at most ${limit} stop sequences; ${request.stop.length - limit} dropped`,
    });
    request.stop = request.stop.slice(0, limit);
  }
  request.messages = orderToolResults(request.messages);
  if (target === 'claude' || target === 'gemini') request.messages = mergeSameRoleTurns(request.messages);
  return request;
}

/** Merges consecutive user (or assistant) messages into one, keeping every part in order. */
export function mergeSameRoleTurns(messages: LlmMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (const message of messages) {
    const previous = out[out.length - 1];
    if (previous && previous.role === message.role && (message.role === 'user' || message.role === 'assistant')) {
      const merged = { ...previous, content: [...previous.content, ...message.content] } as LlmMessage;
      delete (merged as { stringContent?: boolean }).stringContent;
      out[out.length - 1] = merged;
    } else out.push(message);
  }
  return out;
}

/**
 * Moves tool messages so each directly follows the assistant turn holding the calls it answers
 * (clients sometimes put a user note between a call and its result). Results within one turn are
 * ordered like the calls.
 */
export function orderToolResults(messages: LlmMessage[]): LlmMessage[] {
  const callOwner = new Map<string, number>();
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'tool-call') callOwner.set(part.id, index);
    }
  });
  if (callOwner.size === 0) return messages;
  const attached = new Map<number, LlmToolMessage[]>();
  const rest: Array<LlmMessage | number> = [];
  messages.forEach((message, index) => {
    if (message.role === 'assistant') rest.push(message, index);
    else if (message.role === 'tool') {
      const first = message.content.find((part) => part.type === 'tool-result');
      const owner = first && first.type === 'tool-result' ? callOwner.get(first.toolCallId) : undefined;
      if (owner === undefined) rest.push(message);
      else attached.set(owner, [...(attached.get(owner) ?? []), message]);
    } else rest.push(message);
  });
  const out: LlmMessage[] = [];
  for (const item of rest) {
    if (typeof item === 'number') out.push(...(attached.get(item) ?? []));
    else out.push(item);
  }
  return out;
}
