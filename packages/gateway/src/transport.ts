import { readableFrom } from '@llm/core';
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
  /**
   * Longest silence in milliseconds while an upstream answer's body is read, after which undici
   * closes the socket and the body ends in an error (default 0: none). A backstop only: the
   * router's `streamIdleTimeoutMs` ends a silent stream first, with the client protocol's error
   * event; this frees the socket should anything read a body without that timer.
   */
  bodyIdleTimeoutMs?: number;
}

/** A transport plus the pool it owns. */
export interface PooledTransport {
  transport: Transport;
  close(): Promise<void>;
}

/**
 * The gateway's upstream client: undici's dispatcher API over a keep-alive pool per origin,
 * which skips most of global fetch's per-request cost. Abort signals are honoured; the body
 * streams through. Redirects are never followed (the Agent has no redirect interceptor): a 3xx
 * answer returns as it is, which is what `UpstreamRequest.redirect: 'manual'` asks for on media
 * downloads (the router checks each hop against the allowlist) and what upstream API calls need.
 */
export function createUndiciTransport(options: UndiciTransportOptions = {}): PooledTransport {
  const agent = new Agent({
    connections: options.connections ?? null,
    keepAliveTimeout: options.keepAliveTimeout ?? 60_000,
    keepAliveMaxTimeout: 600_000,
    bodyTimeout: options.bodyIdleTimeoutMs ?? 0,
    headersTimeout: 0,
  });
  const targets = new TargetCache();
  const transport: Transport = async (request) => {
    const target = targets.get(request.url);
    const result = await dispatch.call(agent, {
      origin: target.origin,
      path: target.path,
      method: request.method,
      headers: request.headers,
      body: request.body,
      // undici takes the router's plain cancel signal as it is: no AbortSignal is built per call.
      signal: request.cancel ?? request.signal,
    });
    return new UndiciReply(result.statusCode, result.headers, result.body);
  };
  return { transport, close: () => agent.close() };
}

/** Where a URL sends a request: undici takes the origin and the path apart. */
interface DispatchTarget {
  origin: string;
  path: string;
}

/**
 * Parsed upstream URLs by their text. A gateway calls a handful of URLs (one per upstream, model
 * and mode), so each is parsed once instead of once per request; the cache empties when full.
 */
class TargetCache {
  private readonly parsed = new Map<string, DispatchTarget>();

  constructor(private readonly capacity = 1024) {}

  get(url: string): DispatchTarget {
    let target = this.parsed.get(url);
    if (!target) {
      const parsed = new URL(url);
      target = { origin: parsed.origin, path: parsed.pathname + parsed.search };
      if (this.parsed.size >= this.capacity) this.parsed.clear();
      this.parsed.set(url, target);
    }
    return target;
  }
}

/**
 * An upstream answer over undici's response, without a WHATWG `Response`: `text()`, `json()` and
 * `chunks()` read undici's body directly; `body` makes a Web stream of it only when asked
 * (downloads, cancelling an error body).
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
      this.stream = empty ? null : readableFrom(this.raw);
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
   * undici's body, read as it is: a Node `Readable` iterates its chunks, each read taking all that
   * is buffered (the events of one socket read arrive as one chunk). `return()` destroys the body
   * at once, which aborts the upstream call and closes its socket, even while a read waits: the
   * Readable's own iterator would queue that `return()` behind the pending read, forever for an
   * upstream gone silent (the router's idle timeout cancels exactly then).
   */
  chunks(): AsyncIterable<Uint8Array> {
    const raw = this.raw;
    const reads = raw[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
    const iterator: AsyncIterableIterator<Uint8Array> = {
      [Symbol.asyncIterator]: () => iterator,
      next: () => reads.next(),
      return: () => {
        raw.destroy();
        return Promise.resolve({ done: true, value: undefined });
      },
    };
    return iterator;
  }
}
