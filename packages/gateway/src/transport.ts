import { Readable } from 'node:stream';
import { Agent } from 'undici';
import type { Transport } from './router-contract.js';

/** Options of {@link createUndiciTransport}. */
export interface UndiciTransportOptions {
  /** Sockets kept per origin (default 128). */
  connections?: number;
  /** Idle keep-alive in milliseconds (default 60,000). */
  keepAliveTimeout?: number;
}

/** A transport plus the pool it owns. */
export interface PooledTransport {
  transport: Transport;
  close(): Promise<void>;
}

/**
 * The gateway's upstream client: undici's dispatcher API over a keep-alive pool per origin,
 * which skips most of global fetch's per-request cost. Abort signals are honoured; the body
 * streams through.
 */
export function createUndiciTransport(options: UndiciTransportOptions = {}): PooledTransport {
  const agent = new Agent({
    connections: options.connections ?? 128,
    keepAliveTimeout: options.keepAliveTimeout ?? 60_000,
    keepAliveMaxTimeout: 600_000,
    bodyTimeout: 0,
    headersTimeout: 0,
  });
  const transport: Transport = async (request) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const result = await agent.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: request.method as 'POST',
      headers,
      body,
      signal: request.signal,
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(result.headers)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) responseHeaders.append(name, item);
      else responseHeaders.set(name, value);
    }
    const nullBody = result.statusCode === 204 || result.statusCode === 304 || request.method === 'HEAD';
    if (nullBody) result.body.resume();
    const stream = nullBody ? null : (Readable.toWeb(result.body) as ReadableStream<Uint8Array>);
    return new Response(stream, { status: result.statusCode, headers: responseHeaders });
  };
  return { transport, close: () => agent.close() };
}
