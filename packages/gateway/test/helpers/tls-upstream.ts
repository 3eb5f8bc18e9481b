import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** An https server on loopback that answers every request with one JSON body. */
export interface TlsUpstream {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Each request as `METHOD host path`, with its authorization header and whether it came over TLS. */
  hits: Array<{ request: string; authorization: string | undefined; tls: boolean }>;
  close(): Promise<void>;
}

/** Starts a TLS upstream with `key` / `cert` on a free loopback port, answering `answer` as JSON. */
export async function startTlsUpstream(credentials: { key: string; cert: string }, answer: unknown): Promise<TlsUpstream> {
  const hits: TlsUpstream['hits'] = [];
  const server = createServer(credentials, (request, response) => {
    hits.push({
      request: `${request.method} ${request.headers.host} ${request.url}`,
      authorization: request.headers.authorization,
      tls: (request.socket as TLSSocket).encrypted === true,
    });
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `https://127.0.0.1:${port}`,
    port,
    hits,
    close: () => {
      server.closeAllConnections();
      return new Promise((closed) => server.close(() => closed()));
    },
  };
}
