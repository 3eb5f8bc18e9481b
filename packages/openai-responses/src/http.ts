import { applyAuth, positiveTokenCount, decodeUrlComponent, joinUrl, readCredential, type AuthScheme, type HttpBinding } from '@llm/core';
import { PROTOCOL } from './protocol.js';

const SCHEMES: readonly AuthScheme[] = ['bearer'];

/**
 * How Responses travels: `POST /v1/responses` (model and `stream` in the body), `GET
 * /v1/responses/{id}`, `POST /v1/responses/input_tokens`, `Authorization: Bearer`. Base URLs
 * include `/v1`, as in the `openai` SDK.
 * @see https://platform.openai.com/docs/api-reference/responses
 */
export const http: HttpBinding = {
  protocol: PROTOCOL,
  modelIn: 'body',
  streamIn: 'body',
  authSchemes: SCHEMES,
  matchRequest(method, url) {
    const path = url.pathname.replace(/\/+$/, '');
    const match = /^(?:\/v1)?\/responses(?:\/([^/]+))?$/.exec(path);
    if (!match) return undefined;
    const id = match[1];
    if (method === 'POST' && id === undefined) return { operation: 'generate' };
    if (method === 'POST' && id === 'input_tokens') return { operation: 'count-tokens' };
    if (method === 'GET' && id !== undefined) return { operation: 'retrieve-response', id: decodeUrlComponent(id, 'response_id', 'response id', PROTOCOL) };
    return undefined;
  },
  ownsPath: (pathname) => /^\/v1\/responses(?:\/|$)/.test(pathname),
  buildRequest(options) {
    const path = options.operation === 'count-tokens' ? '/responses/input_tokens' : '/responses';
    const target = {
      url: joinUrl(options.baseUrl, path),
      headers: { 'content-type': 'application/json', ...(options.stream ? { accept: 'text/event-stream' } : {}) } as Record<string, string>,
    };
    if (options.apiKey !== undefined) applyAuth(target, options.auth ?? 'bearer', options.apiKey);
    if (options.headers) Object.assign(target.headers, options.headers);
    return target;
  },
  readCredential: (headers, url) => readCredential(SCHEMES, headers, url),
  maxOutputTokensOf: (body) => positiveTokenCount(body.max_output_tokens),
};
