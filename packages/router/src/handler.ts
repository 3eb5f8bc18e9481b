import {
  LlmError,
  LlmStreamAccumulator,
  SSE_HEADERS,
  checkJsonDepth,
  chunksOf,
  describeError,
  upstreamDecodeFailure,
  isJsonObject,
  passThroughStep,
  stepIterable,
  type Codec,
  type HeaderReader,
  type HttpRequestMatch,
  type LlmMessage,
  type LlmRequest,
  type LlmResponse,
  type LlmStreamEvent,
  type LlmUsage,
  type ProtocolId,
} from '@llm/core';
import { bridge, type Bridge } from './bridge.js';
import { checkCapabilities } from './capabilities.js';
import type { RequestRecord, RouterConfig, StateStore, UpstreamConfig, UpstreamRequest, UpstreamResponse } from './config.js';
import { countTokensBody, estimateTokens, exactRouteNames, modelList } from './endpoints.js';
import { applyPolicies, hasActivePolicies } from './policies.js';
import { fetchMediaUrls, inlineFetchedMedia, mediaUrlsToFetch, type FetchedMedia } from './media-fetch.js';
import { defaultCodecs, type CodecRegistry } from './registry.js';
import { resolveRoute } from './routing.js';
import { MemoryStateStore } from './state-store.js';
import { noEndpointReply, unreadablePath } from './no-endpoint.js';
import { DEFAULT_MAX_STORED_TURNS_PER_OWNER, OwnerQuota } from './owner-quota.js';
import { checkOwner, loadTurn, mintResponseId, ownerOfStored, recordOwner, saveTurn } from './response-state.js';
import { type ReplyHandler, type RouterReply, type RouterRequest, toResponse } from './reply.js';
import { callUpstream, isOkStatus, isRetryableStatus } from './upstream-call.js';
import { clientFacingError } from './failures.js';
import { untilAborted } from './until-aborted.js';
import { DEFAULT_REQUEST_DEADLINE_MS, DEFAULT_STREAM_IDLE_TIMEOUT_MS, RequestDeadline, watchChunks } from './timeouts.js';
import { DEFAULT_MAX_WARNINGS_PER_REQUEST, WarningCollector, warningsHeaderValue } from './warnings.js';

/** A WHATWG fetch handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

const CLIENT_ORDER: readonly ProtocolId[] = ['claude', 'openai-chat', 'openai-responses', 'gemini'];
/** The order without an `anthropic-version` header: Claude's paths are tried last. */
const CLIENT_ORDER_CLAUDE_LAST: readonly ProtocolId[] = [...CLIENT_ORDER.filter((id) => id !== 'claude'), 'claude'];

/** Per-request state shared by the steps of {@link createHandler}. */
interface Exchange {
  requestId: string;
  started: number;
  clientCodec: Codec;
  record: RequestRecord;
  warnings: WarningCollector;
  /** The generate call's deadline (and client cancellation), disposed when the request ends. */
  deadline?: RequestDeadline;
}

/**
 * A fetch handler serving the four protocols' endpoints (generate, count-tokens, model list) and
 * calling the routed upstream. See the README for the request lifecycle.
 */
export function createHandler(config: RouterConfig): FetchHandler {
  const handle = createRouter(config);
  return async (request) => toResponse(await handle(request));
}

/**
 * The router itself: {@link createHandler} without the WHATWG wrapping. It takes any
 * {@link RouterRequest} (a `Request` is one) and answers a plain {@link RouterReply}, so a server
 * can skip building a `Request` and a `Response` per call.
 */
