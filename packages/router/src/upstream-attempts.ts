import { LlmError, describeError, type Codec, type HttpRequestMatch, type LlmMessage, type LlmRequest } from '@llm/core';
import { answerReply } from './answer-reply.js';
import { bridge, type Bridge, type BridgeAnswers } from './bridge.js';
import { checkCapabilities } from './capabilities.js';
import { noteToolResults, startDiagnostics } from './diagnostics.js';
import { heldBody, stringField, type HeldBody } from './client-body.js';
import type { UpstreamConfig, UpstreamResponse } from './config.js';
import { fetchMediaUrls, inlineFetchedMedia, mediaUrlsToFetch, type FetchedMedia } from './media-fetch.js';
import { applyPolicies, hasActivePolicies, normaliseMessageContent } from './policies.js';
import type { RouterReply, RouterRequest } from './reply.js';
import type { RouterCall } from './request-record.js';
import { mintResponseId } from './response-state.js';
import { planAttempts, rotatedKey, type PlannedAttempt } from './attempt-plan.js';
import { canReroute, rerouteFor } from './reroute.js';
import { resolveRoute } from './routing.js';
import type { RouterRuntime } from './router-runtime.js';
import { Continuation, keptRequest } from './stored-turns.js';
import { DEFAULT_REQUEST_DEADLINE_MS, RequestDeadline } from './timeouts.js';
import { callUpstream, DEFAULT_MAX_RETRY_DELAY_MS, DEFAULT_RETRY_BASE_DELAY_MS, isOkStatus, isRetryableStatus } from './upstream-call.js';
import { credentials, upstreamHeaders } from './upstream-target.js';

/**
 * A generate call: the client's body read once, its route resolved, then each of the route's
 * upstreams in turn (the attempt loop) until one answers: translated for it, sent with retries,
 * its error answered or the next upstream tried, its 2xx answer turned into the reply
 * (answer-reply.ts).
 */
