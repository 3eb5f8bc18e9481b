import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresLedger } from '../../src/store/postgres/ledger.js';
import { MIGRATIONS, migrate } from '../../src/store/postgres/migrations.js';
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
    expect(await migrate(pool)).toEqual([2]);
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
