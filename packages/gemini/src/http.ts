import { applyAuth, positiveTokenCount, isJsonObject, decodeUrlComponent, joinUrl, readCredential, type AuthScheme, type HttpBinding } from '@llm/core';
import { PROTOCOL } from './protocol.js';

/** Inbound: the API key header, the `?key=` query, and Bearer (Vertex-style OAuth clients). */
const SCHEMES: readonly AuthScheme[] = ['x-goog-api-key', 'query-key', 'bearer'];

const ROUTE = /^(?:.*?\/)?(?:v1beta|v1|v1alpha)\/models\/([^/:]+(?:\/[^/:]+)*):(generateContent|streamGenerateContent|countTokens)$/;
const LIST = /^(?:.*?\/)?(?:v1beta|v1|v1alpha)\/models$/;
/** Gemini's path family: everything under its beta versions, and model methods (`:name`) under `/v1/models/` (`%3A` for `:` too). */
const FAMILY = /^\/(?:v1beta|v1alpha)(?:\/|$)|^\/v1\/models\/[^/:]+(?:\/[^/:]+)*(?::|%3a)/i;

/**
 * How Gemini travels: the model and the stream flag are in the URL
 * (`/v1beta/models/{model}:generateContent`, `:streamGenerateContent?alt=sse`, `:countTokens`),
 * auth by `x-goog-api-key` or `?key=`. Base URLs exclude the version, as in `@google/genai`
 * (`https://generativelanguage.googleapis.com`); a base URL that ends in a version is used as is.
 * Without `alt=sse` a stream is one JSON array written incrementally; the router always asks
 * upstreams for SSE.
 * @see https://ai.google.dev/api/generate-content
 */
export const http: HttpBinding = {
  protocol: PROTOCOL,
  modelIn: 'path',
  streamIn: 'path',
  authSchemes: SCHEMES,
  matchRequest(method, url) {
    const path = decodedPath(url.pathname.replace(/\/+$/, ''));
    if (path === undefined) return undefined;
    if (method === 'GET' && LIST.test(path)) return { operation: 'list-models' };
    const match = ROUTE.exec(path);
    if (!match || method !== 'POST') return undefined;
    const model = match[1]!;
    switch (match[2]) {
      case 'generateContent':
        return { operation: 'generate', model, stream: false };
      case 'streamGenerateContent':
        return { operation: 'generate', model, stream: true };
      default:
        return { operation: 'count-tokens', model };
    }
  },
  ownsPath: (pathname) => FAMILY.test(pathname),
  buildRequest(options) {
    const base = /\/v1(beta|alpha)?\/?$/.test(options.baseUrl) ? options.baseUrl : joinUrl(options.baseUrl, 'v1beta');
    const model = options.model.replace(/^models\//, '');
    const method = options.operation === 'count-tokens' ? 'countTokens' : options.stream ? 'streamGenerateContent' : 'generateContent';
    const path =
      options.operation === 'list-models'
        ? '/models'
        : `/models/${encodeURIComponent(model)}:${method}${options.stream && method === 'streamGenerateContent' ? '?alt=sse' : ''}`;
    const target = { url: joinUrl(base, path), headers: { 'content-type': 'application/json' } as Record<string, string> };
    if (options.apiKey !== undefined) applyAuth(target, options.auth ?? 'x-goog-api-key', options.apiKey);
    if (options.headers) Object.assign(target.headers, options.headers);
    return target;
  },
  readCredential: (headers, url) => readCredential(SCHEMES, headers, url),
  maxOutputTokensOf: (body) => (isJsonObject(body.generationConfig) ? positiveTokenCount(body.generationConfig.maxOutputTokens) : undefined),
};

/**
 * The path with its percent-encoding decoded (clients may encode the model, `/` and `:` in it).
 * Bad encoding in the model of a Gemini route is the client's error (`invalid_request` at
 * `model`); bad encoding elsewhere makes a path this protocol does not serve.
 */
function decodedPath(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    const match = ROUTE.exec(raw);
    if (match) decodeUrlComponent(match[1]!, 'model', 'model', PROTOCOL);
    return undefined;
  }
}
