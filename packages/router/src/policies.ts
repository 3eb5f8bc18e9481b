import type { LlmMessage, LlmRequest, ProtocolId } from '@llm/core';
import { toolArgumentsText } from '@llm/core';
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

/** Tool-name fragments treated as read-only by the read-only intent policy. */
const READ_ONLY_INTENT = /\b(read|show|list|explain|what|why|how|find|search|look|describe|summari[sz]e)\b/i;
const WRITE_INTENT = /\b(write|edit|change|fix|create|delete|remove|update|refactor|rename|implement|add)\b/i;

/**
 * Runs the opt-in policies (README, "Policies") over a canonical request, in a fixed order.
 * All are off unless configured.
 */
export function applyPolicies(request: LlmRequest, policies: PolicyConfig | undefined, context: PolicyContext): LlmRequest {
  if (!policies) return request;
  if (policies.stripSystemReminders) stripSystemReminders(request);
  if (policies.dedupeHistoryReplay) request.messages = dedupeHistoryReplay(request.messages);
  if (policies.contextStrategy) applyContextStrategy(request, policies.contextStrategy, context.target);
  if (policies.toolChoiceNoneAfterToolResults && request.messages[request.messages.length - 1]?.role === 'tool' && request.tools?.length) {
    request.toolChoice = { type: 'none' };
  }
  if (policies.loopGuard && repeatsLastToolCall(request.messages)) {
    request.messages.push({ role: 'system', content: [{ type: 'text', text: LOOP_GUARD_INSTRUCTION }] });
  }
  if (policies.readOnlyTools && request.tools && hasReadOnlyIntent(request.messages)) {
    const allow = new Set(policies.readOnlyTools.allow);
    request.tools = request.tools.filter((tool) => allow.has(tool.name));
  }
  return request;
}

/** Removes `<system-reminder>` blocks from user and tool text (parts left empty are dropped). */
function stripSystemReminders(request: LlmRequest): void {
  for (const message of request.messages) {
    if (message.role !== 'user') continue;
    for (const part of message.content) if (part.type === 'text') part.text = part.text.replace(SYSTEM_REMINDER, '');
    message.content = message.content.filter((part) => part.type !== 'text' || part.text !== '');
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

/** True when the last two assistant turns made the same tool calls with the same arguments. */
function repeatsLastToolCall(messages: LlmMessage[]): boolean {
  const signatures: string[] = [];
  for (let index = messages.length - 1; index >= 0 && signatures.length < 2; index--) {
    const message = messages[index];
    if (message?.role !== 'assistant') continue;
    const calls = message.content.flatMap((part) =>
      part.type === 'tool-call' ? [`${part.name}:${toolArgumentsText(part.arguments)}`] : [],
    );
    if (calls.length === 0) return false;
    signatures.push(calls.join('\n'));
  }
  return signatures.length === 2 && signatures[0] === signatures[1];
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
 * Context strategies for conversations that move between models:
 * - `full`: keep everything;
 * - `minimal`: drop reasoning from earlier assistant turns;
 * - `tool`: drop reasoning except in the turns of the current tool loop (after the last user text);
 * - `adaptive`: drop reasoning issued by another protocol than the target (it cannot be replayed).
 */
function applyContextStrategy(request: LlmRequest, strategy: NonNullable<PolicyConfig['contextStrategy']>, target: ProtocolId): void {
  if (strategy === 'full') return;
  let lastUser = -1;
  request.messages.forEach((message, index) => {
    if (message.role === 'user') lastUser = index;
  });
  request.messages.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    message.content = message.content.filter((part) => {
      if (part.type !== 'reasoning') return true;
      switch (strategy) {
        case 'minimal':
          return false;
        case 'tool':
          return index > lastUser;
        case 'adaptive':
          return part.origin === undefined || part.origin.protocol === target;
        default: {
          const unreachable: never = strategy;
          return unreachable;
        }
      }
    });
  });
}
