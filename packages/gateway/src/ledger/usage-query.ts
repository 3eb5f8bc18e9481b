/** How the usage report groups rows: by key, model (the client's), upstream, or UTC day. */
export type UsageGrouping = 'model' | 'upstream' | 'key' | 'day';

/** Every {@link UsageGrouping}, as `--by` and `?by=` take them. */
export const USAGE_GROUPINGS: readonly UsageGrouping[] = ['model', 'upstream', 'key', 'day'];

/** True when `value` names a {@link UsageGrouping}. */
export function isUsageGrouping(value: string): value is UsageGrouping {
  return (USAGE_GROUPINGS as readonly string[]).includes(value);
}

/** What a usage report sums: rows since `since` (epoch ms) by `by`, and within each group by `split` when set. */
export interface UsageQuery {
  by: UsageGrouping;
  split?: UsageGrouping;
  since: number;
}

/** The ledgers' SQL dialects. */
export type SqlDialect = 'sqlite' | 'postgres';

/** One group's sums as {@link usageSql} names them (SQLite's and PostgreSQL's alike). */
export interface UsageRow {
  grp: string;
  /** The `split` group, when the query has one. */
  sub?: string;
  requests: number;
  errors: number;
  input: number;
  cached: number;
  cacheWrite: number;
  reasoning: number;
  output: number;
  avgMs: number;
  cost: number;
  unpriced: number;
}

/** The SQL expression of each grouping; the UTC day is spelt per dialect. */
function groupExpression(by: UsageGrouping, dialect: SqlDialect): string {
  if (by === 'day')
    return dialect === 'sqlite' ? "strftime('%Y-%m-%d', time / 1000, 'unixepoch')" : "to_char(to_timestamp(time / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')";
  return { model: "COALESCE(client_model, '-')", upstream: "COALESCE(upstream, '-')", key: "COALESCE(key_id, '-')" }[by];
}

/** Sums and counts per dialect: SQLite's TOTAL is a float 0 over no rows; PostgreSQL's bigint sums are cast to float8 to come back as numbers. */
function aggregates(dialect: SqlDialect, costColumns: boolean): string {
  const sum = (column: string) => (dialect === 'sqlite' ? `TOTAL(${column})` : `COALESCE(SUM(${column}), 0)::float8`);
  const count = (condition: string) => (dialect === 'sqlite' ? `COUNT(*) FILTER (WHERE ${condition})` : `COUNT(*) FILTER (WHERE ${condition})::float8`);
  const all = dialect === 'sqlite' ? 'COUNT(*)' : 'COUNT(*)::float8';
  const avg = dialect === 'sqlite' ? 'AVG(total_ms)' : 'AVG(total_ms)::float8';
  return [
    `${all} AS requests`,
    `${count('status >= 400')} AS errors`,
    `${sum('input_tokens')} AS input`,
    `${sum('cached_tokens')} AS cached`,
    `${sum('cache_write_tokens')} AS "cacheWrite"`,
    `${sum('reasoning_tokens')} AS reasoning`,
    `${sum('output_tokens')} AS output`,
    `${avg} AS "avgMs"`,
    `${costColumns ? sum('cost_usd') : '0'} AS cost`,
    `${costColumns ? count('unpriced = 1') : '0'} AS unpriced`,
  ].join(', ');
}

/**
 * The report's query on the ledger table (`requests` in SQLite, `llm_gateway_requests` in
 * PostgreSQL), with one parameter: `since`. Groups come busiest first (days in date order),
 * ties by name in byte order (PostgreSQL's `COLLATE "C"`, as SQLite compares). `costColumns`
 * false: a ledger no gateway of this version has opened yet (no `cost_usd`), reported at 0.
 */
export function usageSql(dialect: SqlDialect, query: Omit<UsageQuery, 'since'>, costColumns = true): string {
  const group = groupExpression(query.by, dialect);
  const split = query.split && groupExpression(query.split, dialect);
  const table = dialect === 'sqlite' ? 'requests' : 'llm_gateway_requests';
  const param = dialect === 'sqlite' ? '?' : '$1';
  const byName = (expression: string) => (dialect === 'sqlite' ? expression : `${expression} COLLATE "C"`);
  const order = query.by === 'day' ? byName(group) : `COUNT(*) DESC, ${byName(group)}`;
  return `SELECT ${group} AS grp${split ? `, ${split} AS sub` : ''}, ${aggregates(dialect, costColumns)}
    FROM ${table} WHERE time >= ${param} GROUP BY grp${split ? ', sub' : ''} ORDER BY ${split ? `${byName(split)}, ` : ''}${order}`;
}
