import type { Codec } from '@llm/core';
import type { RouteRule } from './config.js';

/**
 * The model list a client of `codec` expects (its `endpoints.modelList`), built from the route
 * table's exact names (globs name no model).
 */
export function modelList(codec: Pick<Codec, 'endpoints'>, routes: readonly RouteRule[]): unknown {
  return codec.endpoints.modelList([...new Set(routes.filter((rule) => !/[*?]/.test(rule.match)).map((rule) => rule.match))]);
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

