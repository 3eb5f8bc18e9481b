import type { Readable } from 'node:stream';
import { Agent } from 'undici';
import type { Transport } from './router-contract.js';

/** Largest fixed-length, non-SSE upstream body read whole before it is handed on. */
const BUFFER_LIMIT = 16 * 1024 * 1024;

/** Options of {@link createUndiciTransport}. */
export interface UndiciTransportOptions {
  /**
   * Most sockets per origin (default: no limit). HTTP/1.1 carries one request per socket, and an
   * LLM stream holds its socket for its whole length: a cap would queue streams behind each other.
   */
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
    connections: options.connections ?? null,
    keepAliveTimeout: options.keepAliveTimeout ?? 60_000,
    keepAliveMaxTimeout: 600_000,
    bodyTimeout: 0,
    headersTimeout: 0,
  });
  const transport: Transport = async (request) => {
    const url = new URL(request.url);
    const result = await agent.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: request.signal,
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(result.headers)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) responseHeaders.append(name, item);
      else responseHeaders.set(name, value);
    }
    const nullBody = result.statusCode === 204 || result.statusCode === 304;
    if (nullBody) {
      result.body.resume();
      return new Response(null, { status: result.statusCode, headers: responseHeaders });
    }
    // A body of announced length that is not an event stream (a JSON answer or error) is read
    // whole here: the router reads it whole anyway, and a byte body skips a stream adapter.
    const length = Number(result.headers['content-length']);
    const eventStream = responseHeaders.get('content-type')?.includes('text/event-stream') ?? false;
    if (!eventStream && Number.isInteger(length) && length <= BUFFER_LIMIT) {
      return new Response(await result.body.arrayBuffer(), { status: result.statusCode, headers: responseHeaders });
    }
    return new Response(webStreamOf(result.body), { status: result.statusCode, headers: responseHeaders });
  };
  return { transport, close: () => agent.close() };
}

/**
 * A Web stream over undici's body with backpressure (the body pauses while the reader is
 * behind). Used instead of `Readable.toWeb`, which on Node 20 throws an uncaught "Controller is
 * already closed" when a body is cancelled while data is still arriving (the router cancels
 * error bodies before a retry).
 */
function webStreamOf(body: Readable): ReadableStream<Uint8Array> {
  let done = false;
  // undici emits one 'data' per HTTP chunk, and upstreams write an SSE event per chunk: the
  // chunks of one socket read are joined (they arrive in one synchronous burst) so the gateway
  // translates and writes them once, not once per event.
  let pending: Buffer[] = [];
  let scheduled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const release = () => {
        scheduled = false;
        if (done || pending.length === 0) return;
        const chunk = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending);
        pending = [];
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 1) <= 0) body.pause();
      };
      body.on('data', (chunk: Buffer) => {
        if (done) return;
        pending.push(chunk);
        if (!scheduled) {
          scheduled = true;
          queueMicrotask(release);
        }
      });
      body.once('end', () => {
        if (done) return;
        release();
        done = true;
        controller.close();
      });
      body.once('error', (error) => {
        if (done) return;
        done = true;
        controller.error(error);
      });
    },
    pull() {
      body.resume();
    },
    cancel() {
      done = true;
      body.destroy();
    },
  });
}