export function createRouter(config: RouterConfig): ReplyHandler {
  const codecs: CodecRegistry = config.codecs ?? defaultCodecs();
  const store: StateStore = config.stateStore ?? new MemoryStateStore();
  const quota = new OwnerQuota(store, config.maxStoredTurnsPerOwner ?? DEFAULT_MAX_STORED_TURNS_PER_OWNER, ownerOfStored);
  const transport = config.transport ?? ((request: UpstreamRequest) => fetch(request.url, request));
  const maxWarnings = config.maxWarningsPerRequest ?? DEFAULT_MAX_WARNINGS_PER_REQUEST;

  const finish = (exchange: Exchange, extra: Partial<RequestRecord>): void => {
    exchange.deadline?.dispose();
    Object.assign(exchange.record, extra, { totalMs: Date.now() - exchange.started, warnings: exchange.warnings.kept });
    if (exchange.warnings.dropped > 0) exchange.record.warningsDropped = exchange.warnings.dropped;
    try {
      config.hooks?.onRequestEnd?.(exchange.record);
    } catch {
      // Hooks never break requests.
    }
  };

  const respond = (exchange: Exchange, body: RouterReply['body'], status: number, headers: Record<string, string>): RouterReply => {
    // Object.assign, not a spread: on V8 (node 20) a spread copy costs ~0.3 µs and makes every
    // later header store (the gateway's x-request-id and content-length) a slow path, ~1 µs a reply.
    const out: Record<string, string> = Object.assign({}, headers);
    out['x-request-id'] = exchange.requestId;
    const { kept, dropped } = exchange.warnings;
    if (config.warningsHeader && kept.length + dropped > 0) out['x-llm-warnings'] = warningsHeaderValue(kept, dropped);
    exchange.record.firstByteMs ??= Date.now() - exchange.started;
    return { status, headers: out, body };
  };

  /** A failure in the client's protocol: generic where the cause is internal, the detail in the record only. */
  const respondError = (exchange: Exchange, error: unknown, via?: Bridge): RouterReply => {
    const { error: shown, detail } = clientFacingError(error, exchange.requestId);
    const encoded = via ? via.encodeError(shown) : exchange.clientCodec.error.encode(shown);
    finish(exchange, detail === undefined ? { status: encoded.status, errorKind: shown.kind } : { status: encoded.status, errorKind: shown.kind, errorDetail: detail });
    return respond(exchange, JSON.stringify(encoded.body), encoded.status, {
      'content-type': 'application/json',
      ...encoded.headers,
    });
  };

  return async (request) => {
    const url = request.parsedUrl ?? new URL(request.url);
    const found = matchClient(codecs, request, url);
    if (!found) return noEndpointReply(codecs, request.method, url.pathname);
    const requestId = request.requestId ?? crypto.randomUUID();
    const onWarning = config.hooks?.onWarning;
    const exchange: Exchange = {
      requestId,
      started: Date.now(),
      clientCodec: found.codec,
      warnings: new WarningCollector(maxWarnings, onWarning && ((warning) => onWarning(warning, requestId))),
      record: { requestId: '', clientProtocol: found.codec.id, status: 0, stream: false, totalMs: 0, warnings: [] },
    };
    exchange.record.requestId = exchange.requestId;
    if (request.clientKeyId !== undefined) exchange.record.clientKeyId = request.clientKeyId;
    try {
      if (!found.match) throw unreadablePath(found.failure);
      switch (found.match.operation) {
        case 'list-models':
          finish(exchange, { status: 200 });
          return respond(exchange, JSON.stringify(modelList(found.codec.id, config.models ?? exactRouteNames(config.routes))), 200, {
            'content-type': 'application/json',
          });
        case 'count-tokens': {
          const text = await request.text();
          // A body that is no JSON object is the client's error, whoever counts (no estimate of garbage).
          const body = parseBody(text, found.codec.id);
          const counted = config.countTokens === 'upstream' ? await countUpstream(exchange, found.match, body, request.headers) : undefined;
          if (counted) return counted;
          finish(exchange, { status: 200 });
          return respond(exchange, JSON.stringify(countTokensBody(found.codec.id, estimateTokens(text))), 200, {
            'content-type': 'application/json',
            'x-llm-token-count': 'estimate',
          });
        }
        case 'retrieve-response':
          // The router keeps no answers (the gateway serves the ones it stored before calling it):
          // the same 404 for an id never seen, expired, or another key's, so none is revealed.
          throw new LlmError({ kind: 'not_found', message: `response ${found.match.id ?? ''} not found`, path: 'response_id' });
        case 'generate':
          return await generate(exchange, found.match, request);
        default: {
          const unreachable: never = found.match.operation;
          return unreachable;
        }
      }
    } catch (error) {
      return respondError(exchange, error);
    }
  };

  /**
   * Asks the routed upstream's own count endpoint when it speaks the client's protocol (the body
   * needs no translation), with the route's model. Any failure (a 404 included) gives undefined,
   * and the caller answers with the estimate: a count call never marks a model missing.
   */
  async function countUpstream(exchange: Exchange, match: HttpRequestMatch, body: Record<string, unknown>, clientHeaders: HeaderReader): Promise<RouterReply | undefined> {
    const clientModel = match.model ?? (typeof body.model === 'string' ? body.model : undefined);
    const route = clientModel ? resolveRoute(config.routes, clientModel) : undefined;
    const upstream = route ? config.upstreams[route.upstreams[0] as string] : undefined;
    const codec = upstream ? codecs[upstream.protocol] : undefined;
    if (!route || !upstream || !codec || codec.id !== exchange.clientCodec.id || !clientModel) return undefined;
    const model = route.model ?? clientModel;
    const target = codec.http.buildRequest({ baseUrl: upstream.baseUrl, model, stream: false, operation: 'count-tokens', ...credentials(upstream), headers: upstreamHeaders(upstream, codec, exchange.clientCodec.id, clientHeaders) });
    const sent = codec.http.modelIn === 'body' && typeof body.model === 'string' ? { ...body, model } : body;
    try {
      const response = await transport({ url: target.url, method: 'POST', headers: target.headers, body: JSON.stringify(sent), signal: AbortSignal.timeout(upstream.timeoutMs ?? 30_000) });
      if (!isOkStatus(response.status)) {
        await response.body?.cancel();
        return undefined;
      }
      const answer = await response.text();
      finish(exchange, { status: 200, upstream: route.upstreams[0], upstreamProtocol: upstream.protocol });
      return respond(exchange, answer, 200, { 'content-type': 'application/json', 'x-llm-token-count': 'upstream' });
    } catch {
      return undefined;
    }
  }

  async function generate(exchange: Exchange, match: HttpRequestMatch, request: RouterRequest): Promise<RouterReply> {
    // The client's body is reachable through `held` only, never from a local: V8 keeps every
    // local of a suspended async function alive, so a local tree would be copied by each young
    // GC (and promoted) for as long as the upstream takes to answer. `held` is emptied before the
    // last upstream call; another upstream may still need it until then.
    const held: HeldBody = heldBody(await request.text(), exchange.clientCodec.id);
    const clientModel = match.model ?? stringField(held.body, 'model');
    if (!clientModel) throw new LlmError({ kind: 'invalid_request', message: 'model: required', path: 'model' });
    exchange.record.clientModel = clientModel;
    const route = resolveRoute(config.routes, clientModel);
    if (!route) throw new LlmError({ kind: 'not_found', message: `no route for model ${clientModel}` });
    const clientId = exchange.clientCodec.id;
    const owner = request.clientKeyId;
    const previousResponseId = clientId === 'openai-responses' ? stringField(held.body, 'previous_response_id') : undefined;
    // The stored conversation, loaded once for the first upstream of another protocol that needs it.
    let storedHistory: Promise<LlmMessage[]> | undefined;
    /** The turns to replay before the request's own, or undefined (checked: 404 before anything is sent). */
    const continuation = async (target: ProtocolId): Promise<LlmMessage[] | undefined> => {
      if (previousResponseId === undefined) return undefined;
      if (target !== 'openai-responses') return await (storedHistory ??= loadTurn(store, previousResponseId, owner));
      // A Responses upstream holds the conversation under its own id; only its owner may continue it.
      if (owner !== undefined) await checkOwner(store, previousResponseId, owner);
      return undefined;
    };
    // Answers from another protocol get an id minted here (contract 4); one per request.
    const answerId = clientId === 'openai-responses' ? mintResponseId() : undefined;

    // Media URLs the target cannot take, downloaded once per request when configured.
    let clientCanonical: LlmRequest | undefined;
    const fetched = new Map<string, FetchedMedia>();
    const mediaFor = async (target: ProtocolId): Promise<Map<string, FetchedMedia> | undefined> => {
      const fetchConfig = config.fetchMedia;
      if (!fetchConfig) return undefined;
      if (!held.body) return undefined;
      clientCanonical ??= exchange.clientCodec.request.decode(held.body, { model: match.model, stream: match.stream });
      const wanted = mediaUrlsToFetch(clientCanonical, target, fetchConfig).filter((item) => !fetched.has(item.url));
      for (const [url, media] of await fetchMediaUrls(wanted, fetchConfig, transport)) fetched.set(url, media);
      return fetched;
    };

    // Bounds the whole request: retries, fallbacks and the stream (cleared by `finish`).
    const deadline = new RequestDeadline(config.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS, request.signal);
    exchange.deadline = deadline;
    let lastFailure: UpstreamResponse | undefined;
    for (let attempt = 0; attempt < route.upstreams.length; attempt++) {
      const name = route.upstreams[attempt] as string;
      const hasNext = attempt < route.upstreams.length - 1;
      const upstream = config.upstreams[name];
      if (!upstream) throw new LlmError({ kind: 'server', message: `route names unknown upstream ${name}` });
      const upstreamCodec = codecs[upstream.protocol];
      if (!upstreamCodec) throw new LlmError({ kind: 'unsupported', message: `no codec for ${upstream.protocol}` });
      Object.assign(exchange.record, { upstream: name, upstreamProtocol: upstream.protocol, upstreamModel: route.model });

      const history = await continuation(upstream.protocol);
      const streamingUpstream = upstream.capabilities?.streaming !== false;
      const media = await mediaFor(upstream.protocol);
      const needsCanonical =
        Boolean(hasActivePolicies(config.policies) || config.transformRequest || upstream.capabilities || history || media?.size) ||
        (clientId === 'openai-responses' && upstream.protocol !== 'openai-responses');
      const transformRequest = needsCanonical
        ? (canonical: LlmRequest): LlmRequest => {
            let out = canonical;
            if (history) out.messages = [...history, ...out.messages];
            if (media) inlineFetchedMedia(out, media);
            if (upstream.protocol !== 'openai-responses') delete out.previousResponseId;
            out = applyPolicies(out, config.policies, { target: upstream.protocol });
            if (config.transformRequest) out = config.transformRequest(out, { clientProtocol: clientId, upstream: name });
            checkCapabilities(out, upstream.capabilities, name);
            if (!streamingUpstream) out.stream = false;
            return out;
          }
        : undefined;
      const via = bridge({
        client: exchange.clientCodec,
        upstream: upstreamCodec,
        strict: config.strict,
        warn: (warning) => exchange.warnings.add(warning),
        transformRequest,
        answerId: upstream.protocol === clientId ? undefined : answerId,
        transformResponse: config.transformResponse
          ? (response) => config.transformResponse?.(response, { clientProtocol: clientId, upstream: name }) ?? response
          : undefined,
      });
      const outgoing = encodeAttempt(via, held, match, route.model, upstream.protocol);
      if (!hasNext) {
        held.body = undefined;
        held.text = undefined;
        clientCanonical = undefined;
      }
      const { upstreamStreams, includeUsage, stored, kept, clientStream } = outgoing;
      exchange.record.stream = clientStream;
      const target = upstreamCodec.http.buildRequest({
        baseUrl: upstream.baseUrl,
        model: outgoing.model,
        stream: upstreamStreams,
        operation: 'generate',
        ...credentials(upstream),
        headers: upstreamHeaders(upstream, upstreamCodec, clientId, request.headers),
      });
      let response: UpstreamResponse;
      try {
        response = await callUpstream({
          url: target.url,
          headers: target.headers,
          body: outgoing.payload,
          transport,
          timeoutMs: upstream.timeoutMs ?? 600_000,
          maxRetries: config.maxRetries ?? 2,
          retryBaseDelayMs: config.retryBaseDelayMs ?? 500,
          maxRetryDelayMs: config.maxRetryDelayMs ?? 30_000,
          signal: deadline,
        });
      } catch (error) {
        if (hasNext && !deadline.aborted && LlmError.isInstance(error)) continue;
        return respondError(exchange, error, via);
      }
      if (!isOkStatus(response.status)) {
        if (hasNext && isRetryableStatus(response.status)) {
          await response.body?.cancel().catch(() => undefined);
          lastFailure = response;
          continue;
        }
        const errorBody = await readErrorBody(response);
        const encoded = via.error(response.status, errorBody, response.headers);
        const decoded = upstreamCodec.error.decode(response.status, errorBody, response.headers);
        // A body that is not the protocol's error shape (a proxy's page) is the decoded error's cause: log it.
        finish(exchange, decoded.cause === undefined ? { status: encoded.status, errorKind: decoded.kind } : { status: encoded.status, errorKind: decoded.kind, errorDetail: describeError(decoded) });
        return respond(exchange, JSON.stringify(encoded.body), encoded.status, { 'content-type': 'application/json', ...encoded.headers });
      }
      const remember = rememberer(kept, {
        id: via.sameProtocol ? undefined : answerId,
        owner,
        recordUpstreamIds: stored && via.sameProtocol && clientId === 'openai-responses',
      });
      if (clientStream && upstreamStreams && !isJsonAnswer(response)) {
        // An iterable body when the transport has one: no Web stream per streamed answer.
        const upstreamChunks = watchChunks(
          chunksOf(response.chunks?.() ?? response.body ?? emptyChunks()),
          upstream.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
          deadline,
        );
        let failure: LlmError | undefined;
        const onEvent = (event: LlmStreamEvent): void => {
          remember.onEvent(event);
          if (event.type !== 'error') return;
          failure = event.error;
          // A translated answer is over: stop reading the upstream (a stream that did not decode
          // goes on). Passed-through bytes stay the upstream's own to the end.
          if (!via.sameProtocol) upstreamChunks.cancel();
        };
        const onEnd = () => finish(exchange, { status: 200, usage: remember.usage(), ...streamFailureFields(failure) });
        const chunks = via.streamChunks(upstreamChunks, { onEvent, includeUsage, onEnd });
        return withRetrievable(respond(exchange, chunks, 200, { ...SSE_HEADERS }), stored);
      }
      // A whole JSON answer: asked for, from an upstream that cannot stream, or sent instead of the stream asked for.
      let json: unknown;
      try {
        json = await readJson(response, deadline, upstream.protocol);
      } catch (error) {
        return respondError(exchange, error, via);
      }
      if (clientStream) {
        let events: ReadableStream<Uint8Array>;
        try {
          events = via.responseToStream(json, { onEvent: remember.onEvent });
        } catch (error) {
          return respondError(exchange, error, via);
        }
        const onEnd = () => finish(exchange, { status: 200, usage: remember.usage() });
        return withRetrievable(respond(exchange, stepIterable(chunksOf(events), passThroughStep<Uint8Array>(), { onEnd }), 200, { ...SSE_HEADERS }), stored);
      }
      let decoded: LlmResponse | undefined;
      const out = via.response(json, (canonical) => {
        decoded = canonical;
      });
      remember.onResponse(json, upstreamCodec, decoded?.usage);
      finish(exchange, { status: 200, usage: remember.usage() });
      return withRetrievable(respond(exchange, JSON.stringify(out), 200, { 'content-type': 'application/json' }), stored);
    }
    const failure = lastFailure as UpstreamResponse;
    throw new LlmError({ kind: 'upstream', message: `every upstream failed (last status ${failure?.status})` });
  }

  /**
   * Collects usage and, given the canonical request of a turn to keep (see `keptRequest`), stores
   * the turn for `previous_response_id`.
   */
  function rememberer(request: LlmRequest | undefined, answer: AnswerOwnership) {
    let usage: LlmUsage | undefined;
    const storing = request !== undefined;
    const accumulator = storing ? new LlmStreamAccumulator() : undefined;
    const save = (response: LlmResponse): void => {
      const canonical = request;
      const choice = response.choices[0];
      if (!canonical || !choice) return;
      const messages: LlmMessage[] = [...canonical.messages, { role: 'assistant', content: choice.content }];
      saveTurn(store, quota, answer.id ?? response.id, answer.owner, messages);
    };
    const owns = (id: unknown): void => {
      if (answer.recordUpstreamIds && answer.owner !== undefined && typeof id === 'string') recordOwner(store, quota, id, answer.owner);
    };
    return {
      usage: () => usage,
      onEvent(event: LlmStreamEvent): void {
        if (event.type === 'start') owns(event.id);
        if (event.type === 'usage') usage = event.usage;
        else if (event.type === 'finish' && event.usage) usage = event.usage;
        if (accumulator) {
          accumulator.push(event);
          if (event.type === 'finish') {
            try {
              save(accumulator.response());
            } catch {
              // An incomplete stream stores nothing.
            }
          }
        }
      },
      /** `known`: the usage of a canonical response the bridge already decoded (no second decode for it). */
      onResponse(json: unknown, codec: Codec, known?: LlmUsage): void {
        if (isJsonObject(json)) owns(json.id);
        if (!config.hooks?.onRequestEnd && !storing) return;
        if (known && !storing) {
          usage = known;
          return;
        }
        try {
          const response = codec.response.decode(json);
          usage = response.usage;
          if (storing) save(response);
        } catch {
          // Usage is best effort; the client already has its answer.
        }
      },
    };
  }
}

