import type { LlmMessage } from '@llm/core';

/**
 * Drops the plain text a client sends in the same turn as tool results (a model given both
 * may answer the text and ignore the results, or call the tool again). Off by default because
 * such text can be a new instruction. Only text goes: images and documents beside the results
 * stay, and a user message left empty is removed. A turn is what lies between two assistant
 * messages, text before or after the results alike. Every turn is treated the same, so the
 * history the upstream sees stays the same from one request to the next (its prompt cache keeps
 * matching).
 */
export function dropTextBesideToolResults(messages: LlmMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  let turnStart = 0;
  for (let index = 0; index <= messages.length; index++) {
    if (index < messages.length && messages[index]?.role !== 'assistant') continue;
    // messages[turnStart, index) is one client turn.
    const turn = messages.slice(turnStart, index);
    if (turn.some((message) => message.role === 'tool')) {
      for (const message of turn) {
        if (message.role !== 'user') out.push(message);
        else {
          const content = message.content.filter((part) => part.type !== 'text');
          if (content.length > 0) out.push({ ...message, content });
        }
      }
    } else out.push(...turn);
    if (index < messages.length) out.push(messages[index] as LlmMessage);
    turnStart = index + 1;
  }
  return out;
}