export async function generate(runtime: RouterRuntime, call: RouterCall, match: HttpRequestMatch, request: RouterRequest): Promise<RouterReply> {
  const { config, codecs, transport, calls } = runtime;
  // The client's body is reachable through `held` only, never from a local: V8 keeps every
  // local of a suspended async function alive, so a local tree would be copied by each young
  // GC (and promoted) for as long as the upstream takes to answer. `held` is emptied before the
  // last upstream call; another upstream may still need it until then.
  const held: HeldBody = heldBody(await request.text(), call.clientCodec.id);
  if (config.policies?.lenientContent && held.body) normaliseMessageContent(held.body);
  const clientModel = match.model ?? stringField(held.body, 'model');
  if (!clientModel) throw new LlmError({ kind: 'invalid_request', message: 'model: required', path: 'model' });
  call.record.clientModel = clientModel;
  const route = resolveRoute(config.routes, clientModel);
  if (!route) throw new LlmError({ kind: 'not_found', message: `no route for model ${clientModel}` });
  const diagnostics = config.diagnostics ? startDiagnostics(route.rule.match) : undefined;
  if (diagnostics) call.record.diagnostics = diagnostics;
  const clientId = call.clientCodec.id;
  // A client whose protocol stores answers by id (Responses) continues them by `previous_response_id`.
  const clientStores = call.clientCodec.traits.storesResponses;
  const owner = request.clientKeyId;
  const continuation = new Continuation(runtime, clientStores ? stringField(held.body, 'previous_response_id') : undefined, owner);
  // Answers from another protocol get an id minted here (contract 4); one per request.
  const answerId = clientStores ? mintResponseId() : undefined;

  // Media URLs the target cannot take, downloaded once per request when configured.
  let clientCanonical: LlmRequest | undefined;
  const fetched = new Map<string, FetchedMedia>();
  const mediaFor = async (target: Codec): Promise<Map<string, FetchedMedia> | undefined> => {
    const fetchConfig = config.fetchMedia;
    if (!fetchConfig) return undefined;
    if (!held.body) return undefined;
    clientCanonical ??= call.clientCodec.request.decode(held.body, { model: match.model, stream: match.stream });
    const wanted = mediaUrlsToFetch(clientCanonical, target, fetchConfig).filter((item) => !fetched.has(item.url));
    for (const [url, media] of await fetchMediaUrls(wanted, fetchConfig, transport)) fetched.set(url, media);
    return fetched;
  };

  // Bounds the whole request: retries, fallbacks and the stream (cleared by `finish`).
  const deadline = new RequestDeadline(config.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS, request.signal);
  call.deadline = deadline;
  const { routing } = runtime;
  const breaking = config.circuitBreaker !== false;
  let current = route;
  let plan = planAttempts(config, routing, current);
  // Each reroute (context window, content policy) is taken at most once per request.
  const rerouted = new Set<string>();
  let lastFailure: UpstreamResponse | undefined;
  let fallbacks = 0;
  for (let attempt = 0; attempt < plan.length; attempt++, fallbacks++) {
    const { name, upstream, model } = plan[attempt] as PlannedAttempt;
    const hasNext = attempt < plan.length - 1;
    const mayReroute = canReroute(current.rule, rerouted);
    const upstreamCodec = codecs[upstream.protocol];
    if (!upstreamCodec) throw new LlmError({ kind: 'unsupported', message: `no codec for ${upstream.protocol}` });
    Object.assign(call.record, { upstream: name, upstreamProtocol: upstream.protocol, upstreamModel: model, fallbacks });

    const history = await continuation.turnsFor(upstreamCodec);
    const media = await mediaFor(upstreamCodec);
    const via = attemptBridge(runtime, call, name, upstream, upstreamCodec, { history, media, answerId });
    const outgoing = encodeAttempt(via, held, match, model, upstreamHeaders(upstream, upstreamCodec, clientId, request.headers));
    if (!hasNext && !mayReroute) {
      held.body = undefined;
      held.text = undefined;
      clientCanonical = undefined;
    }
    const { upstreamStreams, stored, clientStream, answers } = outgoing;
    call.record.stream = clientStream;
    const target = upstreamCodec.http.buildRequest({
      baseUrl: upstream.baseUrl,
      model: outgoing.model,
      stream: upstreamStreams,
      operation: 'generate',
      ...credentials(upstream, rotatedKey(upstream, name, routing)),
      headers: outgoing.headers,
    });
    if (breaking) routing.sending(name);
    // In flight until the call ends (its stream included): what `least-busy` counts.
    call.onFinish?.();
    call.onFinish = routing.begin(name);
    const sentAt = routing.now();
    let response: UpstreamResponse;
    try {
      response = await callUpstream({
        url: target.url,
        headers: target.headers,
        body: outgoing.payload,
        transport,
        timeoutMs: upstream.timeoutMs ?? 600_000,
        maxRetries: config.maxRetries ?? 2,
        retryBaseDelayMs: config.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
        maxRetryDelayMs: config.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
        signal: deadline,
        onAttempt: diagnostics ? () => diagnostics.attempts++ : undefined,
      });
    } catch (error) {
      // A client that went away or a spent deadline says nothing of the upstream's health.
      if (breaking && !deadline.aborted && LlmError.isInstance(error)) routing.failed(name);
      if (hasNext && !deadline.aborted && LlmError.isInstance(error)) continue;
      return calls.respondError(call, error, via);
    }
    if (diagnostics) diagnostics.upstreamStatus = response.status;
    if (isRetryableStatus(response.status)) {
      if (breaking) routing.failed(name);
    } else {
      routing.answered(name, routing.now() - sentAt);
    }
    if (!isOkStatus(response.status)) {
      if (hasNext && isRetryableStatus(response.status)) {
        await response.body?.cancel().catch(() => undefined);
        lastFailure = response;
        continue;
      }
      const errorBody = await readErrorBody(response);
      const decoded = upstreamCodec.error.decode(response.status, errorBody, response.headers);
      const reroute = mayReroute ? rerouteFor(decoded.kind, current.rule, rerouted) : undefined;
      const next = reroute ? resolveRoute(config.routes, reroute) : undefined;
      if (next) {
        // A larger context window (or another policy) elsewhere: start over on that route.
        current = next;
        plan = planAttempts(config, routing, current);
        attempt = -1;
        continue;
      }
      const encoded = answers.error(response.status, errorBody, response.headers);
      // A body that is not the protocol's error shape (a proxy's page) is the decoded error's cause: log it.
      calls.finish(
        call,
        decoded.cause === undefined
          ? { status: encoded.status, errorKind: decoded.kind }
          : { status: encoded.status, errorKind: decoded.kind, errorDetail: describeError(decoded) },
      );
      return calls.respond(call, JSON.stringify(encoded.body), encoded.status, { 'content-type': 'application/json', ...encoded.headers });
    }
    return answerReply(runtime, call, {
      response,
      via,
      answers,
      upstream,
      upstreamCodec,
      deadline,
      attempt: outgoing,
      ownership: { id: via.sameProtocol ? undefined : answerId, owner, recordUpstreamIds: stored && via.sameProtocol && clientStores },
    });
  }
  const failure = lastFailure as UpstreamResponse;
  throw new LlmError({ kind: 'upstream', message: `every upstream failed (last status ${failure?.status})` });
}

