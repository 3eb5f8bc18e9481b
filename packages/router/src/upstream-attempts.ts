import { LlmError, describeError, type Codec, type HttpRequestMatch, type LlmMessage, type LlmRequest, type LlmWarning } from '@llm/core';
import { admitCall } from './admission.js';
import { answerReply } from './answer-reply.js';
import { bridge, type Bridge, type BridgeAnswers } from './bridge.js';
import { checkCapabilities } from './capabilities.js';
import { noteToolResults, startDiagnostics } from './diagnostics.js';
import { heldBody, stringField, type HeldBody } from './client-body.js';
import type { RequestRecord, UpstreamConfig, UpstreamResponse } from './config.js';
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
import { runMcpLoop } from './mcp/mcp-loop.js';
import { mcpServersFor } from './mcp/mcp-toolset.js';
import { DEFAULT_REQUEST_DEADLINE_MS, RequestDeadline } from './timeouts.js';
import { callUpstream, DEFAULT_MAX_RETRY_DELAY_MS, DEFAULT_RETRY_BASE_DELAY_MS, isOkStatus, isRetryableStatus } from './upstream-call.js';
import { credentials, upstreamHeaders } from './upstream-target.js';

/**
 * A generate call: the client's body read once, its route resolved, then each of the route's
 * upstreams in turn (the attempt loop) until one answers: translated for it, sent with retries,
 * its error answered or the next upstream tried, its 2xx answer turned into the reply
 * (answer-reply.ts). A request with MCP servers the router runs goes to the MCP loop instead
 * (mcp/mcp-loop.ts), on the first upstream planned.
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
  if (config.hooks?.admit) {
    const clientProtocol = call.clientCodec.id;
    await admitCall(config, {
      requestId: call.requestId,
      ...(request.clientKeyId !== undefined && { clientKeyId: request.clientKeyId }),
      clientModel,
      clientProtocol,
      stream: match.stream ?? held.body?.stream === true,
      maxOutputTokens: held.body ? call.clientCodec.http.maxOutputTokensOf?.(held.body) : undefined,
      upstreamModels: route.targets.map((target) => target.model),
      bodyChars: held.text?.length ?? 0,
    });
  }
  const diagnostics = config.diagnostics ? startDiagnostics(route.rule.match) : undefined;
  if (diagnostics) call.record.diagnostics = diagnostics;
  // A client whose protocol stores answers by id (Responses) continues them by `previous_response_id`.
  const clientStores = call.clientCodec.traits.storesResponses;
  const owner = request.clientKeyId;
  const continuation = new Continuation(runtime, clientStores ? stringField(held.body, 'previous_response_id') : undefined, owner);
  // Answers from another protocol get an id minted here, one per request: the client continues under it.
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

  // Every wire form of an MCP tool or part names it (`mcp`, `mcp_servers`, `mcp_call`...): a
  // request whose text does not is spared a second decode.
  const mayCarryMcp = held.text?.includes('mcp') ?? true;

  // Bounds the whole request: retries, fallbacks and the stream (cleared by `finish`).
  const deadline = new RequestDeadline(config.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS, request.signal);
  call.deadline = deadline;
  const { routing } = runtime;
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
    // The upstream runs the request's MCP servers itself when it can, unless the route says otherwise.
    const upstreamHostsMcp = upstreamCodec.traits.hostedMcp && upstream.hostsMcp !== false && current.rule.mcp?.run !== 'gateway';
    if (config.mcp && held.body && (current.rule.mcpServers?.length || (!upstreamHostsMcp && mayCarryMcp))) {
      clientCanonical ??= call.clientCodec.request.decode(held.body, { model: match.model, stream: match.stream });
      const servers = mcpServersFor(clientCanonical, current.rule.mcpServers, config.mcp, upstreamHostsMcp);
      // The loop runs on this upstream alone: its turns build on each other.
      if (servers.length > 0) {
        const target = { name, upstream, upstreamCodec, model, upstreamHostsMcp };
        return await runMcpLoop(runtime, call, {
          request,
          match,
          held,
          target,
          servers,
          tools: clientCanonical.tools,
          messages: clientCanonical.messages,
          extras: { history, media, answerId },
        });
      }
    }
    const via = attemptBridge(runtime, call, name, upstream, upstreamCodec, { history, media, answerId });
    const outgoing = encodeAttempt(via, held, match, model, upstreamHeaders(upstream, upstreamCodec, call.clientCodec.id, request.headers));
    if (!hasNext && !mayReroute) {
      held.body = undefined;
      held.text = undefined;
      clientCanonical = undefined;
    }
    const { stored, clientStream, answers } = outgoing;
    call.record.stream = clientStream;
    let response: UpstreamResponse;
    try {
      response = await sendAttempt(runtime, call, { name, upstream, upstreamCodec }, outgoing);
    } catch (error) {
      if (hasNext && !deadline.aborted && LlmError.isInstance(error)) continue;
      return calls.respondError(call, error, via);
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
      return upstreamErrorReply(runtime, call, { response, errorBody, decoded, answers });
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

/** The upstream an attempt goes to. */
export interface AttemptTarget {
  name: string;
  upstream: UpstreamConfig;
  upstreamCodec: Codec;
}

