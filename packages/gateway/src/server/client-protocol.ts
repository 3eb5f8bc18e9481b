import type { HeaderReader } from '@llm/core';
import type { ClientProtocol } from '../served-protocols.js';
import { codecOf } from '../translate.js';

/** The protocols whose path families a request's path is looked up in, the most called first. */
const PROTOCOLS: readonly ClientProtocol[] = ['openai-chat', 'claude', 'openai-responses', 'gemini', 'bedrock-converse'];

/**
 * Which protocol a client speaks: the protocol whose path family (each codec's
 * `http.ownsPath`, the same data the router answers its 404s by) holds the request path, after
 * the `/anthropic/` prefix some clients put before Anthropic's paths; for the shared
 * `GET /v1/models`, Anthropic's headers decide. Undefined for paths in no family.
 */
export function clientProtocolOf(method: string, url: URL, headers: HeaderReader): ClientProtocol | undefined {
  const path = url.pathname.startsWith('/anthropic/') ? url.pathname.slice('/anthropic'.length) : url.pathname;
  const owner = PROTOCOLS.find((protocol) => codecOf(protocol).http.ownsPath(path));
  if (owner) return owner;
  if (method === 'GET' && (path === '/v1/models' || path.startsWith('/v1/models/'))) {
    return headers.get('anthropic-version') !== null || headers.get('x-api-key') !== null ? 'claude' : 'openai-chat';
  }
  return undefined;
}
