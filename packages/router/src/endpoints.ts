import type { Codec } from '@llm/core';
import type { RouteRule } from './config.js';

/** The route table's exact names (globs name no model), each once: the default model list. */
export function exactRouteNames(routes: readonly RouteRule[]): string[] {
  return [...new Set(routes.filter((rule) => !/[*?]/.test(rule.match)).map((rule) => rule.match))];
}

/** The model list a client of `codec` expects (its `endpoints.modelList`), naming `ids` in order. */
export function modelList(codec: Pick<Codec, 'endpoints'>, ids: readonly string[]): unknown {
  return codec.endpoints.modelList(ids);
}

/**
 * A deliberately high token estimate (one token per three UTF-8 bytes of the request body,
 * system prompt and tool definitions included) for count-tokens calls the upstream cannot
 * answer. Overestimating makes clients compact early instead of overflowing the context window.
 * Answers carry `x-llm-token-count: estimate`.
 */
export function estimateTokens(bodyText: string): number {
  return estimateTokensOfBytes(new TextEncoder().encode(bodyText).length);
}

/** {@link estimateTokens} of a body already encoded: `bytes` long. */
export function estimateTokensOfBytes(bytes: number): number {
  return Math.ceil(bytes / 3);
}