/** Whose answer this is, and under which id (see response-state.ts). */
interface AnswerOwnership {
  /** The id minted for the client, when the router mints one. */
  id?: string;
  /** The request's `clientKeyId`. */
  owner?: string;
  /** Record the owner of the upstream's own ids (a Responses upstream, a kept answer). */
  recordUpstreamIds: boolean;
}

/**
 * The canonical request to store with its answer, or undefined: a Responses client of another
 * upstream gets its turns back by `previous_response_id` (a Responses upstream keeps its own).
 */
function keptRequest(clientId: ProtocolId, upstreamId: ProtocolId, request: LlmRequest | undefined): LlmRequest | undefined {
  return clientId === 'openai-responses' && upstreamId !== 'openai-responses' ? request : undefined;
}

/**
 * The client's body while upstream attempts may need it: parsed, and its text for the bridge's
 * opaque-state scan. Emptied before the last attempt waits on its upstream.
 */
interface HeldBody {
  body?: Record<string, unknown>;
  text?: string;
}

function heldBody(text: string, protocol: ProtocolId): HeldBody {
  return { body: parseBody(text, protocol), text };
}

function stringField(body: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = body?.[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * What one attempt sends (the upstream body, as bytes) and the little its answer needs of the
 * request. No request tree is returned, so none stays alive while the upstream answers.
 */
interface EncodedAttempt {
  /** The upstream body as UTF-8: what the transport sends, and resends on a retry. */
  payload: Uint8Array<ArrayBuffer>;
  model: string;
  upstreamStreams: boolean;
  includeUsage: boolean | undefined;
  /** A Responses client's `store: false`: OpenAI keeps nothing then, nor serves it back by id. */
  stored: boolean;
  /** The canonical turn to keep for `previous_response_id` (see `keptRequest`). */
  kept: LlmRequest | undefined;
  clientStream: boolean;
}

const UTF8 = new TextEncoder();

function encodeAttempt(via: Bridge, held: HeldBody, match: HttpRequestMatch, upstreamModel: string | undefined, upstreamId: ProtocolId): EncodedAttempt {
  // Present on every attempt: `held` is emptied only after the last one is encoded.
  const clientBody = held.body as Record<string, unknown>;
  const bridged = via.request(clientBody, { model: match.model, stream: match.stream, upstreamModel, text: held.text });
  const clientId = via.client.id;
  const stored = !(clientId === 'openai-responses' && clientBody.store === false);
  return {
    payload: UTF8.encode(JSON.stringify(bridged.body)),
    model: bridged.model,
    upstreamStreams: bridged.stream,
    includeUsage: bridged.canonical?.streamUsage,
    stored,
    kept: stored ? keptRequest(clientId, upstreamId, bridged.canonical) : undefined,
    clientStream: match.stream ?? clientBody.stream === true,
  };
}

/** The reply, marked not retrievable when the client asked for no storage. */
function withRetrievable(reply: RouterReply, stored: boolean): RouterReply {
  if (!stored) reply.retrievable = false;
  return reply;
}

/**
 * The codec serving the call, and its match; or the codec that failed to read the call's path
 * (`failure`, answered as a 400 in its protocol); or undefined when no codec serves it.
 */
function matchClient(
  codecs: CodecRegistry,
  request: RouterRequest,
  url: URL,
): { codec: Codec; match: HttpRequestMatch; failure?: undefined } | { codec: Codec; match?: undefined; failure: unknown } | undefined {
  const order = request.headers.get('anthropic-version') !== null ? CLIENT_ORDER : CLIENT_ORDER_CLAUDE_LAST;
  for (const id of order) {
    const codec = codecs[id];
    if (!codec) continue;
    try {
      const match = codec.http.matchRequest(request.method, url);
      if (match) return { codec, match };
    } catch (failure) {
      return { codec, failure };
    }
  }
  return undefined;
}

/**
 * A client body: a JSON object nesting at most `MAX_JSON_DEPTH` (128) levels, so no recursive
 * walk after it (decoders, schema rewriters, `JSON.stringify`) can exhaust the stack; deeper
 * bodies answer 400 naming where the limit was crossed. The check walks the parsed value once.
 */
function parseBody(text: string, protocol: ProtocolId): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new LlmError({ kind: 'invalid_request', message: 'request body is not valid JSON' });
  }
  if (!isJsonObject(body)) throw new LlmError({ kind: 'invalid_request', message: 'request body must be a JSON object' });
  checkJsonDepth(body, { protocol });
  return body;
}

