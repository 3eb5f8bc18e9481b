import type { ProtocolId } from '@llm/core';
import type { RouteRule } from './config.js';

/** The route table's exact names (globs name no model), each once: the default model list. */
export function exactRouteNames(routes: readonly RouteRule[]): string[] {
  return [...new Set(routes.filter((rule) => !/[*?]/.test(rule.match)).map((rule) => rule.match))];
}

/**
 * The model list a client of `protocol` expects, naming `ids` in order. Created times are 0: the
 * router does not know them.
 */
export function modelList(protocol: ProtocolId, ids: readonly string[]): unknown {
  switch (protocol) {
    case 'openai-chat':
    case 'openai-responses':
      return { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'llm-router' })) };
    case 'claude':
      return {
        data: ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '1970-01-01T00:00:00Z' })),
        has_more: false,
        first_id: ids[0] ?? null,
        last_id: ids[ids.length - 1] ?? null,
      };
    case 'gemini':
      return {
        models: ids.map((id) => ({
          name: `models/${id}`,
          displayName: id,
          supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
        })),
      };
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}

/**
 * A deliberately high token estimate (one token per three UTF-8 bytes of the request body,
 * system prompt and tool definitions included) for count-tokens calls the upstream cannot
 * answer. Overestimating makes clients compact early instead of overflowing (REGRESSIONS #13,
 * #25). Answers carry `x-llm-token-count: estimate`.
 */
export function estimateTokens(bodyText: string): number {
  return Math.ceil(new TextEncoder().encode(bodyText).length / 3);
}

/** A count-tokens answer in the client's protocol. */
export function countTokensBody(protocol: ProtocolId, tokens: number): unknown {
  switch (protocol) {
    case 'claude':
      return { input_tokens: tokens };
    case 'gemini':
      return { totalTokens: tokens };
    case 'openai-responses':
      return { object: 'response.input_tokens', input_tokens: tokens };
    case 'openai-chat':
      return { input_tokens: tokens };
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}
