import type { HeaderReader, HttpRequestMatch } from '@llm/core';
import { parseBody } from './client-body.js';
import { estimateTokens } from './endpoints.js';
import { normaliseMessageContent } from './policies.js';
import type { RouterReply, RouterRequest } from './reply.js';
import type { RouterCall } from './request-record.js';
import { resolveRoute } from './routing.js';
import type { RouterRuntime } from './router-runtime.js';
import { isOkStatus } from './upstream-call.js';
import { credentials, upstreamHeaders } from './upstream-target.js';

/**
 * A count-tokens call: the routed upstream's own count when configured (`countTokens:
 * 'upstream'`) and possible, else the router's deliberately high estimate.
 */
export async function countTokens(runtime: RouterRuntime, call: RouterCall, match: HttpRequestMatch, request: RouterRequest): Promise<RouterReply> {
  const text = await request.text();
  // A body that is no JSON object is the client's error, whoever counts (no estimate of garbage).
  const body = parseBody(text, call.clientCodec.id);
  // The upstream's own count gets the body the generate call would decode.
  if (runtime.config.policies?.lenientContent) normaliseMessageContent(body);
  const counted = runtime.config.countTokens === 'upstream' ? await countUpstream(runtime, call, match, body, request.headers) : undefined;
  if (counted) return counted;
  runtime.calls.finish(call, { status: 200 });
  return runtime.calls.respond(call, JSON.stringify(call.clientCodec.endpoints.countTokensBody(estimateTokens(text))), 200, {
    'content-type': 'application/json',
    'x-llm-token-count': 'estimate',
  });
}

/**
 * Asks the routed upstream's own count endpoint when it speaks the client's protocol (the body
 * needs no translation), with the route's model. Any failure (a 404 included) gives undefined,
 * and the caller answers with the estimate: a count call never marks a model missing.
 */
async function countUpstream(
  runtime: RouterRuntime,
  call: RouterCall,
  match: HttpRequestMatch,
  body: Record<string, unknown>,
  clientHeaders: HeaderReader,
): Promise<RouterReply | undefined> {
  const { config, codecs, transport, calls } = runtime;
  const clientModel = match.model ?? (typeof body.model === 'string' ? body.model : undefined);
  const route = clientModel ? resolveRoute(config.routes, clientModel) : undefined;
  const upstream = route ? config.upstreams[route.upstreams[0] as string] : undefined;
  const codec = upstream ? codecs[upstream.protocol] : undefined;
  if (!route || !upstream || !codec || codec.id !== call.clientCodec.id || !clientModel) return undefined;
  const model = route.targets[0]?.model ?? clientModel;
  const sent = codec.http.modelIn === 'body' && typeof body.model === 'string' ? { ...body, model } : body;
  const headers = upstreamHeaders(upstream, codec, call.clientCodec.id, clientHeaders);
  const target = codec.http.buildRequest({
    baseUrl: upstream.baseUrl,
    model,
    stream: false,
    operation: 'count-tokens',
    ...credentials(upstream),
    headers: codec.http.headersFor ? codec.http.headersFor(sent, headers) : headers,
  });
  try {
    call.record.attempts++;
    const response = await transport({
      url: target.url,
      method: 'POST',
      headers: target.headers,
      body: JSON.stringify(sent),
      requestId: call.requestId,
      signal: AbortSignal.timeout(upstream.timeoutMs ?? 30_000),
    });
    if (!isOkStatus(response.status)) {
      await response.body?.cancel();
      return undefined;
    }
    const answer = await response.text();
    calls.finish(call, { status: 200, upstream: route.upstreams[0], upstreamProtocol: upstream.protocol });
    return calls.respond(call, answer, 200, { 'content-type': 'application/json', 'x-llm-token-count': 'upstream' });
  } catch {
    return undefined;
  }
}