/** True when an upstream answered with a whole JSON body (even to a stream request). */
function isJsonAnswer(response: UpstreamResponse): boolean {
  return response.headers.get('content-type')?.trimStart().toLowerCase().startsWith('application/json') ?? false;
}

/**
 * An upstream's 2xx JSON answer, nesting at most `MAX_JSON_DEPTH` levels. Unreadable or over-deep
 * JSON is a 502 (`upstream`), never the client's fault; the deadline passing while the body is
 * read is a 504. The depth check is what keeps a same-protocol answer, which no decoder walks, from
 * overflowing the stack in `JSON.stringify`; a decoder's own check of the same value is then one
 * lookup.
 */
async function readJson(response: UpstreamResponse, deadline: RequestDeadline, protocol: ProtocolId): Promise<unknown> {
  try {
    const json = await untilAborted(response.json(), deadline);
    checkJsonDepth(json, { protocol });
    return json;
  } catch (error) {
    throw deadline.expired ?? (LlmError.isInstance(error) && error.kind === 'cancelled' ? error : upstreamDecodeFailure(protocol, 'answer', error));
  }
}

/** The record's fields for a stream that ended with an error (the client had its 200 already). */
function streamFailureFields(failure: LlmError | undefined): Partial<RequestRecord> {
  if (!failure) return {};
  return failure.cause === undefined ? { errorKind: failure.kind } : { errorKind: failure.kind, errorDetail: describeError(failure) };
}

async function* emptyChunks(): AsyncIterable<Uint8Array> {}

async function readErrorBody(response: UpstreamResponse): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function credentials(upstream: UpstreamConfig): { apiKey?: string; auth?: Exclude<UpstreamConfig['auth'], 'none'> } {
  if (upstream.auth === 'none' || upstream.apiKey === undefined) return {};
  return upstream.auth ? { apiKey: upstream.apiKey, auth: upstream.auth } : { apiKey: upstream.apiKey };
}

/**
 * Extra headers of an upstream call: a same-protocol client's forwarded headers (its API version
 * and betas, see `HttpBinding.forwardedHeaders`), under the upstream's configured ones.
 */
function upstreamHeaders(upstream: UpstreamConfig, codec: Codec, clientId: ProtocolId, clientHeaders: HeaderReader): Record<string, string> | undefined {
  const names = clientId === codec.id ? codec.http.forwardedHeaders : undefined;
  if (!names) return upstream.headers;
  let forwarded: Record<string, string> | undefined;
  for (const name of names) {
    const value = clientHeaders.get(name);
    if (value !== null) (forwarded ??= {})[name] = value;
  }
  return forwarded ? { ...forwarded, ...upstream.headers } : upstream.headers;
}
