import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/ledger/sqlite.js';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../src/ledger/ledger.js';
import type { RequestRecord } from '../src/router-contract.js';

const record = (over: Partial<RequestRecord>): RequestRecord => ({
  requestId: 'r',
  clientProtocol: 'claude',
  status: 200,
  stream: true,
  usage: { inputTokens: 30, outputTokens: 4 },
  totalMs: 5,
  warnings: [],
  ...over,
});

describe('ledger: estimated usage', () => {
  it('marks the rows whose usage the router estimated (1), others null', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'usage.db');
    const ledger = openLedger(path);
    ledger.record({ time: 1, record: record({ requestId: 'estimated', usageEstimated: true }) });
    ledger.record({ time: 2, record: record({ requestId: 'reported' }) });
    ledger.close();
    const db = openDatabase(path, { readonly: true });
    expect(db.prepare('SELECT request_id, input_tokens, output_tokens, usage_estimated FROM requests ORDER BY id').all()).toEqual([
      { request_id: 'estimated', input_tokens: 30, output_tokens: 4, usage_estimated: 1 },
      { request_id: 'reported', input_tokens: 30, output_tokens: 4, usage_estimated: null },
    ]);
    db.close();
  });

  it('adds the column to a ledger file made before it existed, keeping its rows', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'usage.db');
    const old = openDatabase(path);
    old.exec(`CREATE TABLE requests (id INTEGER PRIMARY KEY, time INTEGER NOT NULL, request_id TEXT NOT NULL, key_id TEXT, client_protocol TEXT NOT NULL,
      upstream TEXT, upstream_protocol TEXT, client_model TEXT, upstream_model TEXT, status INTEGER NOT NULL, stream INTEGER NOT NULL,
      input_tokens INTEGER, cached_tokens INTEGER, cache_write_tokens INTEGER, reasoning_tokens INTEGER, output_tokens INTEGER,
      first_byte_ms REAL, total_ms REAL NOT NULL, error_kind TEXT)`);
    old.prepare("INSERT INTO requests (time, request_id, client_protocol, status, stream, total_ms) VALUES (0, 'before', 'claude', 200, 0, 1)").run();
    old.close();
    const ledger = openLedger(path);
    ledger.record({ time: 1, record: record({ requestId: 'after', usageEstimated: true }) });
    ledger.close();
    const db = openDatabase(path, { readonly: true });
    expect(db.prepare('SELECT request_id, usage_estimated FROM requests ORDER BY id').all()).toEqual([
      { request_id: 'before', usage_estimated: null },
      { request_id: 'after', usage_estimated: 1 },
    ]);
    db.close();
  });
});
