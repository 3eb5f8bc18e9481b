import type { JsonObject, LlmAssistantContent, LlmMessage, LlmRequest, ProtocolId } from '@llm/core';
import { toolArgumentsObject, toolArgumentsText } from '@llm/core';
import type { PolicyConfig } from './config.js';

/** What {@link applyPolicies} needs besides the request. */
export interface PolicyContext {
  /** Protocol of the upstream the request goes to (context strategies). */
  target: ProtocolId;
}

const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>\s*/g;

/** Instruction added by the loop guard. */
export const LOOP_GUARD_INSTRUCTION =
  'You just repeated an identical tool call. Do not call the same tool with the same arguments again; use the result you already have or try something different.';

/** Words that mark a request as read-only, unless a write word is present too. */
const READ_ONLY_INTENT = /\b(read|show|list|explain|what|why|how|find|search|look|describe|summari[sz]e)\b/i;
const WRITE_INTENT = /\b(write|edit|change|fix|create|delete|remove|update|refactor|rename|implement|add)\b/i;

/** True when some policy is switched on (an empty `policies: {}` changes nothing, so it keeps the fast path). */
export function hasActivePolicies(policies: PolicyConfig | undefined): boolean {
  if (!policies) return false;
  return Boolean(
    policies.stripSystemReminders ||
      policies.dedupeHistoryReplay ||
      (policies.contextStrategy !== undefined && policies.contextStrategy !== 'full') ||
      policies.toolChoiceNoneAfterToolResults ||
      policies.loopGuard ||
      policies.readOnlyTools,
  );
}

/**
 * Runs the opt-in policies over a canonical request, in a fixed order (all off unless configured):
 * 1. `stripSystemReminders`: `<system-reminder>` blocks removed from user text and tool results;
 * 2. `dedupeHistoryReplay`: a user message repeating the previous one with no answer in between
 *    is dropped (a repeat after an answer is an intentional refresh and stays);
 * 3. `contextStrategy`: reasoning and tool segments of earlier turns filtered (see below);
 * 4. `toolChoiceNoneAfterToolResults`: `tool_choice: none` when the latest turn carries tool results;
 * 5. `loopGuard`: a system instruction appended when the last two assistant turns made the same calls;
 * 6. `readOnlyTools`: tools limited to the allowlist when the latest user text only asks to read.
 */
export function applyPolicies(request: LlmRequest, policies: PolicyConfig | undefined, context: PolicyContext): LlmRequest {
  if (!policies) return request;
  if (policies.stripSystemReminders) stripSystemReminders(request);
  if (policies.dedupeHistoryReplay) request.messages = dedupeHistoryReplay(request.messages);
  if (policies.contextStrategy) applyContextStrategy(request, policies.contextStrategy, context.target);
  if (policies.toolChoiceNoneAfterToolResults && request.tools?.length && latestTurnHasToolResults(request.messages)) {
    request.toolChoice = { type: 'none' };
  }
  if (policies.loopGuard && repeatsLastToolCall(request.messages)) {
    request.messages.push({ role: 'system', content: [{ type: 'text', text: LOOP_GUARD_INSTRUCTION }] });
  }
  if (policies.readOnlyTools && request.tools && hasReadOnlyIntent(request.messages)) {
    limitTools(request, new Set(policies.readOnlyTools.allow));
  }
  return request;
}

/**
 * Removes `<system-reminder>` blocks from user text and from the text of tool results. Text parts
 * left empty are dropped, and user messages left empty too; a tool result keeps its (now empty)
 * content since its call needs an answer.
 */
function stripSystemReminders(request: LlmRequest): void {
  const strip = (text: string) => text.replace(SYSTEM_REMINDER, '');
  for (const message of request.messages) {
    if (message.role === 'user') {
      for (const part of message.content) if (part.type === 'text') part.text = strip(part.text);
      message.content = message.content.filter((part) => part.type !== 'text' || part.text !== '');
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        if (typeof part.content === 'string') part.content = strip(part.content);
        else {
          for (const item of part.content) if (item.type === 'text') item.text = strip(item.text);
          part.content = part.content.filter((item) => item.type !== 'text' || item.text !== '');
        }
      }
    }
  }
  request.messages = request.messages.filter((message) => message.role !== 'user' || message.content.length > 0);
}

/**
 * Drops a user message whose text repeats the previous user message exactly when no assistant
 * turn answered in between (clients replaying history after a retry). A repeat after an answer is
 * an intentional refresh and is kept.
 */
function dedupeHistoryReplay(messages: LlmMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  let lastUserText: string | undefined;
  for (const message of messages) {
    if (message.role === 'user') {
      const text = userText(message);
      if (text !== undefined && text === lastUserText) continue;
      lastUserText = text;
    } else if (message.role === 'assistant' || message.role === 'tool') lastUserText = undefined;
    out.push(message);
  }
  return out;
}

function userText(message: LlmMessage): string | undefined {
  if (message.content.some((part) => part.type !== 'text')) return undefined;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The messages after the last assistant turn: what the client just sent. */
function latestTurn(messages: LlmMessage[]): LlmMessage[] {
  let index = messages.length;
  while (index > 0 && messages[index - 1]?.role !== 'assistant') index--;
  return messages.slice(index);
}

/** True when the client's latest turn answers tool calls (alone or next to new user text). */
function latestTurnHasToolResults(messages: LlmMessage[]): boolean {
  return latestTurn(messages).some((message) => message.role === 'tool');
}

/**
 * True when the last two assistant turns made the same tool calls with the same arguments
 * (compared as parsed JSON, so spacing and key order do not matter).
 */
function repeatsLastToolCall(messages: LlmMessage[]): boolean {
  const signatures: string[] = [];
  for (let index = messages.length - 1; index >= 0 && signatures.length < 2; index--) {
    const message = messages[index];
    if (message?.role !== 'assistant') continue;
    const calls = message.content.flatMap((part) => (part.type === 'tool-call' ? [`${part.name}:${canonicalArguments(part.arguments)}`] : []));
    if (calls.length === 0) return false;
    signatures.push(calls.join('\n'));
  }
  return signatures.length === 2 && signatures[0] === signatures[1];
}

function canonicalArguments(args: string | JsonObject): string {
  const parsed = toolArgumentsObject(args);
  return parsed === undefined ? toolArgumentsText(args) : stableJson(parsed);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function hasReadOnlyIntent(messages: LlmMessage[]): boolean {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    const text = userText(message) ?? '';
    return READ_ONLY_INTENT.test(text) && !WRITE_INTENT.test(text);
  }
  return false;
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
function applyContextStrategy(request: LlmRequest, strategy: NonNullable<PolicyConfig['contextStrategy']>, target: ProtocolId): void {
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
