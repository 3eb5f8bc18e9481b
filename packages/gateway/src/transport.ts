import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { Agent, request as dispatch } from './undici-parts.js';
import { type HeaderMap, HeaderMapReader } from './header-map-reader.js';
import type { Transport, UpstreamResponse } from './router-contract.js';

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
    const result = await dispatch.call(agent, {
      origin: url.origin,
      path: url.pathname + url.search,
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: request.signal,
    });
    return new UndiciReply(result.statusCode, result.headers, result.body);
  };
  return { transport, close: () => agent.close() };
}

/**
 * An upstream answer over undici's response, without a WHATWG `Response`: `text()` and `json()`
 * read undici's body directly (a JSON answer never passes through a Web stream); `body` makes a
 * Web stream of it only when asked (streams, downloads).
 */
class UndiciReply implements UpstreamResponse {
  readonly headers: HeaderMapReader;
  private stream: ReadableStream<Uint8Array> | null | undefined;

  constructor(
    readonly status: number,
    headers: HeaderMap,
    private readonly raw: Dispatcher.ResponseData['body'],
  ) {
    this.headers = new HeaderMapReader(headers);
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.stream === undefined) {
      const empty = this.status === 204 || this.status === 304;
      if (empty) this.raw.resume();
      this.stream = empty ? null : webStreamOf(this.raw);
    }
    return this.stream;
  }

  text(): Promise<string> {
    return this.raw.text();
  }

  json(): Promise<unknown> {
    return this.raw.json();
  }

  /**
   * undici's body itself: a Node `Readable` iterates its chunks, each read taking all that is
   * buffered (the events of one socket read arrive as one chunk), and `return()` destroys it,
   * which aborts the upstream call.
   */
  chunks(): AsyncIterable<Uint8Array> {
    return this.raw;
  }
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
