import type { HeaderReader, ProtocolId } from '@llm/core';

/**
 * Which protocol a client speaks, from the request path (and, for the shared `GET /v1/models`,
 * from Anthropic's headers). Undefined for paths the gateway does not serve.
 */
export function clientProtocolOf(method: string, url: URL, headers: HeaderReader): ProtocolId | undefined {
  const path = url.pathname.startsWith('/anthropic/') ? url.pathname.slice('/anthropic'.length) : url.pathname;
  if (path === '/v1/chat/completions') return 'openai-chat';
  if (path === '/v1/responses' || path.startsWith('/v1/responses/')) return 'openai-responses';
  if (path === '/v1/messages' || path === '/v1/messages/count_tokens') return 'claude';
  if (path.startsWith('/v1beta/') || /^\/v1\/models\/[^/]+:/.test(path)) return 'gemini';
  if (method === 'GET' && (path === '/v1/models' || path.startsWith('/v1/models/'))) {
    return headers.get('anthropic-version') !== null || headers.get('x-api-key') !== null ? 'claude' : 'openai-chat';
  }
  return undefined;
}
