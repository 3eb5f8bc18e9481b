import type { HttpBinding, HttpTarget, HttpTargetOptions } from '@llm/core';
import { applyAuth, joinUrl, positiveTokenCount, readCredential } from '@llm/core';
import { PROTOCOL } from './protocol.js';

const SCHEMES = ['bearer'] as const;

/**
 * How Chat Completions travels over HTTP: `POST /v1/chat/completions`, model and stream flag in
 * the body, bearer auth. Base URLs include `/v1` (the SDK's convention).
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export const http: HttpBinding = {
  protocol: PROTOCOL,
  modelIn: 'body',
  streamIn: 'body',
  authSchemes: SCHEMES,
  matchRequest(method, url) {
    if (method.toUpperCase() === 'POST' && /^(\/v1)?\/chat\/completions\/?$/.test(url.pathname)) return { operation: 'generate' };
    if (method.toUpperCase() === 'GET' && /^(\/v1)?\/models\/?$/.test(url.pathname)) return { operation: 'list-models' };
    return undefined;
  },
  ownsPath: (pathname) => /^\/v1\/chat\/completions(?:\/|$)/.test(pathname),
  buildRequest(options: HttpTargetOptions): HttpTarget {
    const path = options.operation === 'list-models' ? '/models' : '/chat/completions';
    const target: HttpTarget = { url: joinUrl(options.baseUrl, path), headers: { 'content-type': 'application/json' } };
    if (options.stream) target.headers.accept = 'text/event-stream';
    if (options.apiKey !== undefined) applyAuth(target, options.auth ?? 'bearer', options.apiKey);
    if (options.headers) Object.assign(target.headers, options.headers);
    return target;
  },
  readCredential(headers, url) {
    return readCredential(SCHEMES, headers, url);
  },
  maxOutputTokensOf: (body) => positiveTokenCount(body.max_completion_tokens) ?? positiveTokenCount(body.max_tokens),
};
