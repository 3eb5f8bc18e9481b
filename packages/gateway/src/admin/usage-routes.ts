import { parseSince, sqliteUsageRows, toUsageLine, toUsageSeries } from '../ledger/report.js';
import { isUsageGrouping, type UsageQuery, type UsageRow } from '../ledger/usage-query.js';
import { type AdminContext, type AdminRoute, adminError, adminJson } from './admin-route.js';

/** The rows of `query` from the ledger the running config names; undefined with `ledger: false`. */
async function ledgerRows(context: AdminContext, query: UsageQuery): Promise<UsageRow[] | undefined> {
  const config = context.config();
  if (config.ledger === false) return undefined;
  // Rows still queued in this process count too: the report is as fresh as the request.
  await context.stores.ledger?.flush();
  if (config.store?.postgres) {
    const { postgresUsageRows } = await import('../store/postgres/usage.js');
    return postgresUsageRows(config.store.postgres, query);
  }
  try {
    return sqliteUsageRows(config.ledger.path, query);
  } catch (error) {
    // No request written yet: nothing to report, not a failure.
    if ((error as Error).message === 'no ledger file there') return [];
    throw error;
  }
}

/**
 * `GET /admin/usage?by=key|model|upstream|day&since=24h&split=model`: the spend report of
 * `llm-gateway usage --json` (`lines`), from the same ledger; with `split`, also each split
 * group's lines (`series`: with `by=day&split=model`, each model's days, for the dashboard's
 * charts). `since` takes what `--since` takes; default: the whole ledger.
 */
const usage: AdminRoute = {
  method: 'GET',
  pattern: '/admin/usage',
  async handle(call, context) {
    const params = call.url.searchParams;
    const by = params.get('by') ?? 'model';
    if (!isUsageGrouping(by)) return adminError(400, 'invalid_request_error', `by: expected model, upstream, key or day, got "${by}"`, 'by');
    const split = params.get('split') ?? undefined;
    if (split !== undefined && (!isUsageGrouping(split) || split === by)) {
      return adminError(400, 'invalid_request_error', `split: expected model, upstream, key or day other than by, got "${split}"`, 'split');
    }
    const sinceText = params.get('since');
    let since = 0;
    if (sinceText !== null) {
      try {
        since = parseSince(sinceText);
      } catch {
        return adminError(400, 'invalid_request_error', `since: expected a duration like 24h or a date, got "${sinceText}"`, 'since');
      }
    }
    const lines = await ledgerRows(context, { by, since });
    if (!lines) return adminError(404, 'not_found_error', 'the usage ledger is off (ledger: false)');
    const report = { by, since: new Date(since).toISOString(), lines: lines.map(toUsageLine) };
    if (!split) return adminJson(200, report);
    const series = toUsageSeries((await ledgerRows(context, { by, split, since })) ?? []);
    return adminJson(200, { ...report, split, series });
  },
};

/** The spend report's routes (added to ADMIN_ROUTES in routes.ts). */
export const USAGE_ROUTES: readonly AdminRoute[] = [usage];
