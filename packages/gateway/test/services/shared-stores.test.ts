import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type CliIo, runCli } from '../../src/cli/run.js';
import { parseConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../../src/mock/server.js';
import { type Gateway, startGateway } from '../../src/server/start.js';
import { MIGRATIONS, migrate } from '../../src/store/postgres/migrations.js';
import { PostgresLedger } from '../../src/store/postgres/ledger.js';
import { freshDatabase, query } from './databases.js';

// Two gateways on one PostgreSQL and one Redis serve as one: a Responses conversation continues
// on either, a stored answer is fetched from either, and the usage report counts each request once.
let claude: MockUpstream;
let databaseUrl: string;
let a: Gateway;
let b: Gateway;
let configFile: string;

beforeAll(async () => {
  claude = await startMockUpstream({ protocol: 'claude' });
  databaseUrl = await freshDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'shared-stores-'));
  configFile = join(dir, 'gateway.yaml');
  writeFileSync(
    configFile,
    `keys: [{ name: one, key: key-one }, { name: two, key: key-two }]
upstreams: { claude: { protocol: claude, baseUrl: "${claude.baseUrl}", apiKey: k } }
routes: [{ match: "*", upstream: claude }]
maxRetries: 0
store: { postgres: "\${DATABASE_URL}", redis: "\${REDIS_URL}" }
`,
  );
  const env = { DATABASE_URL: databaseUrl, REDIS_URL: inject('redisUrl') };
  const config = () => parseConfig(readFileSync(configFile, 'utf8'), env, configFile, { baseDir: dir });
  // Both start at once, as replicas do: the migration runs once under its lock.
  [a, b] = await Promise.all([
    startGateway(config(), { port: 0, logger: createLogger('silent') }),
    startGateway(config(), { port: 0, logger: createLogger('silent') }),
  ]);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await claude?.close();
});

const client = (gateway: Gateway, key: string) => new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });

async function retrieve(gateway: Gateway, key: string, id: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${gateway.url}/v1/responses/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: await res.json() };
}

