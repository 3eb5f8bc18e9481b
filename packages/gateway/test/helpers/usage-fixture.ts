// A known ledger for the usage report's tests: five requests over two UTC days, the same rows
// written to SQLite and PostgreSQL, so both answer the same lines.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LlmUsage } from '@llm/core';
import { type Ledger, openLedger } from '../../src/ledger/ledger.js';
import type { UsageLine } from '../../src/ledger/report.js';
import type { RequestCost } from '../../src/pricing/index.js';

export const DAY_ONE = Date.UTC(2026, 10, 23, 10);
export const DAY_TWO = Date.UTC(2026, 10, 24, 9);

const ROWS: { time: number; keyId?: string; model: string; upstream?: string; status?: number; usage?: LlmUsage; cost?: RequestCost }[] = [
  { time: DAY_ONE, keyId: 'ci', model: 'gpt-4o', upstream: 'openai', usage: { inputTokens: 1000, outputTokens: 100 }, cost: { usd: 0.0035 } },
  { time: DAY_ONE + 1, keyId: 'ci', model: 'claude-x', upstream: 'anthropic', usage: { inputTokens: 10, outputTokens: 10 }, cost: { unpriced: true } },
  { time: DAY_TWO, keyId: 'ci', model: 'gpt-4o', upstream: 'openai', usage: { inputTokens: 200, outputTokens: 100 }, cost: { usd: 0.0015 } },
  { time: DAY_TWO + 1, model: 'gpt-4o', status: 429 },
  { time: DAY_TWO + 2, keyId: 'ops', model: 'claude-x', upstream: 'anthropic', usage: { inputTokens: 50_000, outputTokens: 6000 }, cost: { usd: 0.25 } },
];

/** Records the fixture's rows. */
export function recordFixture(ledger: Ledger): void {
  ROWS.forEach((row, i) =>
    ledger.record({
      time: row.time,
      keyId: row.keyId,
      cost: row.cost,
      record: {
        requestId: `r${i}`,
        clientProtocol: 'openai-chat',
        clientModel: row.model,
        upstream: row.upstream,
        status: row.status ?? 200,
        stream: false,
        usage: row.usage,
        totalMs: 10,
        warnings: [],
      },
    }),
  );
}

/** A SQLite ledger file of the fixture's rows, in a new folder: its path. */
export function writeFixtureLedger(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'usage-fixture-')), 'usage.db');
  const ledger = openLedger(path);
  recordFixture(ledger);
  ledger.close();
  return path;
}

/** A report line of the fixture (no cache or reasoning tokens; every request took 10 ms). */
export function line(
  group: string,
  requests: number,
  errors: number,
  inputTokens: number,
  outputTokens: number,
  costUsd: number,
  unpricedRequests: number,
): UsageLine {
  return { group, requests, errors, inputTokens, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, outputTokens, avgMs: 10, costUsd, unpricedRequests };
}

/** The fixture's lines `by` each grouping, since the start. */
export const FIXTURE_LINES = {
  day: [line('2026-11-23', 2, 0, 1010, 110, 0.0035, 1), line('2026-11-24', 3, 1, 50_200, 6100, 0.2515, 0)],
  key: [line('ci', 3, 0, 1210, 210, 0.005, 1), line('-', 1, 1, 0, 0, 0, 0), line('ops', 1, 0, 50_000, 6000, 0.25, 0)],
  model: [line('gpt-4o', 3, 1, 1200, 200, 0.005, 0), line('claude-x', 2, 0, 50_010, 6010, 0.25, 1)],
  upstream: [line('anthropic', 2, 0, 50_010, 6010, 0.25, 1), line('openai', 2, 0, 1200, 200, 0.005, 0), line('-', 1, 1, 0, 0, 0, 0)],
};

/** The fixture `by=day&split=model`: each model's days. */
export const FIXTURE_DAYS_BY_MODEL = [
  { name: 'claude-x', lines: [line('2026-11-23', 1, 0, 10, 10, 0, 1), line('2026-11-24', 1, 0, 50_000, 6000, 0.25, 0)] },
  { name: 'gpt-4o', lines: [line('2026-11-23', 1, 0, 1000, 100, 0.0035, 0), line('2026-11-24', 2, 1, 200, 100, 0.0015, 0)] },
];
