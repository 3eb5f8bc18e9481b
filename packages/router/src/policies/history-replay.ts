import type { LlmMessage } from '@llm/core';
import { userText } from './turns.js';

/**
 * Drops user messages a client replays. `immediate` (the `true` setting): a user message
 * repeating the previous one with no answer in between (a retry re-sending the turn); a repeat
 * after an answer stays, as an intentional refresh. `answered`: also a user message whose text
 * an earlier user message already asked and an assistant turn answered (Claude Code replaying
 * history), wherever it sits; a refresh must then be worded differently ("re-read README").
 * Only text-only messages compare; each is hashed once (cost linear in the user text).
 */
export function dedupeHistoryReplay(messages: LlmMessage[], mode: 'immediate' | 'answered'): LlmMessage[] {
  const out: LlmMessage[] = [];
  const answered = new Set<string>();
  // User texts since the last assistant turn: answered once an assistant turn follows.
  let pending: string[] = [];
  let lastUserText: string | undefined;
  for (const message of messages) {
    if (message.role === 'user') {
      const text = userText(message);
      if (text !== undefined && (text === lastUserText || (mode === 'answered' && answered.has(text)))) continue;
      lastUserText = text;
      if (text !== undefined && mode === 'answered') pending.push(text);
    } else if (message.role === 'assistant' || message.role === 'tool') {
      lastUserText = undefined;
      if (message.role === 'assistant' && pending.length > 0) {
        for (const text of pending) answered.add(text);
        pending = [];
      }
    }
    out.push(message);
  }
  return out;
}
