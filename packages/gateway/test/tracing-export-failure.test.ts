import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { type Gateway, startGateway } from '../src/server/start.js';

// A collector that refuses batches while the gateway runs: the spans are dropped, and the operator
// is told once (a warn line with the count), not never and not per batch.
let chat: MockUpstream;
let gateway: Gateway;
let receiver: ReturnType<typeof createServer>;
let exports = 0;
const lines: Array<{ level: number; msg: string; err?: string; droppedSpans?: number }> = [];

beforeAll(async () => {
  chat = await startMockUpstream({ protocol: 'openai-chat' });
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      exports++;
      // 400 is not retried by the exporter: each batch is one refused export.
      response.writeHead(400, { 'content-type': 'application/json' }).end('{"code":3,"message":"bad batch"}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.startsWith('{')) lines.push(JSON.parse(line));
      done();
    },
  });
  const config = parseConfig(
    JSON.stringify({
      upstreams: { chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl } },
      routes: [{ match: '*', upstream: 'chat' }],
      ledger: false,
      metrics: false,
      tracing: { endpoint: `http://127.0.0.1:${port}/v1/traces` },
    }),
  );
  gateway = await startGateway(config, { port: 0, logger: createLogger('warn', sink) });
});

afterAll(async () => {
  await gateway.close().catch(() => {});
  await chat.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('a collector refusing batches while the gateway runs', () => {
  it('drops them with one warn line naming the spans dropped', async () => {
    // 512 spans (two a request) fill a batch, which is exported at once; 1,024 make two.
    for (let round = 0; round < 16; round++)
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          const res = await fetch(`${gateway.url}/v1/chat/completions`, {
            method: 'POST',
            body: JSON.stringify({ model: 'm-1', messages: [{ role: 'user', content: 'hi' }] }),
          });
          expect(res.status).toBe(200);
          await res.text();
        }),
      );
    await expect.poll(() => exports, { timeout: 10_000 }).toBe(2);
    const dropped = () => lines.filter((line) => line.msg === 'tracing: spans dropped, the collector did not take them');
    await expect.poll(dropped, { timeout: 5_000 }).toHaveLength(1);
    // The second batch's failure falls inside the minute: counted for the next line, not logged.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(dropped()).toHaveLength(1);
    const [line] = dropped();
    expect(line).toMatchObject({ level: 40, err: 'Bad Request', status: 400, droppedSpans: 512 });
  }, 30_000);
});
