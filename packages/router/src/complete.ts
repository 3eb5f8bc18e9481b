import { LlmError, decodeSse, type ProtocolId, type SseEvent } from '@llm/core';
import type { RouterConfig, Transport, UpstreamConfig } from './config.js';
import { createHandler } from './handler.js';
import { defaultCodecs, type CodecRegistry } from './registry.js';

/** Options of {@link complete}. */
export interface CompleteOptions {
  /** Protocol the body is written in (and the answer comes back in). */
  client: ProtocolId;
  /** Where to send it. */
  upstream: UpstreamConfig;
  /** Model to send upstream instead of the body's. */
  model?: string;
  /** Stream flag for protocols that carry it outside the body (Gemini). */
  stream?: boolean;
  /** Model for protocols that carry it outside the body (Gemini). */
  clientModel?: string;
  strict?: boolean;
  transport?: Transport;
  codecs?: CodecRegistry;
  signal?: AbortSignal;
  /** Further router settings (retries, policies, hooks). */
  router?: Omit<RouterConfig, 'upstreams' | 'routes' | 'codecs' | 'transport' | 'strict'>;
}

/** A streaming answer of {@link complete}. */
export interface CompleteStream {
  stream: true;
  /** SSE bytes in the client protocol. */
  sse: ReadableStream<Uint8Array>;
  /** The same answer as parsed SSE events (use one of `sse` or `events`, not both). */
  events(): ReadableStream<SseEvent>;
}

/** A non-streaming answer of {@link complete}. */
export interface CompleteValue {
  stream: false;
  /** Response body in the client protocol. */
  body: unknown;
}

/**
 * Sends a request written in the client protocol to an upstream of any protocol and returns the
 * answer in the client protocol: a value, or SSE bytes / events when the request streams.
 * Upstream errors throw `LlmError`.
 */
export async function complete(body: unknown, options: CompleteOptions): Promise<CompleteValue | CompleteStream> {
  const codecs = options.codecs ?? defaultCodecs();
  const handler = createHandler({
    ...options.router,
    upstreams: { upstream: options.upstream },
    routes: [{ match: '*', upstream: 'upstream', model: options.model }],
    codecs,
    transport: options.transport,
    strict: options.strict,
  });
  const clientCodec = codecs[options.client];
  if (!clientCodec) throw new LlmError({ kind: 'unsupported', message: `no codec for ${options.client}` });
  // The client's own endpoint, as its codec names it (Gemini's holds the model and the stream flag).
  const path = clientCodec.endpoints.generatePath(options.clientModel ?? options.model ?? 'model', options.stream === true);
  const request = new Request(`http://router.local${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: options.signal,
  });
  const response = await handler(request);
  const contentType = response.headers.get('content-type') ?? '';
  if (!response.ok) {
    const text = await response.text();
    throw clientCodec.error.decode(response.status, parseOrText(text), response.headers);
  }
  if (contentType.startsWith('text/event-stream') && response.body) {
    const sse = response.body;
    return { stream: true, sse, events: () => decodeSse(sse) };
  }
  return { stream: false, body: await response.json() };
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
