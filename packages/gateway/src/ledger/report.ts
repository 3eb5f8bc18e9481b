import { existsSync } from 'node:fs';
import { type SqliteDriver, openDatabase } from './sqlite.js';
import { type UsageGrouping, type UsageQuery, type UsageRow, usageSql } from './usage-query.js';

export type { UsageGrouping } from './usage-query.js';

/** One line of the usage report. */
export interface UsageLine {
  group: string;
  requests: number;
  errors: number;
  inputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  outputTokens: number;
  avgMs: number;
  /** USD of the group's priced requests (rounded to 1e-10). */
  costUsd: number;
  /** Requests with usage whose model had no price: not in `costUsd`. */
  unpricedRequests: number;
}

/** One `split` group's lines (a model's days, say): what a chart draws as one series. */
export interface UsageSeries {
  name: string;
  lines: UsageLine[];
}

/** Parses `--since`: a duration (`30m`, `24h`, `7d`) before `now`, or a date / ISO time. */
export function parseSince(value: string, now = Date.now()): number {
  const duration = /^(\d+)([mhd])$/.exec(value);
  if (duration) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[duration[2] as 'm' | 'h' | 'd'];
    return now - Number(duration[1]) * unit;
  }
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new Error(`--since: expected a duration like 24h or a date, got "${value}"`);
  return time;
}

/** Sums the ledger at `path` per group since `since` (epoch ms). */
export function usageReport(path: string, by: UsageGrouping, since = 0, driver?: SqliteDriver): UsageLine[] {
  return sqliteUsageRows(path, { by, since }, driver).map(toUsageLine);
}

/** The report's rows from the SQLite ledger at `path`. */
export function sqliteUsageRows(path: string, query: UsageQuery, driver?: SqliteDriver): UsageRow[] {
  // Both drivers would create or word a missing file differently: one answer for both.
  if (!existsSync(path)) throw new Error('no ledger file there');
  const db = openDatabase(path, { readonly: true, driver });
  try {
    // A file no gateway of this version has opened yet lacks the cost columns: it has no costs.
    const columns = new Set((db.prepare('PRAGMA table_info(requests)').all() as { name: string }[]).map((column) => column.name));
    return db.prepare(usageSql('sqlite', query, columns.has('cost_usd'))).all(query.since) as UsageRow[];
  } finally {
    db.close();
  }
}

/** A queried row as a report line (the average rounded to 0.1 ms, the cost to 1e-10 USD). */
export function toUsageLine(row: UsageRow): UsageLine {
  return {
    group: row.grp,
    requests: row.requests,
    errors: row.errors,
    inputTokens: row.input,
    cachedTokens: row.cached,
    cacheWriteTokens: row.cacheWrite,
    reasoningTokens: row.reasoning,
    outputTokens: row.output,
    avgMs: Math.round(row.avgMs * 10) / 10,
    costUsd: Math.round(row.cost * 1e10) / 1e10,
    unpricedRequests: row.unpriced,
  };
}

/** Rows of a query with a `split` as series, one per split group, in the rows' order. */
export function toUsageSeries(rows: readonly UsageRow[]): UsageSeries[] {
  const series = new Map<string, UsageLine[]>();
  for (const row of rows) {
    const name = row.sub ?? '-';
    const lines = series.get(name) ?? [];
    if (lines.length === 0) series.set(name, lines);
    lines.push(toUsageLine(row));
  }
  return [...series].map(([name, lines]) => ({ name, lines }));
}

/** Formats report lines as an aligned text table. */
export function formatUsage(lines: UsageLine[], by: UsageGrouping): string {
  const header = [by, 'requests', 'errors', 'input', 'cached', 'cache_write', 'reasoning', 'output', 'avg_ms', 'cost_usd', 'unpriced'];
  const table = [
    header,
    ...lines.map((l) => [
      ...[l.group, l.requests, l.errors, l.inputTokens, l.cachedTokens, l.cacheWriteTokens, l.reasoningTokens, l.outputTokens, l.avgMs].map(String),
      l.costUsd.toFixed(6),
      String(l.unpricedRequests),
    ]),
  ];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  return table.map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')).join('\n');
}
