// One process of the SQLite concurrency test: waits for the start time, then admits `count`
// requests for one key on the shared file at the clock time `now` (one minute for every
// process, whenever the test runs) and prints how many were allowed.
import { openLimiter } from '../../src/limits/index.js';
import { createLogger } from '../../src/logger.js';

const [path, key, count, limitsJson, reserveUsd, startAt, now] = process.argv.slice(2);
const limiter = await openLimiter({ logger: createLogger('silent'), sqlitePath: path, onStoreDown: 'closed' });
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
const admissions = await Promise.all(
  Array.from({ length: Number(count) }, () => limiter.admit(key!, JSON.parse(limitsJson!), { reserveUsd: Number(reserveUsd), now: Number(now) })),
);
await limiter.close();
process.stdout.write(String(admissions.filter((admission) => admission.allowed).length));
