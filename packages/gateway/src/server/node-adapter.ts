import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CancelSource, chunksOf } from '@llm/core';
import type { RouterReply } from '@llm/router';
import { safeHeaderValues } from './header-values.js';
import { IncomingCall } from './incoming-call.js';
import { internalErrorMessage } from './internal-error.js';
import { requestUrlOf } from './request-target.js';
import { TurnWrites } from './turn-writes.js';

/**
 * What {@link serveNode} serves: an {@link IncomingCall} in, a plain {@link RouterReply} (the
 * router's own answer, written without a WHATWG `Response`) or a `Response` out.
 */
export type NodeHandler = (request: IncomingCall) => Promise<RouterReply | Response>;

/** Options of {@link serveNode}. */
export interface ServeNodeOptions {
  port?: number;
  host?: string;
  /** Largest request body accepted, in bytes (default 32 MiB). */
  maxBodyBytes?: number;
  /** Builds the answer to a body over the limit (default: a plain 413). */
  tooLarge?(url: URL): RouterReply | Response;
  /**
   * Builds the answer when the handler throws or its answer cannot be written (default: a JSON
   * 500 in OpenAI's shape). It names no detail of the failure: that goes to {@link onError}.
   */
  internalError?(url: URL, requestId: string | undefined): RouterReply;
  /** Told every failure the server answered 500 for, or cut a stream on (default: ignored). */
  onError?(error: unknown, requestId: string | undefined): void;
  /**
   * Told, once the head is written, the status the client actually got for a handler's answer:
   * the answer's own, the 500 that replaced a head node refused, or 0 when no head could be
   * written (the socket was cut). Not called for answers the handler never gave (it threw).
   */
  onWritten?(answer: RouterReply | Response, status: number): void;
  /**
   * Told once a handler's answer is over (its last byte written, the stream stopped, or the
   * socket cut), after {@link onWritten}, with the `performance.now()` its first byte went out at
   * (undefined: none did). Not called for answers the handler never gave.
   */
  onEnded?(answer: RouterReply | Response, firstByteAt: number | undefined): void;
}

/** When the first byte of an answer went out (`performance.now()`), filled in as it is written. */
interface WriteTiming {
  firstByteAt?: number;
}

/** A running server. */
export interface NodeServer {
  server: Server;
  /** `http://host:port` */
  url: string;
  port: number;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close(): Promise<void>;
  /** Requests being served: read, answered or written. */
  inFlight(): number;
  /**
   * Cancels every request in flight with `reason`, as a client that went away would, but with
   * the connection kept: a handler that turns an `LlmError` reason into an answer (the router
   * ends a stream with its protocol's error event) still writes it. Returns how many it cut.
   */
  cutInFlight(reason: unknown): number;
}

/**
 * Serves a handler over node:http: request bodies buffered up to a limit (413 beyond), a client
 * disconnect aborts `request.signal`, text answers written in one go, streamed answers written
 * with backpressure (waits for `drain`), what one event-loop turn produces in one socket write.
 */
