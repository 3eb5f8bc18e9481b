import { existsSync } from 'node:fs';
import { type SqliteDriver, openDatabase } from './sqlite.js';

/** How {@link usageReport} groups rows. */
export type UsageGrouping = 'model' | 'upstream' | 'key';

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
}

/** The SQL expression of each grouping (the same in SQLite and PostgreSQL). */
export const GROUP_EXPRESSIONS: Record<UsageGrouping, string> = {
  model: "COALESCE(client_model, '-')",
  upstream: "COALESCE(upstream, '-')",
  key: "COALESCE(key_id, '-')",
};

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
  // Both drivers would create or word a missing file differently: one answer for both.
  if (!existsSync(path)) throw new Error('no ledger file there');
  const db = openDatabase(path, { readonly: true, driver });
  try {
    const rows = db
      .prepare(
        `SELECT ${GROUP_EXPRESSIONS[by]} AS grp, COUNT(*) AS requests, SUM(status >= 400) AS errors,
          TOTAL(input_tokens) AS input, TOTAL(cached_tokens) AS cached, TOTAL(cache_write_tokens) AS cacheWrite,
          TOTAL(reasoning_tokens) AS reasoning, TOTAL(output_tokens) AS output, AVG(total_ms) AS avgMs
         FROM requests WHERE time >= ? GROUP BY grp ORDER BY requests DESC, grp`,
      )
      .all(since) as UsageRow[];
    return rows.map(toUsageLine);
  } finally {
    db.close();
  }
}

/** One group's sums as the report's queries name them (SQLite's and PostgreSQL's alike). */
export interface UsageRow {
  grp: string;
  requests: number;
  errors: number;
  input: number;
  cached: number;
  cacheWrite: number;
  reasoning: number;
  output: number;
  avgMs: number;
}

/** A queried row as a report line (the average rounded to 0.1 ms). */
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
  };
}

/** Formats report lines as an aligned text table. */
export function formatUsage(lines: UsageLine[], by: UsageGrouping): string {
  const header = [by, 'requests', 'errors', 'input', 'cached', 'cache_write', 'reasoning', 'output', 'avg_ms'];
  const table = [
    header,
    ...lines.map((l) =>
      [l.group, l.requests, l.errors, l.inputTokens, l.cachedTokens, l.cacheWriteTokens, l.reasoningTokens, l.outputTokens, l.avgMs].map(String),
    ),
  ];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  return table.map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')).join('\n');
}
