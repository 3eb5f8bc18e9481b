import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Web-standard handler, as the router's `createHandler` returns. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Options of {@link serveNode}. */
export interface ServeNodeOptions {
  port?: number;
  host?: string;
  /** Largest request body accepted, in bytes (default 32 MiB). */
  maxBodyBytes?: number;
  /** Builds the answer to a body over the limit (default: a plain 413). */
  tooLarge?(url: URL): Response;
}

/** A running server. */
export interface NodeServer {
  server: Server;
  /** `http://host:port` */
  url: string;
  port: number;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close(): Promise<void>;
}

/**
 * Serves a `(Request) => Promise<Response>` handler over node:http: request bodies buffered up
 * to a limit (413 beyond), a client disconnect aborts `request.signal`, response bodies
 * streamed with backpressure (waits for `drain`).
 */
export async function serveNode(handler: FetchHandler, options: ServeNodeOptions = {}): Promise<NodeServer> {
  const maxBodyBytes = options.maxBodyBytes ?? 32 * 1024 * 1024;
  let active = 0;
  const server = createServer((req, res) => {
    active += 1;
    res.once('close', () => {
      active -= 1;
    });
    void handle(handler, req, res, maxBodyBytes, options.tooLarge);
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
          if (active === 0) server.closeAllConnections();
          else server.closeIdleConnections();
        }, 25);
        server.close(() => {
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

async function handle(handler: FetchHandler, req: IncomingMessage, res: ServerResponse, maxBodyBytes: number, tooLarge?: (url: URL) => Response): Promise<void> {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort(new Error('client disconnected'));
  });
  let response: Response;
  try {
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req, maxBodyBytes);
    if (body === null) {
      response = tooLarge ? tooLarge(url) : new Response('request body too large', { status: 413 });
    } else {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined) continue;
        if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        else headers.set(name, value);
      }
      const init: RequestInit = { method: req.method ?? 'GET', headers, signal: abort.signal };
      if (body && body.length > 0) init.body = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
      response = await handler(new Request(url, init));
    }
  } catch (error) {
    if (abort.signal.aborted) return;
    response = new Response(JSON.stringify({ error: { message: error instanceof Error ? error.message : 'internal error' } }), {
      status: 500,
      headers: { 'content-type': 'application/json' },
    });
  }
  await writeResponse(response, res, abort.signal, req.method === 'HEAD');
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
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      if (!over) chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

async function writeResponse(response: Response, res: ServerResponse, signal: AbortSignal, head: boolean): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body || head) {
    res.end();
    return;
  }
  if (headers['content-type']?.toString().startsWith('text/event-stream')) res.flushHeaders();
  const reader = response.body.getReader();
  const onAbort = () => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const finish = () => {
            res.off('drain', finish);
            res.off('close', finish);
            resolve();
          };
          res.on('drain', finish);
          res.on('close', finish);
        });
      }
      if (signal.aborted) break;
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
