import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

const record = { clientProtocol: 'openai-responses' as const, status: 200, stream: false, totalMs: 1, warnings: [] };

describe('the PostgreSQL ledger: MCP calls', () => {
  it('migration 4 adds mcp_calls to a database of migration 3; a row carries its calls as JSON, a row without calls null', async () => {
    const url = await freshDatabase();
    const pool = new pg.Pool({ connectionString: url });
    expect(await migrate(pool, MIGRATIONS.slice(0, 3))).toEqual([1, 2, 3]);
    expect(await migrate(pool)).toEqual([4]);
    const ledger = new PostgresLedger(pool, { flushMs: 60_000 });
    const calls = [
      { server: 'calc', tool: 'add', ms: 12, isError: false },
      { server: 'calc', tool: 'fail', ms: 3, isError: true },
    ];
    ledger.record({ time: 1, record: { ...record, requestId: 'with-calls', mcpCalls: calls } });
    ledger.record({ time: 2, record: { ...record, requestId: 'without' } });
    await ledger.close();
    const rows = await query<{ request_id: string; mcp_calls: string | null }>(url, 'SELECT request_id, mcp_calls FROM llm_gateway_requests ORDER BY time');
    expect(rows).toEqual([
      { request_id: 'with-calls', mcp_calls: JSON.stringify(calls) },
      { request_id: 'without', mcp_calls: null },
    ]);
  });

  it('reads back a spool written by the release before mcp_calls (rows one value shorter)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-mcp-'));
    dirs.push(dir);
    const spool = join(dir, 'spool.jsonl');
    // row_id, then the 21 columns of that release (cost_usd and unpriced last).
    const previous = [
      crypto.randomUUID(),
      7,
      'spooled',
      null,
      'claude',
      null,
      null,
      null,
      null,
      200,
      0,
      null,
      null,
      null,
      null,
      null,
      null,
      2,
      null,
      null,
      0.5,
      null,
    ];
    writeFileSync(spool, `${JSON.stringify(previous)}\n`);
    const url = await freshDatabase();
    const pool = new pg.Pool({ connectionString: url });
    await migrate(pool);
    const ledger = new PostgresLedger(pool, { spoolPath: spool });
    expect(ledger.queued).toBe(1);
    await ledger.close();
    expect(await query(url, 'SELECT request_id, cost_usd, mcp_calls FROM llm_gateway_requests')).toEqual([
      { request_id: 'spooled', cost_usd: 0.5, mcp_calls: null },
    ]);
  });
});
