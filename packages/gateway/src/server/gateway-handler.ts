import { LlmError, describeError } from '@llm/core';
import type { ClientProtocol } from '../served-protocols.js';
import type { ReplyHandler, RouterReply, RouterRequest } from '@llm/router';
import type { Logger } from 'pino';
import { type ClientKey, unnamedKeyLabel } from '../config/client-keys.js';
import { type AccessEntry, createAccessLog, recordFields } from '../access-log.js';
import { redactUrl } from '../logger.js';
import type { GatewayMetrics, GatewayObserver } from '../metrics.js';
import type { GatewayTracing, RequestTrace } from '../tracing.js';
import type { RequestRecord, RouterConfig } from '../router-contract.js';
import { isAdminPath } from '../admin/admin-handler.js';
import { presentedKey } from './client-credential.js';
import { isConverseStream, sseToEventStream } from './converse-answer.js';
import { checkEndpoint } from './endpoint-check.js';
import { sseToGeminiArray, wantsGeminiArray } from './gemini-array.js';
import { internalErrorMessage } from './internal-error.js';
import { protocolError } from './protocol-error.js';
import { requestIdOf } from './request-id.js';
import type { Readiness } from './readiness.js';
import { captureAnswer, ResponseStore } from './response-store.js';
import type { AnswerStore } from '../store/answer-store.js';
import type { KeyResolver } from '../keys/key-resolver.js';

/** Inputs of {@link createGatewayHandler}. */
export interface GatewayHandlerOptions {
  /** The router (answers the four protocols' endpoints): @llm/router's `createRouter`. */
  router: ReplyHandler;
  /** Client keys accepted, named or plain (labelled by their hash); empty = open (local use). */
  keys: readonly (string | ClientKey)[];
  logger: Logger;
  /** Records requests the gateway answers itself (401...); the router reports the others. */
  onLocalRecord?(record: RequestRecord, keyId: string | undefined): void;
  /** Keeps Responses answers for `GET /v1/responses/{id}`; default: a bounded in-memory store. */
  responses?: AnswerStore;
  /**
   * The server tells the handler the status each client actually got, through
   * {@link GatewayHandler.written} (serveNode's `onWritten`), and each access line waits for it:
   * a head node refuses (a bad status or header) is answered 500, and the line says 500. Default
   * false: the line is written when the answer is ready.
   */
  accessLogOnWrite?: boolean;
  /** The routes (to tell how many fallbacks a request took); default none. */
  routes?: RouterConfig['routes'];
  /** Told each request's start, stream and end (the metrics); default none. */
  observer?: GatewayObserver;
  /** Served at `GET /metrics` (unless on a port of their own: then leave this out). */
  metrics?: Pick<GatewayMetrics, 'contentType' | 'text'>;
  /** Checks of `GET /health/ready`; default none (always ready). */
  readiness?: Readiness;
  /** A span per request (OpenTelemetry); default none. */
  tracing?: Pick<GatewayTracing, 'start' | 'end'>;
  /** Virtual keys (src/keys), accepted beside `keys`; once any exists, every request needs a key. Default none. */
  virtualKeys?: Pick<KeyResolver, 'authenticate' | 'required'>;
  /** Serves the admin API and the dashboard (`/admin/...`, `/ui...`); default none (those paths go to the router, which answers 404). */
  admin?: (request: RouterRequest, url: URL) => Promise<RouterReply>;
}

/** The gateway's handler, and where its server and router report how each request went. */
export interface GatewayHandler extends ReplyHandler {
  /** The head of `reply` went out with `status` (see `GatewayHandlerOptions.accessLogOnWrite`). */
  written(reply: RouterReply | Response, status: number): void;
  /**
   * `reply` is over, its first byte out at `firstByteAt` (`performance.now()`): with
   * `accessLogOnWrite`, its access line is written now (or once the router's record arrives).
   */
  ended(reply: RouterReply | Response, firstByteAt: number | undefined): void;
  /** The router's record of a request it served (its `onRequestEnd` hook): model, upstream, tokens. */
  recorded(record: RequestRecord): void;
  /** Serves later requests with another router, keys and routes (a config reload); calls in flight keep theirs. */
  update(next: Pick<GatewayHandlerOptions, 'router' | 'keys' | 'routes'>): void;
}

