import type { JsonObject, LlmMessage, LlmRequest } from '@llm/core';
import { toolArgumentsObject, toolArgumentsText } from '@llm/core';

/** Instruction added by the loop guard after a repeated call. */
export const LOOP_GUARD_INSTRUCTION =
  'You just repeated an identical tool call. Do not call the same tool with the same arguments again; use the result you already have or try something different.';

/** Instruction `loopGuard: 'up-front'` adds to every request that declares tools. */
export const UP_FRONT_LOOP_GUARD_INSTRUCTION =
  'Do not call a tool again with the same arguments once you have its result: use the result you already have. Call a tool again only when the user asks to refresh it.';

/**
 * The loop guard. On a repeat (the last two assistant turns made the same calls) an instruction
 * is appended; with `up-front`, an instruction is also placed after the leading system messages
 * of every request declaring tools, so a model does not loop in the first place. Placed there it
 * becomes part of the system prompt on every target and stays the same on every request.
 */
export function guardLoops(request: LlmRequest, mode: 'on-repeat' | 'up-front'): void {
  if (mode === 'up-front' && request.tools?.length) {
    let at = 0;
    while (request.messages[at]?.role === 'system') at++;
    request.messages.splice(at, 0, { role: 'system', content: [{ type: 'text', text: UP_FRONT_LOOP_GUARD_INSTRUCTION }] });
  }
  if (repeatsLastToolCall(request.messages)) {
    request.messages.push({ role: 'system', content: [{ type: 'text', text: LOOP_GUARD_INSTRUCTION }] });
  }
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
