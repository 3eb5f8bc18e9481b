import type { LlmAssistantContent, LlmMessage, LlmRequest, ProtocolId } from '@llm/core';
import type { PolicyConfig } from '../config.js';

/**
 * Context strategies for conversations that move between models. The current tool loop (the
 * messages after the last user text) always stays whole: providers need the reasoning and calls
 * of the turn they are continuing.
 * - `full`: keep everything;
 * - `tool`: earlier turns lose their reasoning, keep their tool calls and results;
 * - `minimal`: earlier turns lose their reasoning and their tool calls and results (assistant text
 *   stays; messages left empty are removed);
 * - `adaptive`: reasoning whose opaque state another protocol issued (the target cannot verify it)
 *   is dropped everywhere; everything else stays.
 */
export function applyContextStrategy(request: LlmRequest, strategy: NonNullable<PolicyConfig['contextStrategy']>, target: ProtocolId): void {
  if (strategy === 'full') return;
  const loopStart = currentLoopStart(request.messages);
  const droppedCalls = new Set<string>();
  const keepPart = (part: LlmAssistantContent, earlier: boolean): boolean => {
    switch (strategy) {
      case 'adaptive':
        return part.type !== 'reasoning' || part.origin === undefined || part.origin.protocol === target;
      case 'tool':
        return !earlier || part.type !== 'reasoning';
      case 'minimal':
        if (!earlier) return true;
        if (part.type === 'tool-call') droppedCalls.add(part.id);
        return part.type !== 'reasoning' && part.type !== 'tool-call';
      default: {
        const unreachable: never = strategy;
        return unreachable;
      }
    }
  };
  const out: LlmMessage[] = [];
  request.messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      const content = message.content.filter((part) => keepPart(part, index < loopStart));
      if (content.length > 0) out.push({ ...message, content });
    } else if (message.role === 'tool' && droppedCalls.size > 0) {
      const content = message.content.filter((part) => part.type !== 'tool-result' || !droppedCalls.has(part.toolCallId));
      if (content.length > 0) out.push({ ...message, content });
    } else out.push(message);
  });
  request.messages = out;
}

/** Index of the first message after the last user message that holds text (tool results excluded). */
function currentLoopStart(messages: LlmMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) if (messages[index]?.role === 'user') return index + 1;
  return 0;
}
