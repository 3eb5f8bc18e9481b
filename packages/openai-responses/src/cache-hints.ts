import type { CodecContext, LlmRequest } from '@llm/core';
import { reportLoss } from '@llm/core';
import { PROTOCOL } from './ext.js';

const MESSAGE = 'Responses has no cache breakpoints (OpenAI caches prompt prefixes automatically)';

function dropped(path: string, context: CodecContext | undefined): void {
  reportLoss(context, { code: 'dropped-field', path, message: MESSAGE, protocol: PROTOCOL });
}

/**
 * Canonical cache breakpoints (a Claude client's `cache_control`) have no Responses form: each
 * one set on a message part, a tool or the request is reported at its canonical path instead of
 * vanishing. One property check per part and tool; nothing allocated unless a hint is set.
 */
export function reportCacheHints(request: LlmRequest, context: CodecContext | undefined): void {
  const messages = request.messages;
  for (let index = 0; index < messages.length; index++) {
    const content = messages[index]!.content;
    for (let at = 0; at < content.length; at++) if (content[at]!.cache) dropped(`messages[${index}].content[${at}].cache`, context);
  }
  const tools = request.tools;
  if (tools) {
    for (let index = 0; index < tools.length; index++) {
      const tool = tools[index]!;
      // Only function tools carry a hint (Claude `cache_control` on a tool definition).
      if (tool.type === 'function' && tool.cache) dropped(`tools[${index}].cache`, context);
    }
  }
  if (request.cache) dropped('cache', context);
}
