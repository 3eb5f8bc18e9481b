import type { ProtocolId } from '@llm/core';
import type { RouterConfig, UpstreamRequest } from '../../src/router-contract.js';
import { clientProtocolOf } from '../../src/server/client-protocol.js';
import type { ReplyHandler, RouterReply } from '@llm/router';

/**
 * A stand-in for @llm/router's createRouter in tests (no translation): forwards a request to
 * the first upstream of the client's own protocol through `config.transport`, and reports a
 * RequestRecord when the body has been fully sent.
 */
export function createPassthroughHandler(config: RouterConfig): ReplyHandler {
  const transport = config.transport ?? ((r: UpstreamRequest) => fetch(r.url, r));
  return async (request): Promise<RouterReply> => {
    const started = performance.now();
    const url = new URL(request.url);
    const protocol = clientProtocolOf(request.method, url, request.headers) as ProtocolId;
    const [name, upstream] = Object.entries(config.upstreams).find(([, u]) => u.protocol === protocol) ?? [];
    if (!name || !upstream) return { status: 502, headers: {}, body: 'no upstream' };
    const path = upstream.baseUrl.endsWith('/v1') ? url.pathname.replace(/^\/v1/, '') : url.pathname;
    const body = await request.text();
    const model = (JSON.parse(body) as { model?: string }).model;
    // The transport takes an AbortSignal; the client's signal may be any CancelSignal.
    const abort = new AbortController();
    request.signal?.addEventListener('abort', () => abort.abort(request.signal?.reason), { once: true });
    const upstreamResponse = await transport({
      url: upstream.baseUrl + path + url.search,
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      signal: abort.signal,
    });
    const requestId = request.requestId ?? '';
    const record = (firstByteMs?: number) =>
      config.hooks?.onRequestEnd?.({
        requestId,
        clientKeyId: request.clientKeyId,
        clientProtocol: protocol,
        upstream: name,
        upstreamProtocol: upstream.protocol,
        clientModel: model,
        upstreamModel: model,
        status: upstreamResponse.status,
        stream: false,
        usage: { inputTokens: 3, outputTokens: 4 },
        firstByteMs,
        totalMs: performance.now() - started,
        warnings: [],
      });
    let first: number | undefined;
    const counted = upstreamResponse.body?.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          first ??= performance.now() - started;
          controller.enqueue(chunk);
        },
        flush() {
          record(first);
        },
      }),
    );
    return {
      status: upstreamResponse.status,
      headers: { 'content-type': upstreamResponse.headers.get('content-type') ?? 'application/octet-stream' },
      body: counted ?? null,
    };
  };
}
