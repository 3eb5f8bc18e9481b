import { applyAuth, joinUrl, readCredential, type AuthScheme, type HttpBinding } from '@llm/core';
import { mcpBetaFor } from './mcp-servers.js';
import { PROTOCOL } from './protocol.js';

/** Inbound: SDKs before 1.0 and most tools send `x-api-key`; the 1.x SDK and OAuth tokens use Bearer. */
const SCHEMES: readonly AuthScheme[] = ['x-api-key', 'bearer'];

/** `anthropic-version` sent when the caller names none (the version every client understands). */
export const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';

/**
 * How Anthropic Messages travels: `POST /v1/messages` and `POST /v1/messages/count_tokens`, model
 * and `stream` in the body, `x-api-key` auth, the required `anthropic-version` header (a client's
 * own version and `anthropic-beta` list are forwarded through `options.headers`). Base URLs
 * exclude `/v1`, as in the `@anthropic-ai/sdk` (`https://api.anthropic.com`).
 * @see https://docs.anthropic.com/en/api/messages
 */
export const http: HttpBinding = {
  protocol: PROTOCOL,
  modelIn: 'body',
  streamIn: 'body',
  authSchemes: SCHEMES,
  matchRequest(method, url) {
    const path = url.pathname.replace(/\/+$/, '');
    if (method === 'POST' && /(?:^|\/)v1\/messages$/.test(path)) return { operation: 'generate' };
    if (method === 'POST' && /(?:^|\/)v1\/messages\/count_tokens$/.test(path)) return { operation: 'count-tokens' };
    if (method === 'GET' && /(?:^|\/)v1\/models$/.test(path)) return { operation: 'list-models' };
    return undefined;
  },
  // Batches, count_tokens and any other path below /v1/messages: Claude's shape when unserved.
  ownsPath: (pathname) => /^\/v1\/messages(?:\/|$)/.test(pathname),
  buildRequest(options) {
    const path = options.operation === 'count-tokens' ? '/v1/messages/count_tokens' : options.operation === 'list-models' ? '/v1/models' : '/v1/messages';
    const headers: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': DEFAULT_ANTHROPIC_VERSION };
    if (options.stream) headers.accept = 'text/event-stream';
    const target = { url: joinUrl(options.baseUrl, path), headers };
    if (options.apiKey !== undefined) applyAuth(target, options.auth ?? 'x-api-key', options.apiKey);
    if (options.headers) Object.assign(target.headers, options.headers);
    return target;
  },
  readCredential: (headers, url) => readCredential(SCHEMES, headers, url),
  // Claude Code's betas (context management, interleaved thinking, ...) gate fields it sends.
  forwardedHeaders: ['anthropic-version', 'anthropic-beta'],
  headersFor(body, headers) {
    const beta = mcpBetaFor(body);
    if (beta === undefined) return headers;
    const key = Object.keys(headers ?? {}).find((name) => name.toLowerCase() === 'anthropic-beta') ?? 'anthropic-beta';
    const present = headers?.[key];
    // A client that named its own MCP connector version keeps it.
    if (present?.split(',').some((name) => name.trim().startsWith('mcp-client-'))) return headers;
    return { ...headers, [key]: present ? `${present},${beta}` : beta };
  },
};
