import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { configureWriter, openLedger, WRITER_CACHE_KIB } from '../src/ledger/ledger.js';
import { formatUsage, parseSince, usageReport as report } from '../src/ledger/report.js';
import { NoSqliteError, SQLITE_BUSY_TIMEOUT_MS, type SqliteDriver, availableSqliteDrivers, openDatabase } from '../src/ledger/sqlite.js';
import type { RequestRecord } from '../src/router-contract.js';

const record = (over: Partial<RequestRecord>): RequestRecord => ({
  requestId: 'r',
  clientProtocol: 'claude',
  upstream: 'openai',
  upstreamProtocol: 'openai-chat',
  clientModel: 'claude-x',
  upstreamModel: 'gpt-4.1',
  status: 200,
  stream: true,
  usage: { inputTokens: 100, cacheReadTokens: 40, cacheWriteTokens: 5, reasoningTokens: 7, outputTokens: 20 },
  firstByteMs: 3,
  totalMs: 10,
  warnings: [],
  ...over,
});

// Node 20 has better-sqlite3 only, Node 22.13+ node:sqlite only (CI runs both): each driver is
// tested on the runtime that uses it.
const DRIVERS = availableSqliteDrivers();

it('has one SQLite driver: node:sqlite from Node 22.13, better-sqlite3 otherwise (never beside node:sqlite, where version 12 can abort the process)', () => {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  expect(DRIVERS).toEqual(major > 22 || (major === 22 && minor >= 13) ? ['node:sqlite'] : ['better-sqlite3']);
});

it('refuses to open a ledger without a driver, with the fix in the message', () => {
  const missing = (['node:sqlite', 'better-sqlite3'] as SqliteDriver[]).filter((driver) => !DRIVERS.includes(driver));
  for (const driver of missing) expect(() => openLedger(':memory:', { driver })).toThrow(new NoSqliteError());
  expect(new NoSqliteError().message).toBe(
    'the usage ledger needs SQLite: run on Node 22.13 or newer (node:sqlite), or install the better-sqlite3 package next to the gateway; or set ledger: false',
  );
});

