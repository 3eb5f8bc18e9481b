import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { openLedger, WRITER_CACHE_KIB } from '../src/ledger/ledger.js';
import { formatUsage, parseSince, usageReport } from '../src/ledger/report.js';
import type { RequestRecord } from '../src/router-contract.js';

const record = (over: Partial<RequestRecord>): RequestRecord => ({
  requestId: 'r', clientProtocol: 'claude', upstream: 'openai', upstreamProtocol: 'openai-chat', clientModel: 'claude-x', upstreamModel: 'gpt-4.1',
  status: 200, stream: true, usage: { inputTokens: 100, cacheReadTokens: 40, cacheWriteTokens: 5, reasoningTokens: 7, outputTokens: 20 },
  firstByteMs: 3, totalMs: 10, warnings: [], ...over,
});

describe('usage ledger', () => {
  it('batches rows off the request path and reports them by model, upstream and key', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'usage.db');
    const ledger = openLedger(path, { flushMs: 10_000 });
    ledger.record({ time: 1_000, keyId: 'key-1', record: record({}) });
    ledger.record({ time: 2_000, keyId: 'key-2', record: record({ totalMs: 30, upstream: 'google', clientModel: 'gemini-x' }) });
    ledger.record({ time: 3_000, record: record({ status: 429, usage: undefined, errorKind: 'rate_limit', totalMs: 2 }) });
    expect(usageReport(path, 'model')).toEqual([]);
    ledger.flush();
    expect(usageReport(path, 'model')).toEqual([
      { group: 'claude-x', requests: 2, errors: 1, inputTokens: 100, cachedTokens: 40, cacheWriteTokens: 5, reasoningTokens: 7, outputTokens: 20, avgMs: 6 },
      { group: 'gemini-x', requests: 1, errors: 0, inputTokens: 100, cachedTokens: 40, cacheWriteTokens: 5, reasoningTokens: 7, outputTokens: 20, avgMs: 30 },
    ]);
    expect(usageReport(path, 'key', 2_000).map((l) => [l.group, l.requests])).toEqual([['-', 1], ['key-2', 1]]);
    expect(usageReport(path, 'upstream').map((l) => [l.group, l.requests])).toEqual([['openai', 2], ['google', 1]]);
    expect(formatUsage(usageReport(path, 'upstream', 2_500), 'upstream')).toBe(
      'upstream  requests  errors  input  cached  cache_write  reasoning  output  avg_ms\nopenai           1       1      0       0            0          0       0       2',
    );
    ledger.close();
  });

  it('writes a full batch right after the current I/O callbacks, without waiting for the timer', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'usage.db');
    const ledger = openLedger(path, { flushMs: 60_000, batchRows: 3 });
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
    const ledger = openLedger(path, { flushMs: 60_000, batchRows: 1_000 });
    // 64 rows per statement: 150 rows are two full statements and 22 single inserts.
    for (let i = 0; i < 150; i++) {
      ledger.record({ time: i, keyId: i % 2 ? `key-${i}` : undefined, record: record({ requestId: `r${i}`, status: i === 149 ? 502 : 200, usage: i === 70 ? undefined : { inputTokens: i, outputTokens: 2 * i }, errorKind: i === 149 ? 'upstream' : undefined }) });
    }
    ledger.close();
    const db = new Database(path, { readonly: true });
    const rows = db.prepare('SELECT time, request_id, key_id, status, input_tokens, cached_tokens, output_tokens, error_kind FROM requests ORDER BY id').all() as Record<string, unknown>[];
    db.close();
    expect(rows).toHaveLength(150);
    rows.forEach((row, i) => {
      expect(row).toEqual({
        time: i, request_id: `r${i}`, key_id: i % 2 ? `key-${i}` : null, status: i === 149 ? 502 : 200,
        input_tokens: i === 70 ? null : i, cached_tokens: null, output_tokens: i === 70 ? null : 2 * i, error_kind: i === 149 ? 'upstream' : null,
      });
    });
  });

  it('drops the oldest rows beyond maxQueued while the database is not written', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'usage.db');
    const ledger = openLedger(path, { flushMs: 60_000, batchRows: 1_000, maxQueued: 5 });
    for (let i = 0; i < 8; i++) ledger.record({ time: i, record: record({ requestId: `r${i}` }) });
    ledger.close();
    const db = new Database(path, { readonly: true });
    const ids = db.prepare('SELECT request_id FROM requests ORDER BY id').pluck().all();
    db.close();
    expect(ids).toEqual(['r3', 'r4', 'r5', 'r6', 'r7']);
  });

  it("bounds the writer's page cache below better-sqlite3's 16 MB default, in WAL mode", () => {
    const pragma = vi.spyOn(Database.prototype, 'pragma');
    try {
      const ledger = openLedger(join(mkdtempSync(join(tmpdir(), 'ledger-')), 'usage.db'));
      const connection = pragma.mock.contexts[0] as Database.Database;
      pragma.mockRestore();
      // Read back from SQLite itself: negative sizes are KiB.
      expect(connection.pragma('cache_size', { simple: true })).toBe(-WRITER_CACHE_KIB);
      expect(WRITER_CACHE_KIB).toBeLessThanOrEqual(1024);
      expect(connection.pragma('journal_mode', { simple: true })).toBe('wal');
      const plain = new Database(':memory:');
      expect(plain.pragma('cache_size', { simple: true })).toBe(-16000);
      plain.close();
      ledger.close();
    } finally {
      pragma.mockRestore();
    }
  });

  it('never throws when the database cannot open, and reports the failure once', () => {
    const onError = vi.fn();
    const ledger = openLedger('/nonexistent-dir/x/usage.db', { onError });
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
