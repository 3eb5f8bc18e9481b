import type { LlmMessage, LlmRequest } from '@llm/core';

const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>\s*/g;

/** Default separator of `joinSystemText: true`: a blank line, as between paragraphs. */
export const SYSTEM_TEXT_SEPARATOR = '\n\n';

/**
 * Removes `<system-reminder>` blocks from system text, user text and the text of tool results
 * (Claude Code injects them; other models echo them back). Text parts left empty are dropped,
 * and system and user messages left empty too; a tool result keeps its (now empty) content since
 * its call needs an answer.
 */
export function stripSystemReminders(request: LlmRequest): void {
  for (const message of request.messages) {
    if (message.role === 'system' || message.role === 'user') {
      for (const part of message.content) if (part.type === 'text') part.text = stripReminders(part.text);
      message.content = message.content.filter((part) => part.type !== 'text' || part.text !== '') as typeof message.content;
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        if (typeof part.content === 'string') part.content = stripReminders(part.content);
        else {
          for (const item of part.content) if (item.type === 'text') item.text = stripReminders(item.text);
          part.content = part.content.filter((item) => item.type !== 'text' || item.text !== '');
        }
      }
    }
  }
  request.messages = request.messages.filter((message) => !isEmptyText(message));
}

function stripReminders(text: string): string {
  // Most texts hold none: skip the regex replace (and its new string) for them.
  return text.includes('<system-reminder>') ? text.replace(SYSTEM_REMINDER, '') : text;
}

function isEmptyText(message: LlmMessage): boolean {
  return (message.role === 'user' || message.role === 'system') && message.content.length === 0;
}

/**
 * Joins the text parts of each system message into one, `separator` between them. A protocol
 * with a single system string (OpenAI Chat, Responses `instructions`) would otherwise glue the
 * blocks of a Claude `system` array together ("...for Claude.You are..."). The joined part keeps
 * the last cache breakpoint of the parts: it then covers at least what the client marked.
 */
export function joinSystemText(request: LlmRequest, separator: string): void {
  for (const message of request.messages) {
    if (message.role !== 'system' || message.content.length < 2) continue;
    const joined: (typeof message.content)[number] = { type: 'text', text: message.content.map((part) => part.text).join(separator) };
    const cache = message.content.findLast((part) => part.cache !== undefined)?.cache;
    if (cache !== undefined) joined.cache = cache;
    message.content = [joined];
  }
}