describe.each(DRIVERS)('usage ledger on %s', (driver) => {
  const usageReport = (path: string, by: Parameters<typeof report>[1], since?: number) => report(path, by, since, driver);
  const readOnly = (path: string) => openDatabase(path, { readonly: true, driver });

  it("gives every connection a busy timeout, so processes sharing the file wait for each other's lock (node:sqlite has none by default)", () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ledger-busy-')), 'usage.db');
    const writer = openDatabase(path, { driver });
    const reader = openDatabase(path, { driver });
    try {
      for (const database of [writer, reader]) expect(database.prepare('PRAGMA busy_timeout').all()).toEqual([{ timeout: SQLITE_BUSY_TIMEOUT_MS }]);
    } finally {
      writer.close();
      reader.close();
    }
  });
  it('batches rows off the request path and reports them by model, upstream and key', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'usage.db');
    const ledger = openLedger(path, { flushMs: 10_000, driver });
    ledger.record({ time: 1_000, keyId: 'key-1', record: record({}), cost: { usd: 0.00123 } });
    ledger.record({ time: 2_000, keyId: 'key-2', record: record({ totalMs: 30, upstream: 'google', clientModel: 'gemini-x' }), cost: { unpriced: true } });
    ledger.record({ time: 3_000, record: record({ status: 429, usage: undefined, errorKind: 'rate_limit', totalMs: 2 }) });
    expect(usageReport(path, 'model')).toEqual([]);
    ledger.flush();
    expect(usageReport(path, 'model')).toEqual([
      {
        group: 'claude-x',
        requests: 2,
        errors: 1,
        inputTokens: 100,
        cachedTokens: 40,
        cacheWriteTokens: 5,
        reasoningTokens: 7,
        outputTokens: 20,
        avgMs: 6,
        costUsd: 0.00123,
        unpricedRequests: 0,
      },
      {
        group: 'gemini-x',
        requests: 1,
        errors: 0,
        inputTokens: 100,
        cachedTokens: 40,
        cacheWriteTokens: 5,
        reasoningTokens: 7,
        outputTokens: 20,
        avgMs: 30,
        costUsd: 0,
        unpricedRequests: 1,
      },
    ]);
    expect(usageReport(path, 'key', 2_000).map((l) => [l.group, l.requests])).toEqual([
      ['-', 1],
      ['key-2', 1],
    ]);
    expect(usageReport(path, 'upstream').map((l) => [l.group, l.requests])).toEqual([
      ['openai', 2],
      ['google', 1],
    ]);
    expect(formatUsage(usageReport(path, 'upstream', 2_500), 'upstream')).toBe(
      'upstream  requests  errors  input  cached  cache_write  reasoning  output  avg_ms  cost_usd  unpriced\nopenai           1       1      0       0            0          0       0       2  0.000000         0',
    );
    expect(formatUsage(usageReport(path, 'upstream'), 'upstream').split('\n')).toEqual([
      'upstream  requests  errors  input  cached  cache_write  reasoning  output  avg_ms  cost_usd  unpriced',
      'openai           2       1    100      40            5          7      20       6  0.001230         0',
      'google           1       0    100      40            5          7      20      30  0.000000         1',
    ]);
    ledger.close();
  });

  it('writes a full batch right after the current I/O callbacks, without waiting for the timer', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'usage.db');
    const ledger = openLedger(path, { flushMs: 60_000, batchRows: 3, driver });
    ledger.record({ time: 1_000, record: record({ requestId: 'a' }) });
    ledger.record({ time: 1_001, record: record({ requestId: 'b' }) });
    await new Promise((resolve) => setImmediate(resolve));
    expect(usageReport(path, 'model')).toEqual([]);
    ledger.record({ time: 1_002, record: record({ requestId: 'c' }) });
    expect(usageReport(path, 'model')).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(usageReport(path, 'model').map((line) => [line.group, line.requests])).toEqual([['claude-x', 3]]);
    ledger.close();
  });

  it('writes every queued row, in order and whole, across multi-row statements and the remainder', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'usage.db');
    const ledger = openLedger(path, { flushMs: 60_000, batchRows: 1_000, driver });
    // 64 rows per statement: 150 rows are two full statements and 22 single inserts.
    for (let i = 0; i < 150; i++) {
      ledger.record({
        time: i,
        keyId: i % 2 ? `key-${i}` : undefined,
        record: record({
          requestId: `r${i}`,
          status: i === 149 ? 502 : 200,
          usage: i === 70 ? undefined : { inputTokens: i, outputTokens: 2 * i },
          errorKind: i === 149 ? 'upstream' : undefined,
        }),
      });
    }
    ledger.close();
    const db = readOnly(path);
    const rows = db
      .prepare('SELECT time, request_id, key_id, status, input_tokens, cached_tokens, output_tokens, error_kind FROM requests ORDER BY id')
      .all()
      .map((row) => ({ ...(row as object) }));
    db.close();
    expect(rows).toHaveLength(150);
    rows.forEach((row, i) => {
      expect(row).toEqual({
        time: i,
        request_id: `r${i}`,
        key_id: i % 2 ? `key-${i}` : null,
        status: i === 149 ? 502 : 200,
        input_tokens: i === 70 ? null : i,
        cached_tokens: null,
        output_tokens: i === 70 ? null : 2 * i,
        error_kind: i === 149 ? 'upstream' : null,
      });
    });
  });

  it('drops the oldest rows beyond maxQueued while the database is not written', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'usage.db');
    const ledger = openLedger(path, { flushMs: 60_000, batchRows: 1_000, maxQueued: 5, driver });
    for (let i = 0; i < 8; i++) ledger.record({ time: i, record: record({ requestId: `r${i}` }) });
    ledger.close();
    const db = readOnly(path);
    const ids = db
      .prepare('SELECT request_id FROM requests ORDER BY id')
      .all()
      .map((row) => (row as { request_id: string }).request_id);
    db.close();
    expect(ids).toEqual(['r3', 'r4', 'r5', 'r6', 'r7']);
  });

  it("bounds the writer's page cache below the driver's default, in WAL mode", () => {
    const pragma = (db: ReturnType<typeof readOnly>, name: string) => Object.values(db.prepare(`PRAGMA ${name}`).all()[0] as object)[0];
    const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'usage.db');
    const writer = openDatabase(path, { driver });
    const before = pragma(writer, 'cache_size');
    // SQLite's own default is 2000 KiB; better-sqlite3 builds it with 16000.
    expect(before).toBe(driver === 'better-sqlite3' ? -16000 : -2000);
    configureWriter(writer);
    // Read back from SQLite itself: negative sizes are KiB.
    expect(pragma(writer, 'cache_size')).toBe(-WRITER_CACHE_KIB);
    expect(WRITER_CACHE_KIB).toBeLessThanOrEqual(1024);
    expect(pragma(writer, 'journal_mode')).toBe('wal');
    writer.close();
    // WAL is the file's: the ledger leaves its file in it.
    const ledger = openLedger(join(dirname(path), 'ledger.db'), { driver });
    ledger.close();
    const reader = readOnly(join(dirname(path), 'ledger.db'));
    expect(pragma(reader, 'journal_mode')).toBe('wal');
    reader.close();
  });

  it('never throws when the database cannot open, and reports the failure once', () => {
    const onError = vi.fn();
    const ledger = openLedger('/nonexistent-dir/x/usage.db', { onError, driver });
    ledger.record({ time: 1, record: record({}) });
    ledger.flush();
    ledger.record({ time: 2, record: record({}) });
    ledger.close();
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('parses --since durations and dates', () => {
    expect(parseSince('2h', 10_000_000)).toBe(10_000_000 - 7_200_000);
    expect(parseSince('30m', 3_600_000)).toBe(1_800_000);
    expect(parseSince('2026-11-01T00:00:00Z')).toBe(Date.UTC(2026, 10, 1));
    expect(() => parseSince('soon')).toThrow('--since: expected a duration like 24h or a date, got "soon"');
  });
});