export async function serveNode(handler: NodeHandler, options: ServeNodeOptions = {}): Promise<NodeServer> {
  const maxBodyBytes = options.maxBodyBytes ?? 32 * 1024 * 1024;
  /** Each request in flight's cancel (aborted when its client goes away, or by `cutInFlight`). */
  const active = new Set<CancelSource>();
  const server = createServer((req, res) => {
    const cancel = new CancelSource();
    active.add(cancel);
    res.once('close', () => {
      active.delete(cancel);
    });
    // Nothing a request does may end the process: whatever escapes `handle` ends this one
    // answer (a bare 500, or the socket cut mid-answer) and is reported.
    handle(handler, req, res, maxBodyBytes, options, cancel).catch((error: unknown) => void lastResort(error, res, options));
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    port: address.port,
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        // Drain: once no response is in flight, cut the remaining (keep-alive) connections.
        const sweep = setInterval(() => {
          if (active.size === 0) server.closeAllConnections();
          else server.closeIdleConnections();
        }, 25);
        server.close(() => {
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      }),
    inFlight: () => active.size,
    cutInFlight(reason) {
      for (const cancel of active) cancel.abort(reason);
      return active.size;
    },
  };
}

async function handle(
  handler: NodeHandler,
  req: IncomingMessage,
  res: ServerResponse,
  maxBodyBytes: number,
  options: ServeNodeOptions,
  disconnect: CancelSource,
): Promise<void> {
  const url = requestUrlOf(req.url);
  res.on('close', () => {
    if (!res.writableFinished) disconnect.abort(new Error('client disconnected'));
  });
  let answer: RouterReply | Response;
  let written: ((status: number) => void) | undefined;
  let handled: RouterReply | Response | undefined;
  try {
    // The body reaches the handler inside the call only, never in a local (nor a promise kept in
    // one): V8 keeps a suspended async function's locals alive until the answer is written, long
    // after the call has let the bytes go.
    answer = await bodyOf(req, maxBodyBytes).then((body) =>
      body === null ? tooLargeReply(url, options.tooLarge) : handler(new IncomingCall(req.method ?? 'GET', url, req.headers, body, disconnect)),
    );
    const onWritten = options.onWritten;
    const given = answer;
    handled = given;
    if (onWritten) written = (status) => onWritten(given, status);
  } catch (error) {
    if (disconnect.aborted) return;
    options.onError?.(error, undefined);
    answer = internalErrorReply(url, undefined, options);
  }
  const reply = isWebResponse(answer) ? replyOf(answer) : answer;
  const timing: WriteTiming = {};
  try {
    await writeReply(reply, res, req.method === 'HEAD', options, url, written, timing);
  } catch (error) {
    // Failures after the head are handled inside: this one came first (an unreadable body).
    // (Not `written?.(lastResort(...))`: an optional call skips its arguments when there is no callee.)
    const status = lastResort(error, res, options);
    if (status !== 0) timing.firstByteAt ??= performance.now();
    written?.(status);
  }
  if (handled && options.onEnded) options.onEnded(handled, timing.firstByteAt);
}

/** The 500 of a failed request, as the server's option builds it; a fixed one if that fails too. */
function internalErrorReply(url: URL, requestId: string | undefined, options: ServeNodeOptions): RouterReply {
  try {
    if (options.internalError) return options.internalError(url, requestId);
  } catch (error) {
    options.onError?.(error, requestId);
  }
  return bareInternalError(requestId);
}

/** A 500 built from constants only: writing it cannot fail on its headers. */
function bareInternalError(requestId: string | undefined): RouterReply {
  const body = { error: { message: internalErrorMessage(requestId), type: 'server_error', param: null, code: null } };
  return { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/**
 * Ends an answer whatever went wrong, and never throws: a bare 500 if nothing was sent yet, else
 * the socket is cut. Returns the status it wrote (0: none).
 */
function lastResort(error: unknown, res: ServerResponse, options: ServeNodeOptions): number {
  try {
    options.onError?.(error, undefined);
  } catch {
    // A failing logger must not take the server down either.
  }
  try {
    if (res.headersSent) {
      res.destroy();
      return 0;
    }
    const reply = bareInternalError(undefined);
    res.writeHead(reply.status, { ...reply.headers, 'content-length': String(Buffer.byteLength(reply.body as string)) });
    res.end(reply.body);
    return reply.status;
  } catch {
    res.destroy();
    return 0;
  }
}

/**
 * Told by shape (a reply's headers are a plain object): naming the global `Response` would load
 * Node's bundled fetch implementation, megabytes the gateway otherwise never needs.
 */
function isWebResponse(answer: RouterReply | Response): answer is Response {
  return typeof (answer.headers as Headers).get === 'function';
}

/** A WHATWG response as a reply (its cookies kept as separate header lines). */
function replyOf(response: Response): OutgoingReply {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return { status: response.status, headers, body: response.body };
}

/** The request body: none for GET and HEAD, null when over the limit. */
function bodyOf(req: IncomingMessage, limit: number): Promise<Buffer | null | undefined> {
  return req.method === 'GET' || req.method === 'HEAD' ? Promise.resolve(undefined) : readBody(req, limit);
}

/** The answer to a body over the limit: the server's own, else a plain 413. */
function tooLargeReply(url: URL, tooLarge: ((url: URL) => RouterReply | Response) | undefined): RouterReply | Response {
  return tooLarge ? tooLarge(url) : { status: 413, headers: {}, body: 'request body too large' };
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      resolve(null);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      if (!over) chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => {
      // A small body arrives as one chunk: used as it is, not copied.
      const body = over ? null : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
      // The request object lives until the answer is sent: its listeners must not keep the body
      // alive meanwhile, neither through the chunks nor through this promise (which `reject`
      // holds, and which holds the body once resolved).
      chunks.length = 0;
      req.off('data', onData);
      req.off('error', reject);
      req.on('error', ignoreLateError);
      resolve(body);
    });
    req.on('error', reject);
  });
}

/** An error on a request whose body was read whole: the reply's own handling covers the socket. */
function ignoreLateError(): void {}

/** A reply as written: header values may repeat (`set-cookie`). */
interface OutgoingReply {
  status: number;
  headers: Record<string, string | string[]>;
  body: RouterReply['body'];
}