/**
 * Longest wait, after a routed stream is over, for the router's record before the access line is
 * written without it. The record comes at once (the router finishes a request as its stream ends);
 * this bounds a wrapper that ends its stream later than it stopped writing.
 */
export const RECORD_WAIT_MS = 1000;

/** Each accepted key and the label it is known by (its name, else a hash prefix). */
function keyLabels(keys: readonly (string | ClientKey)[]): Map<string, string> {
  return new Map(keys.map((entry) => (typeof entry === 'string' ? [entry, unnamedKeyLabel(entry)] : [entry.key, entry.name])));
}

/**
 * A stable, non-secret id for a client key: its name in the config, else a prefix of its hash
 * (never its position: reordering the keys must not relabel the usage history).
 */
export function keyIdOf(key: string, keys: readonly (string | ClientKey)[]): string {
  return keyLabels(keys).get(key) ?? unnamedKeyLabel(key);
}

/**
 * The gateway's outer handler: request id (`x-request-id`), `/health`, `HEAD /api/hello`, client
 * keys in each protocol's native form (401 in the client's protocol), access logs, then the router;
 * around it, stored Responses (`GET /v1/responses/{id}`) and Gemini's JSON array streams.
 */
export function createGatewayHandler(options: GatewayHandlerOptions): GatewayHandler {
  const { logger } = options;
  let { router } = options;
  let labels = keyLabels(options.keys);
  /** The config keys' names (a virtual key may not pass under one). */
  let configNames = new Set(labels.values());
  const responses: AnswerStore = options.responses ?? new ResponseStore();
  const accessLog = createAccessLog(logger);
  let routes = options.routes ?? [];
  const observer = options.observer;
  const tracing = options.tracing;
  /** Calls whose reply is being written (`accessLogOnWrite`), by reply. */
  const unwritten = new WeakMap<object, CallLog>();
  /**
   * Routed calls not yet logged, by request id, for the router's record. Ids come from clients
   * (`x-request-id`): a second call under a live id takes the slot, and the first is logged
   * without its record.
   */
  const routed = new Map<string, CallLog>();

  /** Writes the call's access line, once, with its record's fields when it came. */
  const logCall = (call: CallLog): void => {
    if (call.logged || !call.entry) return;
    call.logged = true;
    if (call.waitTimer) clearTimeout(call.waitTimer);
    if (routed.get(call.requestId) === call) routed.delete(call.requestId);
    const entry = call.record ? Object.assign(call.entry, recordFields(call.record, routes)) : call.entry;
    accessLog(entry);
    observer?.ended(entry, call.streamed, call.record?.retries);
    if (call.trace) tracing?.end(call.trace, entry);
  };

  /** Serves one call under its request id; anything it throws is answered by the caller. */
  const serve = async (request: RouterRequest, call: CallLog): Promise<RouterReply> => {
    const { url, requestId } = call;
    if (url.pathname === '/health' || url.pathname === '/health/live') return call.finish({ status: 200, headers: { ...JSON_TYPE }, body: '{"status":"ok"}' });
    if (url.pathname === '/health/ready') return call.finish(readinessReply(options.readiness?.failing() ?? [], options.readiness?.detail()));
    if (url.pathname === '/metrics' && options.metrics && (request.method === 'GET' || request.method === 'HEAD')) {
      return call.finish({
        status: 200,
        headers: { 'content-type': options.metrics.contentType },
        body: request.method === 'HEAD' ? null : await options.metrics.text(),
      });
    }
    if (url.pathname === '/api/hello')
      return call.finish({ status: 200, headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: request.method === 'HEAD' ? null : 'ok' });
    if (options.admin && isAdminPath(url.pathname)) return call.finish(await options.admin(request, url));
    const endpoint = checkEndpoint(request.method, url, request.headers);
    call.protocol = endpoint.protocol;
    if (endpoint.error) return call.finish(endpoint.error);
    const { protocol } = endpoint;
    let keyId: string | undefined;
    const virtualKeys = options.virtualKeys;
    if (labels.size > 0 || virtualKeys) {
      const presented = presentedKey(protocol, request.headers, url);
      keyId = presented === undefined ? undefined : labels.get(presented);
      // A virtual key's secret is checked even on an open gateway: its limits hold there too.
      let found = keyId === undefined && presented !== undefined ? await virtualKeys?.authenticate(presented) : undefined;
      // A virtual key named as a config key (one the file gained after the key was made) would
      // pass as that key: no limits, and its stored answers shared. Refused until one is renamed.
      if (found && 'keyId' in found && configNames.has(found.keyId))
        found = { refused: `the gateway key ${found.keyId} cannot be used: a key in the gateway's config has its name`, status: 401 };
      if (found && 'keyId' in found) keyId = found.keyId;
      if (keyId === undefined && (found || labels.size > 0 || virtualKeys?.required())) {
        const refusal = found && 'refused' in found ? found : { status: 401, refused: presented ? 'invalid gateway key' : 'missing gateway key' };
        const errorKind = refusal.status === 401 ? 'authentication' : 'overloaded';
        options.onLocalRecord?.(
          {
            requestId,
            clientProtocol: protocol,
            status: refusal.status,
            stream: false,
            totalMs: performance.now() - call.started,
            attempts: 0,
            errorKind,
            warnings: [],
          },
          'keyName' in refusal ? refusal.keyName : undefined,
        );
        return call.finish(protocolError(protocol, refusal.status, refusal.refused));
      }
    }
    const stored = protocol === 'openai-responses' && request.method === 'GET' ? await storedResponse(responses, url, keyId) : undefined;
    if (stored) return call.finish(stored);
    const array = protocol === 'gemini' && wantsGeminiArray(url);
    routed.set(requestId, call);
    let reply = await router(routedRequest(request, requestId, keyId, array ? withAltSse(url) : url));
    if (array) reply = sseToGeminiArray(reply);
    else if (protocol === 'bedrock-converse' && isConverseStream(url)) reply = await sseToEventStream(reply);
    else if (protocol === 'openai-responses' && request.method === 'POST' && isCreateResponse(url)) reply = captureAnswer(responses, reply, keyId);
    return call.finish(reply);
  };

  const handler = async (request: RouterRequest): Promise<RouterReply> => {
    const started = performance.now();
    const requestId = requestIdOf(request.headers);
    const url = request.parsedUrl ?? URL.parse(request.url);
    if (!url) {
      // A URL that does not parse (a server handing over a bad one): it names no resource.
      const entry: AccessEntry = { requestId, method: request.method, status: 400 };
      accessLog(entry);
      observer?.started();
      observer?.ended(entry, false);
      const reply = protocolError(undefined, 400, 'the request URL is not a valid URL');
      reply.headers['x-request-id'] = requestId;
      return reply;
    }
    const call: CallLog = {
      requestId,
      url,
      started,
      logged: false,
      streamed: false,
      finish: (reply) => {
        reply.headers['x-request-id'] = requestId;
        if (reply.body !== null && typeof reply.body !== 'string') {
          call.streamed = true;
          observer?.streaming();
        }
        call.entry = { requestId, method: request.method, path: redactUrl(url), protocol: call.protocol, status: reply.status };
        if (options.accessLogOnWrite) unwritten.set(reply, call);
        else {
          call.entry.ms = Math.round(performance.now() - started);
          logCall(call);
        }
        return reply;
      },
    };
    observer?.started();
    if (!tracing) return serveOrFail(request, call);
    call.trace = tracing.start(request.method, url.pathname, request.headers, requestId);
    return serveOrFail(request, call);
  };

  /** Serves a call; whatever it throws is answered 500 naming the request id only. */
  const serveOrFail = async (request: RouterRequest, call: CallLog): Promise<RouterReply> => {
    try {
      return await serve(request, call);
    } catch (error) {
      // The client learns the request id only; the log line under it has the detail.
      logger.error({ requestId: call.requestId, err: describeError(error) }, 'request failed inside the gateway');
      return call.finish(protocolError(call.protocol, 500, internalErrorMessage(call.requestId)));
    }
  };
  return Object.assign(handler, {
    written(reply: RouterReply | Response, status: number): void {
      const call = unwritten.get(reply);
      if (call?.entry) call.entry.status = status;
    },
    ended(reply: RouterReply | Response, firstByteAt: number | undefined): void {
      const call = unwritten.get(reply);
      if (!call?.entry) return;
      unwritten.delete(reply);
      const now = performance.now();
      if (firstByteAt !== undefined) call.entry.ttfbMs = Math.round(firstByteAt - call.started);
      call.entry.ms = Math.round(now - call.started);
      // The router records a whole answer before returning it, a stream as it ends: only a
      // stream's record can still be on its way.
      if (call.record || !call.streamed || routed.get(call.requestId) !== call) logCall(call);
      else call.waitTimer = setTimeout(() => logCall(call), RECORD_WAIT_MS).unref();
    },
    update(next: Pick<GatewayHandlerOptions, 'router' | 'keys' | 'routes'>): void {
      router = next.router;
      labels = keyLabels(next.keys);
      configNames = new Set(labels.values());
      routes = next.routes ?? [];
    },
    recorded(record: RequestRecord): void {
      const call = routed.get(record.requestId);
      if (!call) return;
      call.record = record;
      // Already over (its record was late): log now. Else the end of its answer logs it.
      if (call.waitTimer) logCall(call);
    },
  });
}

