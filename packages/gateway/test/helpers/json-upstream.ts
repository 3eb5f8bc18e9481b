// A loopback HTTP upstream for scripted mocks: it reads each request's JSON body, records it with
// its headers, and writes what `answer` makes of it (an answer that throws is a 500 with the error).
import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type JsonBody = Record<string, unknown>;

/** One answer: status, content type, body text. */
export interface UpstreamAnswer {
  status: number;
  type: string;
  text: string;
}

export interface JsonUpstream {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Each request's headers and JSON body, in order. */
  readonly received: { headers: IncomingHttpHeaders; body: JsonBody }[];
  close(): Promise<void>;
}

/** Starts the upstream on a free loopback port. */
export async function startJsonUpstream(answer: (headers: IncomingHttpHeaders, body: JsonBody) => Promise<UpstreamAnswer>): Promise<JsonUpstream> {
  const received: JsonUpstream['received'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonBody;
      received.push({ headers: request.headers, body });
      answer(request.headers, body)
        .catch((error: unknown): UpstreamAnswer => ({ status: 500, type: 'text/plain', text: String(error) }))
        .then(({ status, type, text }) => response.writeHead(status, { 'content-type': type }).end(text));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
