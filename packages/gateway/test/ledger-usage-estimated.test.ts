import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/ledger/sqlite.js';
import { writeFirstSchemaLedger } from './helpers/first-ledger-schema.js';
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
    writeFirstSchemaLedger(path);
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
