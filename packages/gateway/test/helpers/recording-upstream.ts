// The deterministic mock upstream of one protocol (src/mock), recording the JSON body of every
// request it receives, so a test asserts exactly what the gateway sent upstream.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServedProtocol } from '../../src/served-protocols.js';
import { createMockHandler, mockBaseUrl } from '../../src/mock/handler.js';

export interface RecordingUpstream {
  /** Base URL to put in an upstream config. */
  readonly baseUrl: string;
  /** Request bodies in arrival order. */
  readonly received: unknown[];
  close(): Promise<void>;
}

/** Starts the mock of `protocol` on a free loopback port, recording each request body. */
export async function startRecordingUpstream(protocol: ServedProtocol, options: { withoutStreamUsage?: boolean } = {}): Promise<RecordingUpstream> {
  const mock = createMockHandler(protocol);
  const received: unknown[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(text) as Record<string, unknown>;
      received.push(structuredClone(body));
      // An upstream that ignores `stream_options.include_usage` (some OpenAI-compatible servers).
      if (options.withoutStreamUsage) delete body.stream_options;
      void mock(
        new Request(`http://127.0.0.1${request.url}`, { method: request.method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      ).then(async (answer) => {
        response.writeHead(answer.status, Object.fromEntries(answer.headers));
        response.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: mockBaseUrl(protocol, origin),
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