describe('two gateways sharing PostgreSQL and Redis', () => {
  it('migrated the schema once, to the latest version, and a second migration changes nothing', async () => {
    const versions = await query<{ version: number }>(databaseUrl, 'SELECT version FROM llm_gateway_schema_version ORDER BY version');
    expect(versions).toEqual(MIGRATIONS.map((_, index) => ({ version: index + 1 })));
    const pool = new pg.Pool({ connectionString: databaseUrl });
    try {
      expect(await migrate(pool)).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  it('continues a conversation on the other gateway, serves the stored answer from either, and keeps keys apart', async () => {
    const first = await client(a, 'key-one').responses.create({ model: 'gpt-5', input: 'my secret is 42' });
    const streamed = await client(a, 'key-one').responses.stream({ model: 'gpt-5', input: 'streamed secret' }).finalResponse();
    // The answers are written off the request path: the other gateway sees them a moment later.
    await expect.poll(async () => (await retrieve(b, 'key-one', streamed.id)).status).toBe(200);
    const fromB = await retrieve(b, 'key-one', first.id);
    expect(fromB).toEqual(await retrieve(a, 'key-one', first.id));
    expect(fromB.body).toMatchObject({ id: first.id, object: 'response', output: [{ content: [{ text: 'Mock claude says: my secret is 42' }] }] });

    const continued = await client(b, 'key-one').responses.create({ model: 'gpt-5', input: 'and now?', previous_response_id: first.id });
    expect(continued.output_text).toBe('Mock claude says: and now?');
    // The turn was found in Redis (a missing one is a 404): the conversation went on, on b.
    expect(continued.id).not.toBe(first.id);

    // Another key: neither the answer nor the conversation exists, on either gateway.
    const notFound = (id: string) => ({ error: { message: `response ${id} not found`, type: 'not_found_error', param: 'response_id', code: null } });
    for (const gateway of [a, b]) expect(await retrieve(gateway, 'key-two', first.id)).toEqual({ status: 404, body: notFound(first.id) });
    const crossed = await fetch(`${b.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: 'Bearer key-two', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-5', input: 'tell me', previous_response_id: first.id }),
    });
    expect(crossed.status).toBe(404);
    expect(JSON.stringify(await crossed.json())).not.toContain('secret');
  });

  it("writes one ledger row per request from both gateways, and `usage --json` reports them from the config's database", async () => {
    await client(a, 'key-two').responses.create({ model: 'gpt-5', input: 'counted on a' });
    await client(b, 'key-two').responses.create({ model: 'gpt-5', input: 'counted on b' });
    const bad = await fetch(`${a.url}/v1/responses`, { method: 'POST', headers: { authorization: 'Bearer wrong' }, body: '{}' });
    expect(bad.status).toBe(401);
    await Promise.all([a, b].map((gateway) => gateway.close()));
    const rows = await query<{ key_id: string | null; status: number; client_model: string | null; upstream: string | null }>(
      databaseUrl,
      'SELECT key_id, status, client_model, upstream FROM llm_gateway_requests ORDER BY id',
    );
    // Key two: two answers, two GETs of key one's answer (404 from the gateway), one refused
    // previous_response_id (404 on the route to claude); rows of two gateways, in no fixed order.
    const two = rows.filter((row) => row.key_id === 'two').map((row) => `${row.status} ${row.upstream}`);
    expect(two.sort()).toEqual(['200 claude', '200 claude', '404 claude', '404 null', '404 null']);
    expect(rows.filter((row) => row.status === 401)).toEqual([{ key_id: null, status: 401, client_model: null, upstream: null }]);
    const total = rows.length;
    const out: string[] = [];
    const io: CliIo = {
      out: (line) => out.push(line),
      err: (line) => out.push(`err: ${line}`),
      env: { DATABASE_URL: databaseUrl, REDIS_URL: inject('redisUrl') },
      readStdin: async () => '',
    };
    const status = await runCli(['usage', '--config', configFile, '--by', 'key', '--json'], io);
    expect({ status, out }).toEqual({ status: 0, out: [expect.any(String)] });
    const report = JSON.parse(out[0]!) as { group: string; requests: number; errors: number }[];
    expect(report.reduce((sum, line) => sum + line.requests, 0)).toBe(total);
    expect(report.find((line) => line.group === 'two')).toMatchObject({ requests: 5, errors: 3 });
    expect(report.find((line) => line.group === '-')).toMatchObject({ requests: 1, errors: 1 });
  });
});

describe('the PostgreSQL ledger', () => {
  it('writes exact rows in batches, and a row written twice (a retried batch) counts once', async () => {
    const url = await freshDatabase();
    const pool = new pg.Pool({ connectionString: url });
    await migrate(pool);
    const ledger = new PostgresLedger(pool, { flushMs: 60_000 });
    ledger.record({
      time: 1_000,
      keyId: 'k',
      record: {
        requestId: 'r1',
        clientProtocol: 'claude',
        upstream: 'openai',
        upstreamProtocol: 'openai-chat',
        clientModel: 'claude-x',
        upstreamModel: 'gpt-4.1',
        status: 200,
        stream: true,
        usage: { inputTokens: 100, cacheReadTokens: 40, cacheWriteTokens: 5, reasoningTokens: 7, outputTokens: 20 },
        firstByteMs: 3.5,
        totalMs: 10.25,
        warnings: [],
        usageEstimated: true,
      },
      cost: { usd: 0.00057 },
    });
    ledger.record({
      time: 2_000,
      record: { requestId: 'r2', clientProtocol: 'gemini', status: 401, stream: false, totalMs: 1, errorKind: 'authentication', warnings: [] },
    });
    expect(ledger.queued).toBe(2);
    await ledger.flush();
    expect(ledger.queued).toBe(0);
    const rows = await query<Record<string, unknown>>(url, 'SELECT * FROM llm_gateway_requests ORDER BY time');
    expect(rows.map(({ id: _id, row_id: _rowId, ...row }) => row)).toEqual([
      {
        time: '1000',
        request_id: 'r1',
        key_id: 'k',
        client_protocol: 'claude',
        upstream: 'openai',
        upstream_protocol: 'openai-chat',
        client_model: 'claude-x',
        upstream_model: 'gpt-4.1',
        status: 200,
        stream: 1,
        input_tokens: '100',
        cached_tokens: '40',
        cache_write_tokens: '5',
        reasoning_tokens: '7',
        output_tokens: '20',
        first_byte_ms: 3.5,
        total_ms: 10.25,
        error_kind: null,
        usage_estimated: 1,
        cost_usd: 0.00057,
        unpriced: null,
      },
      {
        time: '2000',
        request_id: 'r2',
        key_id: null,
        client_protocol: 'gemini',
        upstream: null,
        upstream_protocol: null,
        client_model: null,
        upstream_model: null,
        status: 401,
        stream: 0,
        input_tokens: null,
        cached_tokens: null,
        cache_write_tokens: null,
        reasoning_tokens: null,
        output_tokens: null,
        first_byte_ms: null,
        total_ms: 1,
        error_kind: 'authentication',
        usage_estimated: null,
        cost_usd: null,
        unpriced: null,
      },
    ]);
    // The same rows again, as after a commit whose answer was lost: skipped by their row ids.
    const { rows: again } = await pool.query('SELECT row_id FROM llm_gateway_requests');
    await pool.query(
      `INSERT INTO llm_gateway_requests (row_id, time, request_id, client_protocol, status, stream, total_ms) VALUES ($1, 3, 'dup', 'claude', 200, 0, 1) ON CONFLICT (row_id) DO NOTHING`,
      [again[0].row_id],
    );
    expect((await query<{ n: string }>(url, 'SELECT COUNT(*) AS n FROM llm_gateway_requests'))[0]?.n).toBe('2');
    await ledger.close();
  });
});
