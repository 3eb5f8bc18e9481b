import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresLedger } from '../../src/store/postgres/ledger.js';
import { parseConfig } from '../../src/config/load.js';
import { toUsageLine, toUsageSeries } from '../../src/ledger/report.js';
import { createLogger } from '../../src/logger.js';
import { startGateway } from '../../src/server/start.js';
import { MIGRATIONS, migrate } from '../../src/store/postgres/migrations.js';
import { postgresUsageRows } from '../../src/store/postgres/usage.js';
import { DAY_TWO, FIXTURE_DAYS_BY_MODEL, FIXTURE_LINES, line, recordFixture } from '../helpers/usage-fixture.js';
import { freshDatabase, query } from './databases.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the PostgreSQL ledger: cost columns', () => {
  it('migration 2 adds cost_usd and unpriced to a database of migration 1, its rows kept with nulls', async () => {
    const url = await freshDatabase();
    const pool = new pg.Pool({ connectionString: url });
    expect(await migrate(pool, MIGRATIONS.slice(0, 1))).toEqual([1]);
    await pool.query(
      "INSERT INTO llm_gateway_requests (row_id, time, request_id, client_protocol, status, stream, total_ms) VALUES (gen_random_uuid(), 1, 'old', 'claude', 200, 0, 1)",
    );
    expect(await migrate(pool, MIGRATIONS.slice(0, 2))).toEqual([2]);
    const ledger = new PostgresLedger(pool, { flushMs: 60_000 });
    const record = { clientProtocol: 'claude' as const, status: 200, stream: false, usage: { inputTokens: 1, outputTokens: 1 }, totalMs: 1, warnings: [] };
    ledger.record({ time: 2, record: { ...record, requestId: 'priced' }, cost: { usd: 0.25 } });
    ledger.record({ time: 3, record: { ...record, requestId: 'unpriced' }, cost: { unpriced: true } });
    await ledger.close();
    expect(await query(url, 'SELECT request_id, cost_usd, unpriced FROM llm_gateway_requests ORDER BY time')).toEqual([
      { request_id: 'old', cost_usd: null, unpriced: null },
      { request_id: 'priced', cost_usd: 0.25, unpriced: null },
      { request_id: 'unpriced', cost_usd: null, unpriced: 1 },
    ]);
  });

  it('reads back a spool written by the release before costs (rows two values shorter)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-cost-'));
    dirs.push(dir);
    const spool = join(dir, 'spool.jsonl');
    // row_id, then the 19 columns of that release.
    const legacy = [crypto.randomUUID(), 7, 'spooled', null, 'claude', null, null, null, null, 200, 0, null, null, null, null, null, null, 2, null, null];
    writeFileSync(spool, `${JSON.stringify(legacy)}\n`);
    const url = await freshDatabase();
    const pool = new pg.Pool({ connectionString: url });
    await migrate(pool);
    const ledger = new PostgresLedger(pool, { spoolPath: spool });
    expect(ledger.queued).toBe(1);
    await ledger.close();
    expect(() => readFileSync(spool)).toThrow();
    expect(await query(url, 'SELECT request_id, total_ms, cost_usd, unpriced FROM llm_gateway_requests')).toEqual([
      { request_id: 'spooled', total_ms: 2, cost_usd: null, unpriced: null },
    ]);
  });
});

describe('the usage report from PostgreSQL', () => {
  it('gives the lines SQLite gives for the same rows: cost, unpriced requests, by key, model, upstream, day, and split', async () => {
    const url = await freshDatabase();
    const pool = new pg.Pool({ connectionString: url });
    await migrate(pool);
    const ledger = new PostgresLedger(pool, { flushMs: 60_000 });
    recordFixture(ledger);
    await ledger.close();
    for (const by of ['day', 'key', 'model', 'upstream'] as const) {
      expect((await postgresUsageRows(url, { by, since: 0 })).map(toUsageLine)).toEqual(FIXTURE_LINES[by]);
    }
    expect((await postgresUsageRows(url, { by: 'day', since: DAY_TWO })).map(toUsageLine)).toEqual([FIXTURE_LINES.day[1]]);
    expect(toUsageSeries(await postgresUsageRows(url, { by: 'day', split: 'model', since: 0 }))).toEqual(FIXTURE_DAYS_BY_MODEL);
  });

  it('reports a database of migration 1 (no cost columns yet) at no cost, and an empty database as no lines', async () => {
    const url = await freshDatabase();
    expect(await postgresUsageRows(url, { by: 'model', since: 0 })).toEqual([]);
    const pool = new pg.Pool({ connectionString: url });
    await migrate(pool, MIGRATIONS.slice(0, 1));
    await pool.query(
      "INSERT INTO llm_gateway_requests (row_id, time, request_id, client_protocol, status, stream, total_ms) VALUES (gen_random_uuid(), 1, 'old', 'claude', 200, 0, 10)",
    );
    await pool.end();
    expect((await postgresUsageRows(url, { by: 'model', since: 0 })).map(toUsageLine)).toEqual([line('-', 1, 0, 0, 0, 0, 0)]);
  });
});

it('GET /admin/usage reads the PostgreSQL ledger of the config', async () => {
  const url = await freshDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'pg-cost-'));
  dirs.push(dir);
  const config = parseConfig(
    JSON.stringify({
      adminKey: 'admin-key-0123456789',
      metrics: false,
      store: { postgres: url, spool: join(dir, 'spool.jsonl') },
      upstreams: { openai: { protocol: 'openai-chat', baseUrl: 'http://127.0.0.1:9', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'openai' }],
    }),
    {},
    'config',
    { baseDir: dir },
  );
  const gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
  try {
    const ledger = new PostgresLedger(new pg.Pool({ connectionString: url }), { flushMs: 60_000 });
    recordFixture(ledger);
    await ledger.close();
    const reply = await fetch(`${gateway.url}/admin/usage?by=day&split=model`, { headers: { authorization: 'Bearer admin-key-0123456789' } });
    expect({ status: reply.status, body: await reply.json() }).toEqual({
      status: 200,
      body: { by: 'day', since: '1970-01-01T00:00:00.000Z', lines: FIXTURE_LINES.day, split: 'model', series: FIXTURE_DAYS_BY_MODEL },
    });
  } finally {
    await gateway.close();
  }
});