/** One call as the gateway logs it: its id, URL, start, client protocol once known, and how it ends. */
interface CallLog {
  readonly requestId: string;
  readonly url: URL;
  /** `performance.now()` at arrival. */
  readonly started: number;
  protocol?: ClientProtocol;
  /** The access line, from the answer on. */
  entry?: AccessEntry;
  /** The router's record, for a routed call. */
  record?: RequestRecord;
  logged: boolean;
  /** Its answer is a stream (counted in the open streams). */
  streamed: boolean;
  /** Its span, when tracing is on. */
  trace?: RequestTrace;
  /** Waiting for a late record (see {@link RECORD_WAIT_MS}). */
  waitTimer?: ReturnType<typeof setTimeout>;
  /** Stamps the request id on the reply and writes (or readies) the access-log line. */
  finish(reply: RouterReply): RouterReply;
}

const JSON_TYPE = { 'content-type': 'application/json' };

/**
 * `GET /health/ready`: 200 when every check passes, else 503 naming the failing ones; with the
 * readiness details that have a value (upstream circuits not closed).
 */
function readinessReply(failing: readonly string[], detail?: Record<string, unknown>): RouterReply {
  if (failing.length === 0)
    return { status: 200, headers: { ...JSON_TYPE }, body: detail ? JSON.stringify({ status: 'ready', ...detail }) : '{"status":"ready"}' };
  return { status: 503, headers: { ...JSON_TYPE }, body: JSON.stringify({ status: 'unavailable', failing, ...detail }) };
}

