import { createHash, randomUUID } from 'node:crypto';
import { type AuthScheme, readCredential } from '@llm/core';
import type { Logger } from 'pino';
import { redactUrl } from '../logger.js';
import type { RequestRecord } from '../router-contract.js';
import { clientProtocolOf } from './client-protocol.js';
import { sseToGeminiArray, wantsGeminiArray, withAltSse } from './gemini-array.js';
import type { FetchHandler } from './node-adapter.js';
import { protocolError } from './protocol-error.js';
import { ResponseStore } from './response-store.js';

const ALL_SCHEMES: readonly AuthScheme[] = ['bearer', 'x-api-key', 'x-goog-api-key', 'query-key'];

/** Inputs of {@link createGatewayHandler}. */
export interface GatewayHandlerOptions {
  /** The router's handler (answers the four protocols' endpoints). */
  router: FetchHandler;
  /** Client keys accepted; empty = open (local use). */
  keys: readonly string[];
  logger: Logger;
  /** Records requests the gateway answers itself (401...); the router reports the others. */
  onLocalRecord?(record: RequestRecord, keyId: string | undefined): void;
  /** Called with the router's request id (its `x-request-id`) and the client key id, for the ledger. */
  onRouted?(requestId: string, keyId: string | undefined): void;
  /** Keeps Responses answers for `GET /v1/responses/{id}`; default: a bounded in-memory store. */
  responses?: ResponseStore;
}

/** A stable, non-secret id for a client key: its position in the config, else a hash prefix. */
export function keyIdOf(key: string, keys: readonly string[]): string {
  const index = keys.indexOf(key);
  return index >= 0 ? `key-${index + 1}` : `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}

/**
 * The gateway's outer handler: request id (`x-request-id`), `/health`, `HEAD /api/hello`, client
 * keys in each protocol's native form (401 in the client's protocol), access logs, then the router;
 * around it, stored Responses (`GET /v1/responses/{id}`) and Gemini's JSON array streams.
 */
export function createGatewayHandler(options: GatewayHandlerOptions): FetchHandler {
  const { router, keys, logger } = options;
  const responses = options.responses ?? new ResponseStore();
  return async (request) => {
    const started = performance.now();
    const url = new URL(request.url);
    const requestId = request.headers.get('x-request-id') ?? randomUUID();
    const finish = (answer: Response, extra: Record<string, unknown> = {}) => {
      const response = withRequestId(answer, requestId);
      logger.info({ requestId: response.headers.get('x-request-id'), method: request.method, path: redactUrl(url), status: response.status, ms: Math.round(performance.now() - started), ...extra }, 'request');
      return response;
    };
    if (url.pathname === '/health') return finish(Response.json({ status: 'ok' }));
    if (url.pathname === '/api/hello') return finish(new Response(request.method === 'HEAD' ? null : 'ok'));
    const protocol = clientProtocolOf(request.method, url, request.headers);
    if (!protocol) return finish(protocolError(undefined, 404, `no route for ${request.method} ${url.pathname}`));
    let keyId: string | undefined;
    if (keys.length > 0) {
      const presented = readCredential(ALL_SCHEMES, request.headers, url);
      if (!presented || !keys.includes(presented)) {
        const status = 401;
        options.onLocalRecord?.({ requestId, clientProtocol: protocol, status, stream: false, totalMs: performance.now() - started, errorKind: 'authentication', warnings: [] }, undefined);
        return finish(protocolError(protocol, status, presented ? 'invalid gateway key' : 'missing gateway key'));
      }
      keyId = keyIdOf(presented, keys);
    }
    try {
      const stored = protocol === 'openai-responses' && request.method === 'GET' ? storedResponse(responses, url) : undefined;
      if (stored) return finish(stored, { protocol });
      const array = protocol === 'gemini' && wantsGeminiArray(url);
      const routed = withRequestHeader(request, requestId);
      let response = await router(array ? withAltSse(routed, url) : routed);
      options.onRouted?.(response.headers.get('x-request-id') ?? requestId, keyId);
      if (array) response = sseToGeminiArray(response);
      else if (protocol === 'openai-responses' && request.method === 'POST' && isCreateResponse(url)) response = await responses.capture(response);
      return finish(response, { protocol });
    } catch (error) {
      logger.error({ requestId, err: error instanceof Error ? error.message : String(error) }, 'router failed');
      return finish(protocolError(protocol, 500, 'internal gateway error'));
    }
  };
}

function isCreateResponse(url: URL): boolean {
  return url.pathname === '/v1/responses';
}

/** A kept response for `GET /v1/responses/{id}`; undefined lets the router answer (404). */
function storedResponse(store: ResponseStore, url: URL): Response | undefined {
  const match = /\/v1\/responses\/([^/]+)$/.exec(url.pathname);
  const json = match?.[1] ? store.get(decodeURIComponent(match[1])) : undefined;
  return json === undefined ? undefined : new Response(json, { headers: { 'content-type': 'application/json' } });
}

/**
 * The request with `x-request-id` set. A Request built by the server has mutable headers, so it
 * is passed on as is (re-wrapping it would copy the headers and re-stream the body: measurable
 * CPU per request); a Request with immutable headers is copied.
 */
function withRequestHeader(request: Request, requestId: string): Request {
  try {
    request.headers.set('x-request-id', requestId);
    return request;
  } catch {
    const headers = new Headers(request.headers);
    headers.set('x-request-id', requestId);
    const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers, signal: request.signal };
    if (request.body) {
      init.body = request.body;
      init.duplex = 'half';
    }
    return new Request(request.url, init);
  }
}

/** The response with `x-request-id` (unless the router named its own), without copying it when its headers are mutable. */
function withRequestId(response: Response, requestId: string): Response {
  if (response.headers.has('x-request-id')) return response;
  try {
    response.headers.set('x-request-id', requestId);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set('x-request-id', requestId);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
