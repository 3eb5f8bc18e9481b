import type { Logger } from 'pino';
import type { Readiness } from '../server/readiness.js';
import type { LimitStore } from './limit-store.js';
import { type Limiter, type OnStoreDown, StoreLimiter } from './limiter.js';
import { MemoryLimitStore } from './memory-store.js';
import { SqliteLimitStore } from './sqlite-store.js';

export interface LimiterOptions {
  /** A Redis URL: counters shared by every gateway on it (the driver is loaded only then). */
  redis?: string;
  /** An SQLite file: counters shared by the processes on this machine and kept across restarts. */
  sqlitePath?: string;
  logger: Logger;
  /** Gets the `limits` detail (open) or check (closed) while the store is down. */
  readiness?: Readiness;
  /** What an admission does while the store is down (default `open`: admit without limits). */
  onStoreDown?: OnStoreDown;
}

/**
 * Opens the limiter on Redis when `redis` is set, else on the SQLite file `sqlitePath`, else in
 * memory. A Redis that cannot be reached at start throws `StoreStartError`, as the other stores do.
 */
export async function openLimiter(options: LimiterOptions): Promise<StoreLimiter & Limiter> {
  const onStoreDown = options.onStoreDown ?? 'open';
  let store: LimitStore;
  if (options.redis) {
    const [{ connectRedis }, { RedisLimitStore }] = await Promise.all([import('../store/redis/state-store.js'), import('./redis-store.js')]);
    // The limiter logs the first failed command of an outage; the connection's own errors only repeat it.
    store = new RedisLimitStore(await connectRedis(options.redis, () => {}));
  } else if (options.sqlitePath) {
    store = new SqliteLimitStore(options.sqlitePath);
  } else {
    store = new MemoryLimitStore();
  }
  const limiter = new StoreLimiter(store, options.logger, onStoreDown);
  if (onStoreDown === 'closed') options.readiness?.add({ name: 'limits', ready: () => !limiter.storeDown });
  else options.readiness?.addDetail('limits', () => (limiter.storeDown ? { store: limiter.storeKind, state: 'down', admitting: 'without limits' } : undefined));
  return limiter;
}