/**
 * Sends one encoded attempt to its upstream (retries on 429 / 5xx included) under the call's
 * deadline, keeping the routing state's counts: in flight until the call ends, failed or
 * answered. Throws what the transport threw (counted as a failure unless the request was cancelled).
 */
export async function sendAttempt(
  runtime: RouterRuntime,
  call: RouterCall,
  { name, upstream, upstreamCodec }: AttemptTarget,
  outgoing: EncodedAttempt,
): Promise<UpstreamResponse> {
  const { config, transport, routing } = runtime;
  const deadline = call.deadline as RequestDeadline;
  const breaking = config.circuitBreaker !== false;
  const diagnostics = call.record.diagnostics;
  const target = upstreamCodec.http.buildRequest({
    baseUrl: upstream.baseUrl,
    model: outgoing.model,
    stream: outgoing.upstreamStreams,
    operation: 'generate',
    ...credentials(upstream, rotatedKey(upstream, name, routing)),
    headers: outgoing.headers,
  });
  if (breaking) routing.sending(name);
  // In flight until the call ends (its stream included): what `least-busy` counts.
  call.onFinish?.();
  call.onFinish = routing.begin(name);
  const sentAt = routing.now();
  const record = call.record;
  // Counted here, where each resend is known to go to this same upstream, not from the transport.
  const before = record.attempts;
  const onAttempt = () => {
    record.attempts++;
    if (diagnostics) diagnostics.attempts++;
  };
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
      requestId: call.requestId,
      onAttempt,
    });
  } catch (error) {
    // A client that went away or a spent deadline says nothing of the upstream's health.
    if (breaking && !deadline.aborted && LlmError.isInstance(error)) routing.failed(name);
    throw error;
  } finally {
    const resent = record.attempts - before - 1;
    if (resent > 0) noteRetries(record, name, resent);
  }
  if (diagnostics) diagnostics.upstreamStatus = response.status;
  if (isRetryableStatus(response.status)) {
    if (breaking) routing.failed(name);
  } else {
    routing.answered(name, routing.now() - sentAt);
  }
  return response;
}

/** Adds `count` resends to `upstream`'s entry of the record's retries. */
function noteRetries(record: RequestRecord, upstream: string, count: number): void {
  record.retries ??= [];
  const entry = record.retries.find((item) => item.upstream === upstream);
  if (entry) entry.count += count;
  else record.retries.push({ upstream, count });
}

/** What an attempt adds to the client's request: replayed turns, downloaded media, the minted id. */
export interface AttemptExtras {
  history: LlmMessage[] | undefined;
  media: Map<string, FetchedMedia> | undefined;
  answerId: string | undefined;
  /** A rewrite of the request with its history (the MCP loop's), run before the policies. */
  rewrite?: (request: LlmRequest) => LlmRequest;
  /** The answer is the router's own (the MCP loop's): `answerId` even from an upstream of the client's protocol. */
  ownAnswerId?: boolean;
  /** Where translation warnings go instead of the call's collector (the MCP loop drops repeats). */
  warn?: (warning: LlmWarning) => void;
}

/**
 * The bridge of one attempt: the client's codec to upstream `name`'s, with the canonical rewrites
 * the attempt needs (stored turns, media, policies, hooks, capability checks), or none, so a
 * same-protocol request can pass through.
 */
export function attemptBridge(
  runtime: RouterRuntime,
  call: RouterCall,
  name: string,
  upstream: UpstreamConfig,
  upstreamCodec: Codec,
  extras: AttemptExtras,
): Bridge {
  const { config } = runtime;
  const clientId = call.clientCodec.id;
  const { history, media, answerId, rewrite } = extras;
  const streamingUpstream = upstream.capabilities?.streaming !== false;
  const needsCanonical =
    Boolean(
      hasActivePolicies(config.policies) || config.transformRequest || config.diagnostics || upstream.capabilities || history || media?.size || rewrite,
    ) ||
    (call.clientCodec.traits.storesResponses && !upstreamCodec.traits.storesResponses);
  const transformRequest = needsCanonical
    ? (canonical: LlmRequest): LlmRequest => {
        let out = canonical;
        if (history) out.messages = [...history, ...out.messages];
        if (media) inlineFetchedMedia(out, media);
        if (rewrite) out = rewrite(out);
        // Replayed turns take the place of the id (an upstream that stores answers never saw it).
        if (history || !upstreamCodec.traits.storesResponses) delete out.previousResponseId;
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
    warn: extras.warn ?? ((warning) => call.warnings.add(warning)),
    transformRequest,
    strictTools: upstream.strictTools,
    answerId: upstream.protocol === clientId && !extras.ownAnswerId ? undefined : answerId,
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

/** An upstream's error answer, read and decoded, and the exchange that translates it. */
export interface UpstreamFailure {
  response: UpstreamResponse;
  errorBody: unknown;
  decoded: LlmError;
  answers: BridgeAnswers;
}

/** The client's reply to an upstream's error answer, in its protocol. Ends the call. */
export function upstreamErrorReply(runtime: RouterRuntime, call: RouterCall, { response, errorBody, decoded, answers }: UpstreamFailure): RouterReply {
  const { calls } = runtime;
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

export async function readErrorBody(response: UpstreamResponse): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
