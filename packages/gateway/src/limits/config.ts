import type { GatewayConfig } from '../config/schema.js';
import type { LimiterOptions } from './open.js';

/**
 * Where a config keeps its limits counters: Redis when `store.redis` is set (shared by every
 * gateway on it); else an SQLite file beside the ledger file (`gateway-usage.db` ->
 * `gateway-usage.limits.db`, shared by `serve --workers` and kept across restarts); else, with
 * `ledger: false` or an in-memory ledger, this process's memory.
 */
export function limiterStoreOf(config: GatewayConfig): Pick<LimiterOptions, 'redis' | 'sqlitePath' | 'onStoreDown'> {
  const onStoreDown = config.limits?.onStoreDown ?? 'open';
  if (config.store?.redis) return { redis: config.store.redis, onStoreDown };
  const ledgerPath = config.ledger ? config.ledger.path : undefined;
  if (ledgerPath === undefined || ledgerPath === ':memory:') return { onStoreDown };
  return { sqlitePath: `${ledgerPath.replace(/\.(db|sqlite3?)$/, '')}.limits.db`, onStoreDown };
}