/**
 * Writes the head of an answer; false (the failure reported, nothing sent) when node refuses it:
 * a status out of range, a header name that is not a token. Header values were made safe first.
 */
function writeHead(res: ServerResponse, reply: OutgoingReply, options: ServeNodeOptions): boolean {
  try {
    res.writeHead(reply.status, safeHeaderValues(reply.headers));
    return true;
  } catch (error) {
    options.onError?.(error, requestIdOf(reply));
    return false;
  }
}

function requestIdOf(reply: OutgoingReply): string | undefined {
  const id = reply.headers['x-request-id'];
  return typeof id === 'string' ? id : undefined;
}

/** `written`: told the status the client got, once the head is written (see `ServeNodeOptions.onWritten`). */
async function writeReply(
  reply: OutgoingReply,
  res: ServerResponse,
  head: boolean,
  options: ServeNodeOptions,
  url?: URL,
  written?: (status: number) => void,
  timing: WriteTiming = {},
): Promise<void> {
  const { headers, body } = reply;
  if (body === null || typeof body === 'string') {
    const status = writeWhole(reply, body, res, head, options) ? reply.status : writeUnwritable(reply, res, head, options, url);
    if (status !== 0) timing.firstByteAt = performance.now();
    written?.(status);
    return;
  }
  const chunks = chunksOf(body)[Symbol.asyncIterator]();
  // Stopping the answer (client gone, HEAD) cancels what produces it, down to the upstream call.
  const stop = () => void Promise.resolve(chunks.return?.()).catch(() => undefined);
  if (!writeHead(res, reply, options)) {
    stop();
    const status = writeUnwritable(reply, res, head, options, url);
    if (status !== 0) timing.firstByteAt = performance.now();
    written?.(status);
    return;
  }
  written?.(reply.status);
  if (head) {
    stop();
    res.end();
    timing.firstByteAt = performance.now();
    return;
  }
  // The head, the chunks and the end that come in one turn leave in one socket write.
  const turn = new TurnWrites(res);
  if (String(headers['content-type']).startsWith('text/event-stream')) {
    turn.hold();
    res.flushHeaders();
  }
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await chunks.next();
      if (done || res.destroyed) break;
      turn.hold();
      const flushed = res.write(value);
      timing.firstByteAt ??= performance.now();
      if (!flushed && !turn.canHoldMore()) {
        turn.release();
        // Taken whole by the kernel as it was released: nothing to wait for.
        if (res.writableLength > 0) await drained(res);
      }
    }
    res.end();
  } catch (error) {
    options.onError?.(error, requestIdOf(reply));
    // What was written before the failure still goes out before the cut.
    turn.release();
    res.destroy();
  } finally {
    res.off('close', stop);
  }
}

/**
 * A whole body: one write with its length (no chunked framing). Written as text, node sends the
 * head and the body in one write call, without a Buffer copy of the body. False when node
 * refused the head (nothing was sent).
 */
function writeWhole(reply: OutgoingReply, body: string | null, res: ServerResponse, head: boolean, options: ServeNodeOptions): boolean {
  // 1xx, 204 and 304 answers carry no body and no length (RFC 9110 §8.6).
  if (reply.status >= 200 && reply.status !== 204 && reply.status !== 304) reply.headers['content-length'] = String(body ? Buffer.byteLength(body) : 0);
  if (!writeHead(res, reply, options)) return false;
  res.end(head || !body ? undefined : body);
  return true;
}

/**
 * In place of an answer node refused to write: the server's own 500, else the bare one (whose
 * head is constants), else the socket is cut. Never throws; returns the status written (0: none).
 */
function writeUnwritable(refused: OutgoingReply, res: ServerResponse, head: boolean, options: ServeNodeOptions, url: URL | undefined): number {
  const requestId = requestIdOf(refused);
  const fallbacks = url && options.internalError ? [internalErrorReply(url, requestId, options), bareInternalError(requestId)] : [bareInternalError(requestId)];
  for (const fallback of fallbacks) {
    if (fallback.body !== null && typeof fallback.body !== 'string') continue;
    const reply: OutgoingReply = { status: fallback.status, headers: { ...fallback.headers }, body: fallback.body };
    if (requestId !== undefined) reply.headers['x-request-id'] = requestId;
    if (writeWhole(reply, fallback.body, res, head, options)) return reply.status;
  }
  res.destroy();
  return 0;
}

/** Resolves when `res` can take more, or has closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const finish = () => {
      res.off('drain', finish);
      res.off('close', finish);
      resolve();
    };
    res.on('drain', finish);
    res.on('close', finish);
  });
}