/** What an attempt adds to the client's request: replayed turns, downloaded media, the minted id. */
interface AttemptExtras {
  history: LlmMessage[] | undefined;
  media: Map<string, FetchedMedia> | undefined;
  answerId: string | undefined;
}

/**
 * The bridge of one attempt: the client's codec to upstream `name`'s, with the canonical rewrites
 * the attempt needs (stored turns, media, policies, hooks, capability checks), or none, so a
 * same-protocol request can pass through.
 */
function attemptBridge(runtime: RouterRuntime, call: RouterCall, name: string, upstream: UpstreamConfig, upstreamCodec: Codec, extras: AttemptExtras): Bridge {
  const { config } = runtime;
  const clientId = call.clientCodec.id;
  const { history, media, answerId } = extras;
  const streamingUpstream = upstream.capabilities?.streaming !== false;
  const needsCanonical =
    Boolean(hasActivePolicies(config.policies) || config.transformRequest || config.diagnostics || upstream.capabilities || history || media?.size) ||
    (call.clientCodec.traits.storesResponses && !upstreamCodec.traits.storesResponses);
  const transformRequest = needsCanonical
    ? (canonical: LlmRequest): LlmRequest => {
        let out = canonical;
        if (history) out.messages = [...history, ...out.messages];
        if (media) inlineFetchedMedia(out, media);
        if (!upstreamCodec.traits.storesResponses) delete out.previousResponseId;
        out = applyPolicies(out, config.policies, { target: upstream.protocol });
        if (config.transformRequest) out = config.transformRequest(out, { clientProtocol: clientId, upstream: name });
        checkCapabilities(out, upstream.capabilities, name);
        if (call.record.diagnostics) noteToolResults(call.record.diagnostics, out.messages);
        if (!streamingUpstream) out.stream = false;
        return out;
      }
    : undefined;
  return bridge({
    client: call.clientCodec,
    upstream: upstreamCodec,
    strict: config.strict,
    warn: (warning) => call.warnings.add(warning),
    transformRequest,
    strictTools: upstream.strictTools,
    answerId: upstream.protocol === clientId ? undefined : answerId,
    transformResponse: config.transformResponse
      ? (response) => config.transformResponse?.(response, { clientProtocol: clientId, upstream: name }) ?? response
      : undefined,
  });
}

/**
 * What one attempt sends (the upstream body, as bytes) and the little its answer needs of the
 * request. No request tree is returned, so none stays alive while the upstream answers.
 */
export interface EncodedAttempt {
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
  /** Translates this attempt's answer (its tool names restored with this attempt's adaptation). */
  answers: BridgeAnswers;
  /** The call's extra headers, with what the encoded body needs (Claude's `anthropic-beta` for MCP servers). */
  headers: Record<string, string> | undefined;
}

const UTF8 = new TextEncoder();

export function encodeAttempt(
  via: Bridge,
  held: HeldBody,
  match: HttpRequestMatch,
  upstreamModel: string | undefined,
  headers: Record<string, string> | undefined,
): EncodedAttempt {
  // Present on every attempt: `held` is emptied only after the last one is encoded.
  const clientBody = held.body as Record<string, unknown>;
  const bridged = via.request(clientBody, { model: match.model, stream: match.stream, upstreamModel, text: held.text });
  const stored = !(via.client.traits.storesResponses && clientBody.store === false);
  return {
    payload: UTF8.encode(JSON.stringify(bridged.body)),
    model: bridged.model,
    upstreamStreams: bridged.stream,
    includeUsage: bridged.canonical?.streamUsage,
    stored,
    kept: stored ? keptRequest(via.client, via.upstream, bridged.canonical) : undefined,
    clientStream: match.stream ?? clientBody.stream === true,
    answers: bridged.answers,
    headers: via.upstream.http.headersFor ? via.upstream.http.headersFor(bridged.body, headers) : headers,
  };
}

async function readErrorBody(response: UpstreamResponse): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
