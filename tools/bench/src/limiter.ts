// Cost of the per-key limits on the request path: one admit (rpm + tpm + budget with a
// reservation) and one settle per request, against each limits store: memory, an SQLite file,
// Redis (a throw-away redis-server started here). Reports process CPU and wall time per request,
// one request at a time and 64 in flight; the CPU figure is what the gateway pays per request
// (Redis's own CPU is not counted: it runs in its own process).
//
//   node scripts/pnpm.mjs --filter @llm/bench run limiter [-- --requests=20000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const REQUESTS = Number(process.argv.find((item) => item.startsWith('--requests='))?.slice(11) ?? 20_000);
const IN_FLIGHT = 64;
const KEYS = 100;

interface Ticket {
  key: string;
}
interface Limiter {
  admit(key: string, limits: object, options?: { reserveUsd?: number }): Promise<{ allowed: boolean; ticket?: Ticket }>;
  settle(ticket: Ticket, used: { tokens: number; costUsd: number | undefined }): Promise<void>;
  close(): Promise<void>;
}
type OpenLimiter = (options: { redis?: string; sqlitePath?: string; logger: unknown; onStoreDown?: 'open' | 'closed' }) => Promise<Limiter>;

const load = (path: string) => import(pathToFileURL(join(ROOT, path)).href);
const { openLimiter } = (await load('packages/gateway/src/limits/index.ts')) as { openLimiter: OpenLimiter };
const { createLogger } = (await load('packages/gateway/src/logger.ts')) as { createLogger(level: string): unknown };
const { startRedis } = (await load('scripts/services.mjs')) as { startRedis(dir: string): Promise<{ url: string; stop(): void }> };

// Every limit on, none reached: the work of a request that passes.
const LIMITS = { rpm: 1e9, tpm: 1e12, budget: { usd: 1e6, period: 'day' } };

async function request(limiter: Limiter, index: number): Promise<void> {
  const admission = await limiter.admit(`key-${index % KEYS}`, LIMITS, { reserveUsd: 0.05 });
  if (!admission.allowed || !admission.ticket) throw new Error('refused: the bench must stay under every limit');
  await limiter.settle(admission.ticket, { tokens: 700, costUsd: 0.0021 });
}

/** µs of process CPU and of wall time per request, `inFlight` requests at a time. */
async function measure(limiter: Limiter, inFlight: number): Promise<{ cpu: number; wall: number }> {
  for (let i = 0; i < 2_000; i++) await request(limiter, i); // warm-up
  const cpu = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < REQUESTS) await request(limiter, next++);
    }),
  );
  const wall = (performance.now() - started) * 1000;
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / REQUESTS, wall: wall / REQUESTS };
}

const dir = mkdtempSync(join(tmpdir(), 'bench-limiter-'));
const redis = await startRedis(dir);
const logger = createLogger('silent');
const stores: [string, () => Promise<Limiter>][] = [
  ['memory', () => openLimiter({ logger })],
  ['SQLite file', () => openLimiter({ logger, sqlitePath: join(dir, 'limits.db') })],
  ['Redis', () => openLimiter({ logger, redis: redis.url })],
];
try {
  console.log(`| store | CPU µs / request, 1 in flight | wall µs, 1 in flight | CPU µs / request, ${IN_FLIGHT} in flight | wall µs, ${IN_FLIGHT} in flight |`);
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, open] of stores) {
    const limiter = await open();
    const one = await measure(limiter, 1);
    const many = await measure(limiter, IN_FLIGHT);
    await limiter.close();
    const f = (value: number) => value.toFixed(1);
    console.log(`| ${name} | ${f(one.cpu)} | ${f(one.wall)} | ${f(many.cpu)} | ${f(many.wall)} |`);
  }
} finally {
  redis.stop();
  rmSync(dir, { recursive: true, force: true });
}