function isCreateResponse(url: URL): boolean {
  return url.pathname === '/v1/responses';
}

/**
 * A kept response of this key for `GET /v1/responses/{id}`; undefined lets the router answer
 * (404), for another key's id as for one never served. The path's encoding was checked first.
 */
async function storedResponse(store: AnswerStore, url: URL, keyId: string | undefined): Promise<RouterReply | undefined> {
  const match = /\/v1\/responses\/([^/]+)$/.exec(url.pathname);
  let json: string | undefined;
  try {
    json = match?.[1] ? await store.get(decodeURIComponent(match[1]), keyId) : undefined;
  } catch (error) {
    // A shared store that is down: its 503 (the store logged why), in the Responses protocol.
    if (error instanceof LlmError) return protocolError('openai-responses', error.status, error.message);
    throw error;
  }
  return json === undefined ? undefined : { status: 200, headers: { 'content-type': 'application/json' }, body: json };
}

/** The URL asking for `alt=sse` (the router speaks SSE only; see gemini-array.ts). */
function withAltSse(url: URL): URL {
  const sseUrl = new URL(url);
  sseUrl.searchParams.set('alt', 'sse');
  return sseUrl;
}

/**
 * The call as handed to the router: under the gateway's request id and key id, maybe at another
 * URL, which the router takes parsed (not parsed a second time).
 */
function routedRequest(request: RouterRequest, requestId: string, clientKeyId: string | undefined, url: URL): RouterRequest {
  return {
    method: request.method,
    url: url.href,
    parsedUrl: url,
    headers: request.headers,
    signal: request.signal,
    text: () => request.text(),
    requestId,
    clientKeyId,
  };
}
