import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { freePort, waitForPort } from '../../../../scripts/services.mjs';
import { type CliIo, runCli } from '../../src/cli/run.js';
import { parseConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../../src/mock/server.js';
import { type NodeServer, serveNode } from '../../src/server/node-adapter.js';
import { type Gateway, startGateway } from '../../src/server/start.js';
import { slowClaudeStream } from '../helpers/slow-claude.js';
import { freshDatabase, query } from './databases.js';

// Three gateways on one PostgreSQL and one Redis behind a real HAProxy (round robin): whichever
// instance answers, a conversation goes on, a stored answer is found, and usage counts each
// request once, a stream drained by a shutting-down instance included.
let claude: MockUpstream;
let slow: NodeServer;
let databaseUrl: string;
let dir: string;
let gateways: Gateway[];
let haproxy: ChildProcess;
let balancer: string;

beforeAll(async () => {
  claude = await startMockUpstream({ protocol: 'claude' });
  slow = await serveNode(async () => slowClaudeStream({ deltas: 15, everyMs: 40, usage: { input_tokens: 3, output_tokens: 1 } }));
  databaseUrl = await freshDatabase();
  dir = mkdtempSync(join(tmpdir(), 'balancer-'));
  const config = parseConfig(
    JSON.stringify({
      keys: [{ name: 'one', key: 'key-one' }],
      upstreams: { claude: { protocol: 'claude', baseUrl: claude.baseUrl, apiKey: 'k' }, slow: { protocol: 'claude', baseUrl: slow.url, apiKey: 'k' } },
      routes: [
        { match: 'claude-slow', upstream: 'slow' },
        { match: '*', upstream: 'claude' },
      ],
      maxRetries: 0,
      store: { postgres: databaseUrl, redis: inject('redisUrl') },
    }),
    {},
    'config',
    { baseDir: dir },
  );
  gateways = await Promise.all([0, 1, 2].map(() => startGateway(config, { port: 0, logger: createLogger('silent') })));
  const port = await freePort();
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(
    file,
    `global
  maxconn 256
defaults
  mode http
  timeout connect 5s
  timeout client 30s
  timeout server 30s
  option http-server-close
frontend gateway
  bind 127.0.0.1:${port}
  default_backend gateways
backend gateways
  balance roundrobin
  http-response set-header x-served-by %s
${gateways.map((gateway, index) => `  server g${index} 127.0.0.1:${gateway.port}`).join('\n')}
`,
  );
  haproxy = spawn('haproxy', ['-f', file, '-db'], { stdio: 'ignore' });
  await waitForPort(port, 10_000, 'haproxy');
  balancer = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  if (haproxy?.pid) process.kill(haproxy.pid, 'SIGTERM');
  await Promise.all((gateways ?? []).map((gateway) => gateway.close()));
  await claude?.close();
  await slow?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; servedBy: string | null; body: Record<string, unknown> }> {
  const res = await fetch(`${balancer}${path}`, {
    method,
    headers: { authorization: 'Bearer key-one', 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, servedBy: res.headers.get('x-served-by'), body: (await res.json()) as Record<string, unknown> };
}

it('continues a conversation and serves stored answers whichever instance answers, and counts every request once', async () => {
  let requests = 0;
  const turns: { id: string; servedBy: string | null }[] = [];
  let previous: string | undefined;
  for (const input of ['one', 'two', 'three']) {
    const turn = await call('POST', '/v1/responses', { model: 'gpt-5', input, ...(previous && { previous_response_id: previous }) });
    requests += 1;
    expect(turn.status).toBe(200);
    previous = turn.body.id as string;
    turns.push({ id: previous, servedBy: turn.servedBy });
  }
  // Round robin: each turn on another instance, each continuing the one before.
  expect(new Set(turns.map((turn) => turn.servedBy))).toEqual(new Set(['g0', 'g1', 'g2']));

  const reads = [];
  for (let index = 0; index < 3; index += 1) {
    reads.push(await call('GET', `/v1/responses/${turns[0]!.id}`));
    requests += 1;
  }
  expect(reads.map((read) => read.status)).toEqual([200, 200, 200]);
  expect(new Set(reads.map((read) => read.servedBy))).toEqual(new Set(['g0', 'g1', 'g2']));
  expect(reads.every((read) => read.body.id === turns[0]!.id)).toBe(true);

  // A stream in flight on an instance that is shutting down (what SIGTERM does): it is drained
  // to its end, and its ledger row is written before the instance is gone.
  const stream = await fetch(`${balancer}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': 'key-one', 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'claude-slow', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'count' }] }),
  });
  requests += 1;
  const instance = gateways[Number(stream.headers.get('x-served-by')!.slice(1))]!;
  const closing = instance.close();
  const text = await stream.text();
  await closing;
  expect(text).toContain('event: message_stop');
  expect(text).toContain('"text":"15 "');

  await Promise.all(gateways.filter((gateway) => gateway !== instance).map((gateway) => gateway.close()));
  const rows = await query<{ n: string; streamed: string }>(
    databaseUrl,
    "SELECT COUNT(*) AS n, COUNT(*) FILTER (WHERE client_model = 'claude-slow' AND status = 200 AND output_tokens = 15) AS streamed FROM llm_gateway_requests",
  );
  // The GETs of stored answers are the gateway's own: no ledger row (as on one instance).
  expect(rows).toEqual([{ n: String(requests - 3), streamed: '1' }]);

  const out: string[] = [];
  const io: CliIo = { out: (line) => out.push(line), err: (line) => out.push(line), env: {}, readStdin: async () => '' };
  const configFile = join(dir, 'gateway.yaml');
  writeFileSync(
    configFile,
    `upstreams: { claude: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: claude }]\nstore: { postgres: "${databaseUrl}" }\n`,
  );
  expect(await runCli(['usage', '--config', configFile, '--by', 'upstream', '--json'], io)).toBe(0);
  expect((JSON.parse(out[0]!) as { group: string; requests: number }[]).map((line) => [line.group, line.requests])).toEqual([
    ['claude', 3],
    ['slow', 1],
  ]);
});
