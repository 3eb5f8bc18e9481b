import type { CodecContext, LlmCacheHint, WithExtensions } from '@llm/core';
import { cacheHintFromWire, reportLoss } from '@llm/core';
import { PROTOCOL, ext } from './protocol.js';

/**
 * `cache_control` on a content part or a tool: not OpenAI's, but the OpenRouter / LiteLLM
 * convention Chat clients use to ask for Claude cache breakpoints
 * (`{"type":"ephemeral","ttl":"1h"}`). The decoder reads it into the canonical hint so that a
 * Claude upstream gets the breakpoint; the raw value also stays in this codec's extension bag,
 * so Chat -> Chat writes it back exactly as the client sent it.
 */
export function decodeCacheControl(wire: Record<string, unknown>, target: { cache?: LlmCacheHint }): void {
  // Other shapes have no canonical meaning: they stay wire-only (bag), like any unknown field.
  const cache = cacheHintFromWire(wire.cache_control);
  if (cache) target.cache = cache;
}

/**
 * A cache hint that did not come from a Chat client (a Claude client's breakpoint) has no OpenAI
 * Chat form (OpenAI caches prompt prefixes automatically): reported, not written.
 */
export function reportForeignCache(target: WithExtensions & { cache?: LlmCacheHint }, path: string, context: CodecContext | undefined): void {
  if (target.cache === undefined || ext.bag(target)?.cache_control !== undefined) return;
  reportLoss(context, {
    code: 'dropped-field',
    path: `${path}.cache`,
    message: 'openai-chat has no cache breakpoints (OpenAI caches prompt prefixes automatically)',
    protocol: PROTOCOL,
  });
}
