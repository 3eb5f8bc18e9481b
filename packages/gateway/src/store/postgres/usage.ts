import { toUsageLine, type UsageLine } from '../../ledger/report.js';
import { type UsageGrouping, type UsageQuery, type UsageRow, usageSql } from '../../ledger/usage-query.js';
import { connectPostgres } from './connect.js';

/** The usage report (as `usageReport` gives it for SQLite) from the ledger in PostgreSQL at `url`. */
export async function postgresUsageReport(url: string, by: UsageGrouping, since = 0): Promise<UsageLine[]> {
  return (await postgresUsageRows(url, { by, since })).map(toUsageLine);
}

/** The report's rows from the ledger in PostgreSQL at `url` (none before the gateway created its table). */
export async function postgresUsageRows(url: string, query: UsageQuery): Promise<UsageRow[]> {
  const pool = await connectPostgres(url);
  try {
    const { rows } = await pool.query<{ name: string }>(
      "SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'llm_gateway_requests' AND table_schema = current_schema()",
    );
    if (rows.length === 0) return [];
    // A database no gateway of this version has migrated yet has no costs.
    const costColumns = rows.some((row) => row.name === 'cost_usd');
    return (await pool.query<UsageRow>(usageSql('postgres', query, costColumns), [query.since])).rows;
  } finally {
    await pool.end();
  }
}
