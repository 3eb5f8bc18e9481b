import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import OpenAI from 'openai';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startPostgres, startRedis, stopPid } from '../../../../scripts/services.mjs';
import { parseConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../../src/mock/server.js';
import { type Gateway, startGateway } from '../../src/server/start.js';
import { PostgresLedger } from '../../src/store/postgres/ledger.js';
import { migrate } from '../../src/store/postgres/migrations.js';
import { freshDatabase, query } from './databases.js';

let claude: MockUpstream;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-failures-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  claude = await startMockUpstream({ protocol: 'claude' });
});
afterAll(async () => {
  await claude?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// Each gateway's spool and files in a folder of its own (the default is beside the config: here,
// the cwd; without Redis the keys' limits count in a file beside the ledger's path).
const configOf = (store: Record<string, string>, spool = join(tempDir(), 'spool.jsonl')) =>
  parseConfig(
    JSON.stringify({
      keys: [{ name: 'one', key: 'key-one' }],
      upstreams: { claude: { protocol: 'claude', baseUrl: claude.baseUrl, apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'claude' }],
      maxRetries: 0,
      store: { ...store, spool },
    }),
    {},
    'config',
    { baseDir: dirname(spool) },
  );
const client = (gateway: Gateway) => new OpenAI({ apiKey: 'key-one', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
const ready = async (gateway: Gateway) => {
  const res = await fetch(`${gateway.url}/health/ready`);
  return { status: res.status, body: await res.json() };
};

describe('a shared store down at start', () => {
  it('stops the start with an error naming the server, never its password', async () => {
    const port = await freePort();
    const start = startGateway(configOf({ postgres: `postgres://gw:secret@127.0.0.1:${port}/gw` }), { port: 0, logger: createLogger('silent') });
    await expect(start).rejects.toThrow(`store.postgres: cannot reach postgres://127.0.0.1:${port}/gw: connect ECONNREFUSED 127.0.0.1:${port}`);
    await expect(start).rejects.not.toThrow('secret');
  });

  it('stops the start when Redis cannot be reached', async () => {
    const port = await freePort();
    await expect(startGateway(configOf({ redis: `redis://:secret@127.0.0.1:${port}` }), { port: 0, logger: createLogger('silent') })).rejects.toThrow(
      `store.redis: cannot reach redis://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });
});

describe('PostgreSQL down while serving', () => {
  it('keeps serving, keeps the ledger rows, answers stored-response reads 503, and writes every row once it is back', async () => {
    const postgres = await startPostgres(tempDir());
    const gateway = await startGateway(configOf({ postgres: postgres.url }), { port: 0, logger: createLogger('silent') });
    try {
      const first = await client(gateway).responses.create({ model: 'gpt-5', input: 'before' });
      expect(await ready(gateway)).toEqual({ status: 200, body: { status: 'ready' } });
      postgres.stop();

      for (const input of ['during 1', 'during 2', 'during 3'])
        expect((await client(gateway).responses.create({ model: 'gpt-5', input })).output_text).toBe(`Mock claude says: ${input}`);
      await expect.poll(() => ready(gateway)).toEqual({ status: 503, body: { status: 'unavailable', failing: ['postgres'] } });
      const started = performance.now();
      const read = await fetch(`${gateway.url}/v1/responses/${first.id}`, { headers: { authorization: 'Bearer key-one' } });
      expect({ status: read.status, body: await read.json() }).toEqual({
        status: 503,
        body: { error: { message: 'the stored response is unavailable right now; retry shortly', type: 'server_error', param: null, code: null } },
      });
      expect(performance.now() - started).toBeLessThan(5_000);

      postgres.start();
      await expect.poll(() => ready(gateway), { timeout: 15_000, interval: 200 }).toEqual({ status: 200, body: { status: 'ready' } });
      const rows = await query(postgres.url, 'SELECT status, client_model, upstream, COUNT(*) AS n FROM llm_gateway_requests GROUP BY 1, 2, 3');
      // One row per routed request: the create before and the three during the outage (a stored
      // answer's read is the gateway's own, with no ledger row, as ever).
      expect(rows).toEqual([{ status: 200, client_model: 'gpt-5', upstream: 'claude', n: '4' }]);
    } finally {
      await gateway.close();
      postgres.stop();
    }
  });

  it('spools rows still unwritten at shutdown to the file, and writes them at the next start', async () => {
    const spool = join(tempDir(), 'spool.jsonl');
    const down = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/x`, connectionTimeoutMillis: 500 });
    const ledger = new PostgresLedger(down, { spoolPath: spool, closeTimeoutMs: 300 });
    const row = (requestId: string) => ({
      time: 5,
      record: { requestId, clientProtocol: 'claude' as const, status: 200, stream: false, totalMs: 2, warnings: [] },
    });
    ledger.record(row('a'));
    ledger.record(row('b'));
    await ledger.close();
    expect(
      readFileSync(spool, 'utf8')
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as unknown[])[2]),
    ).toEqual(['a', 'b']);

    const url = await freshDatabase();
    const pool = new pg.Pool({ connectionString: url });
    await migrate(pool);
    const next = new PostgresLedger(pool, { spoolPath: spool });
    expect(existsSync(spool)).toBe(false);
    expect(next.queued).toBe(2);
    await next.close();
    expect(await query<{ request_id: string }>(url, 'SELECT request_id FROM llm_gateway_requests ORDER BY request_id')).toEqual([
      { request_id: 'a' },
      { request_id: 'b' },
    ]);
  });
});

describe('Redis down while serving', () => {
  it('answers a previous_response_id 503 in the client protocol at once, serves other requests, and continues new turns once it is back', async () => {
    const dir = tempDir();
    const redis = await startRedis(dir);
    const gateway = await startGateway(configOf({ postgres: await freshDatabase(), redis: redis.url }), { port: 0, logger: createLogger('silent') });
    try {
      const first = await client(gateway).responses.create({ model: 'gpt-5', input: 'remember 7' });
      stopPid(redis.pid);
      // The keys' limiter shares the Redis: its detail says limits are not enforced meanwhile.
      await expect
        .poll(() => ready(gateway))
        .toEqual({ status: 503, body: { status: 'unavailable', failing: ['redis'], limits: { store: 'redis', state: 'down', admitting: 'without limits' } } });

      const started = performance.now();
      const continued = await fetch(`${gateway.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: 'Bearer key-one', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-5', input: 'and?', previous_response_id: first.id }),
      });
      expect({ status: continued.status, body: await continued.json() }).toEqual({
        status: 503,
        body: {
          error: {
            message: 'the conversation state (previous_response_id) is unavailable right now; retry shortly',
            type: 'server_error',
            param: 'previous_response_id',
            code: null,
          },
        },
      });
      expect(performance.now() - started).toBeLessThan(2_000);
      // A request that needs no state is served.
      const plain = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': 'key-one', 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(plain.status).toBe(200);

      const again = await startRedis(dir, redis.port);
      try {
        await expect.poll(() => ready(gateway), { timeout: 10_000, interval: 100 }).toEqual({ status: 200, body: { status: 'ready' } });
        const fresh = await client(gateway).responses.create({ model: 'gpt-5', input: 'new' });
        expect((await client(gateway).responses.create({ model: 'gpt-5', input: 'next', previous_response_id: fresh.id })).output_text).toBe(
          'Mock claude says: next',
        );
      } finally {
        stopPid(again.pid);
      }
    } finally {
      await gateway.close();
      stopPid(redis.pid);
    }
  });
});
