import type { LlmMessage } from '@llm/core';

/** The text of a user message made of text parts only; undefined when it holds anything else. */
export function userText(message: LlmMessage): string | undefined {
  if (message.content.some((part) => part.type !== 'text')) return undefined;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Index of the first message after the last assistant turn: where what the client just sent starts. */
export function latestTurnStart(messages: LlmMessage[]): number {
  let index = messages.length;
  while (index > 0 && messages[index - 1]?.role !== 'assistant') index--;
  return index;
}

/** True when the client's latest turn answers tool calls (alone or next to new user text). */
export function latestTurnHasToolResults(messages: LlmMessage[]): boolean {
  for (let index = latestTurnStart(messages); index < messages.length; index++) if (messages[index]?.role === 'tool') return true;
  return false;
}
