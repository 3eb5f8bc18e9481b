import type { LookupFunction } from 'node:net';
import { LlmError, readableFrom } from '@llm/core';
import { isInternalHost } from '@llm/router';
import type { Dispatcher } from 'undici';
import { InternalAddressRefused, refusingInternalAddresses, systemLookup } from './internal-address-lookup.js';
import { Agent, EnvHttpProxyAgent, proxyClient, request as dispatch } from './undici-parts.js';
import { upstreamProxyFromEnv } from './upstream-proxy.js';
import { type HeaderMap, HeaderMapReader } from './header-map-reader.js';
import { ReadableChunks } from './readable-chunks.js';
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
  /**
   * How host names are resolved for every connection (default: Node's `dns.lookup`). For tests:
   * mapping a made-up name to a local server's address exercises the media-download check below.
   */
  lookup?: LookupFunction;
  /**
   * Where the proxy variables are read, once, when the transport is made (default `process.env`):
   * `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY` and their lower-case forms (see
   * {@link upstreamProxyFromEnv}). Without them no proxy agent is built.
   */
  env?: Readonly<Record<string, string | undefined>>;
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
 *
 * Media downloads (`UpstreamRequest.purpose: 'media'`) whose host no allow entry names exactly
 * (`internalAllowed`) go through a pool of their own whose connections refuse internal
 * addresses (the router's `isInternalHost`) as the name resolves: the address checked is the
 * one connected to. A refused download rejects, which the router answers as its 400 naming the
 * part. Upstream API calls are not checked: loopback and private upstreams are normal.
 *
 * With a proxy variable set, both pools send every host `NO_PROXY` does not name through the
 * proxy (a CONNECT tunnel, for http upstreams too). The proxy resolves those names, so a proxied
 * media download is checked by its host literal only (an internal address or name such as
 * `localhost` is refused before anything is sent); a name resolving to an internal address is for
 * the proxy's own egress rules to refuse. Bypassing the proxy instead would keep the address
 * check but break downloads where the proxy is the only way out. `NO_PROXY` hosts are connected
 * to directly, media ones with the address check as above.
 */
export function createUndiciTransport(options: UndiciTransportOptions = {}): PooledTransport {
  const lookup = options.lookup ?? systemLookup;
  const proxy = upstreamProxyFromEnv(options.env ?? process.env);
  const pool = (checkedLookup: LookupFunction) => {
    const agentOptions = {
      connections: options.connections ?? null,
      keepAliveTimeout: options.keepAliveTimeout ?? 60_000,
      keepAliveMaxTimeout: 600_000,
      bodyTimeout: options.bodyIdleTimeoutMs ?? 0,
      headersTimeout: 0,
      connect: { lookup: checkedLookup },
    };
    // Settings passed explicitly: undici would otherwise read process.env itself, NO_PROXY on every call.
    return proxy ? new EnvHttpProxyAgent({ ...agentOptions, ...proxy, clientFactory: proxyClient }) : new Agent(agentOptions);
  };
  const agent = pool(lookup);
  const mediaAgent = pool(refusingInternalAddresses(lookup));
  const targets = new TargetCache();
  const transport: Transport = async (request) => {
    const target = targets.get(request.url);
    const checked = request.purpose === 'media' && request.internalAllowed !== true;
    // An address literal is never looked up: checked here instead.
    if (checked && isInternalHost(target.hostname)) throw new InternalAddressRefused(target.hostname, target.hostname);
    const result = await dispatch.call(checked ? mediaAgent : agent, {
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
  return { transport, close: async () => void (await Promise.all([agent.close(), mediaAgent.close()])) };
}

/** Where a URL sends a request: undici takes the origin and the path apart. */
interface DispatchTarget {
  origin: string;
  path: string;
  hostname: string;
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
      target = { origin: parsed.origin, path: parsed.pathname + parsed.search, hostname: parsed.hostname };
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
    return this.raw.text().catch(stalledAsTimeout);
  }

  json(): Promise<unknown> {
    return this.raw.json().catch(stalledAsTimeout);
  }

  /**
   * undici's body, read as it is: each read takes all that is buffered (the events of one socket
   * read arrive as one chunk), without node's async generator over it (see ReadableChunks).
   * `return()` destroys the body at once, which aborts the upstream call and closes its socket,
   * even while a read waits: the Readable's own iterator would queue that `return()` behind the
   * pending read, forever for an upstream gone silent (the router's idle timeout cancels exactly then).
   */
  chunks(): AsyncIterable<Uint8Array> {
    return new ReadableChunks(this.raw);
  }
}

/**
 * A whole-body read that the body idle backstop ended (`bodyIdleTimeoutMs`) is a `timeout` (504),
 * not an unreadable answer: the upstream went silent mid-body. Other failures pass unchanged.
 */
function stalledAsTimeout(error: unknown): never {
  if ((error as { code?: unknown } | null)?.code === 'UND_ERR_BODY_TIMEOUT') {
    throw new LlmError({ kind: 'timeout', message: 'the upstream answer stopped arriving before it was complete', cause: error });
  }
  throw error;
}
