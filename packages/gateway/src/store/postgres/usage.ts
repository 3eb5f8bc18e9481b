import { GROUP_EXPRESSIONS, toUsageLine, type UsageGrouping, type UsageLine, type UsageRow } from '../../ledger/report.js';
import { connectPostgres } from './connect.js';

/** The usage report (as `usageReport` gives it for SQLite) from the ledger in PostgreSQL at `url`. */
export async function postgresUsageReport(url: string, by: UsageGrouping, since = 0): Promise<UsageLine[]> {
  const pool = await connectPostgres(url);
  try {
    const exists = await pool.query("SELECT to_regclass('llm_gateway_requests') IS NOT NULL AS present");
    if (!exists.rows[0]?.present) return [];
    const { rows } = await pool.query<UsageRow>(
      `SELECT ${GROUP_EXPRESSIONS[by]} AS grp, COUNT(*)::float8 AS requests, COUNT(*) FILTER (WHERE status >= 400)::float8 AS errors,
        COALESCE(SUM(input_tokens), 0)::float8 AS input, COALESCE(SUM(cached_tokens), 0)::float8 AS cached,
        COALESCE(SUM(cache_write_tokens), 0)::float8 AS "cacheWrite", COALESCE(SUM(reasoning_tokens), 0)::float8 AS reasoning,
        COALESCE(SUM(output_tokens), 0)::float8 AS output, AVG(total_ms)::float8 AS "avgMs"
       FROM llm_gateway_requests WHERE time >= $1 GROUP BY grp ORDER BY COUNT(*) DESC, ${GROUP_EXPRESSIONS[by]} COLLATE "C"`,
      [since],
    );
    return rows.map(toUsageLine);
  } finally {
    await pool.end();
  }
}
