import type { LlmMessage, LlmRequest } from '@llm/core';
import type { ReadOnlyToolsConfig } from '../config.js';
import { userText } from './turns.js';

/**
 * Words that mark a request as read-only, unless a write word is present too: a fixed list
 * (read, readme, summary, summarize, 解释 "explain", 总结 "summarize") and the English verbs the
 * policy always matched.
 */
export const DEFAULT_READ_WORDS: readonly string[] = [
  'read',
  'readme',
  'summary',
  'summarize',
  'summarise',
  '解释',
  '总结',
  'show',
  'list',
  'explain',
  'what',
  'why',
  'how',
  'find',
  'search',
  'look',
  'describe',
];

/** Words that mark a request as a change: a fixed list (edit, update, 修改 "modify", 写 "write") and more English verbs. */
export const DEFAULT_WRITE_WORDS: readonly string[] = [
  'edit',
  'update',
  '修改',
  '写',
  'write',
  'change',
  'fix',
  'create',
  'delete',
  'remove',
  'refactor',
  'rename',
  'implement',
  'add',
];

interface IntentMatchers {
  read: RegExp;
  write: RegExp;
  allow: Set<string>;
}

// Compiled once per config object, not per request.
const compiled = new WeakMap<ReadOnlyToolsConfig, IntentMatchers>();

function matchersOf(config: ReadOnlyToolsConfig): IntentMatchers {
  let matchers = compiled.get(config);
  if (!matchers) {
    matchers = {
      read: wordPattern(config.readWords ?? DEFAULT_READ_WORDS),
      write: wordPattern(config.writeWords ?? DEFAULT_WRITE_WORDS),
      allow: new Set(config.allow),
    };
    compiled.set(config, matchers);
  }
  return matchers;
}

/**
 * One case-insensitive pattern for a word list. A word made of Latin letters, digits and `_`
 * matches as a whole word ("read" not in "already"); any other word (Chinese, Japanese: no
 * spaces between words) matches anywhere in the text. An empty list matches nothing.
 */
export function wordPattern(words: readonly string[]): RegExp {
  const alternatives = words
    .filter((word) => word !== '')
    .map((word) => {
      const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return /^\w+$/.test(word) ? `\\b${escaped}\\b` : escaped;
    });
  return alternatives.length === 0 ? /(?!)/ : new RegExp(alternatives.join('|'), 'i');
}

/**
 * Offers only the allowed tools when the latest user text reads as read-only: a read word and
 * no write word (a write word wins: "explain and fix").
 */
export function limitToolsOnReadOnlyIntent(request: LlmRequest, config: ReadOnlyToolsConfig): void {
  if (!request.tools) return;
  const matchers = matchersOf(config);
  const text = latestUserText(request.messages);
  if (text === undefined || !matchers.read.test(text) || matchers.write.test(text)) return;
  limitTools(request, matchers.allow);
}

function latestUserText(messages: LlmMessage[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as LlmMessage;
    if (message.role === 'user') return userText(message) ?? '';
  }
  return undefined;
}

/**
 * Keeps only allowed tools. A tool choice naming a removed tool would make the upstream reject the
 * request, so it falls back to the remaining tools; with none left the tools stay
 * declared (history may hold calls to them, which Claude requires declared) but `tool_choice` is
 * `none`.
 */
function limitTools(request: LlmRequest, allow: Set<string>): void {
  const kept = (request.tools ?? []).filter((tool) => allow.has(tool.name));
  if (kept.length === 0) {
    request.toolChoice = { type: 'none' };
    return;
  }
  request.tools = kept;
  const choice = request.toolChoice;
  if (choice?.type === 'tool' && !allow.has(choice.name)) request.toolChoice = { type: 'required' };
  else if (choice?.type === 'allowed') {
    const names = choice.names.filter((name) => allow.has(name));
    request.toolChoice = names.length > 0 ? { ...choice, names } : { type: choice.mode === 'required' ? 'required' : 'auto' };
  }
}
