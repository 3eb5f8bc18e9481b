import { applyAuth, positiveTokenCount, isJsonObject, decodeUrlComponent, joinUrl, readCredential, type AuthScheme, type HttpBinding } from '@llm/core';
import { PROTOCOL } from './protocol.js';

/** Inbound: Bedrock API keys are bearer tokens. (SigV4-signed upstream calls are the gateway's transport.) */
const SCHEMES: readonly AuthScheme[] = ['bearer'];

const ROUTE = /^(?:.*?\/)?model\/([^/]+)\/(converse|converse-stream)$/;

/** The path of a Converse call for `model` (the id percent-encoded: `anthropic.claude-v2:1` has a colon, ARNs have slashes). */
export function conversePath(model: string, stream: boolean): string {
  return `/model/${encodeURIComponent(model)}/${stream ? 'converse-stream' : 'converse'}`;
}

/**
 * How Converse travels: `POST /model/{modelId}/converse` and `/converse-stream`, the model and the
 * stream flag in the URL, JSON bodies. Base URLs are the runtime endpoint
 * (`https://bedrock-runtime.us-east-1.amazonaws.com`). Streams come as AWS event streams
 * (`application/vnd.amazon.eventstream`), which the gateway's transport turns into the SSE events
 * the stream codec reads.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 */
export const http: HttpBinding = {
  protocol: PROTOCOL,
  modelIn: 'path',
  streamIn: 'path',
  authSchemes: SCHEMES,
  matchRequest(method, url) {
    if (method.toUpperCase() !== 'POST') return undefined;
    const match = ROUTE.exec(url.pathname.replace(/\/+$/, ''));
    if (!match) return undefined;
    const model = decodeUrlComponent(match[1]!, 'model', 'model', PROTOCOL);
    return { operation: 'generate', model, stream: match[2] === 'converse-stream' };
  },
  ownsPath: (pathname) => /^\/model\//.test(pathname),
  buildRequest(options) {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: options.stream ? 'application/vnd.amazon.eventstream' : 'application/json',
    };
    const target = { url: joinUrl(options.baseUrl, conversePath(options.model, options.stream)), headers };
    if (options.apiKey !== undefined) applyAuth(target, options.auth ?? 'bearer', options.apiKey);
    if (options.headers) Object.assign(target.headers, options.headers);
    return target;
  },
  readCredential: (headers, url) => readCredential(SCHEMES, headers, url),
  maxOutputTokensOf: (body) => (isJsonObject(body.inferenceConfig) ? positiveTokenCount(body.inferenceConfig.maxTokens) : undefined),
};
