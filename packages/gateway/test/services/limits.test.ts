import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startRedis, stopPid } from '../../../../scripts/services.mjs';
import { type Limiter, openLimiter } from '../../src/limits/index.js';
import { createLogger } from '../../src/logger.js';
import { Readiness } from '../../src/server/readiness.js';
import { describeLimiterBehaviour, ticketOf } from '../limits/limiter-behaviour.js';
import { recordingLogger } from '../limits/log-lines.js';

const silent = createLogger('silent');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describeLimiterBehaviour('Redis', () => openLimiter({ logger: silent, redis: inject('redisUrl') }));

/** Runs `test` with three limiters, each with its own Redis connection as three gateways would have, and one fresh key. */
async function onThreeInstances(test: (limiters: Limiter[], key: string) => Promise<void>): Promise<void> {
  const limiters = await Promise.all([0, 1, 2].map(() => openLimiter({ logger: silent, redis: inject('redisUrl') })));
  try {
    await test(limiters, `key-${randomUUID()}`);
  } finally {
    for (const limiter of limiters) await limiter.close();
  }
}

describe('limits shared by three instances through Redis', () => {
  it('admits exactly rpm of 200 concurrent requests', () =>
    onThreeInstances(async (limiters, key) => {
      const now = Date.parse('2026-11-25T12:00:00Z');
      const admissions = await Promise.all(Array.from({ length: 200 }, (_, i) => limiters[i % 3]!.admit(key, { rpm: 50 }, { now })));
      expect(admissions.filter((admission) => admission.allowed)).toHaveLength(50);
      expect(admissions.filter((admission) => !admission.allowed && admission.limit === 'rpm')).toHaveLength(150);
      expect(await limiters[0]!.usage(key, {}, now)).toEqual({ spentUsd: 0, requests: 50, tokens: 0 });
    }));

  it('keeps spend below budget + one reservation when each request reserves its most: 200 concurrent, $1 budget, $0.1 reserved, $0.05-0.1 spent', () =>
    onThreeInstances(async (limiters, key) => {
      const limits = { budget: { usd: 1, period: 'day' as const } };
      const admitted = await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          const limiter = limiters[i % 3]!;
          const admission = await limiter.admit(key, limits, { reserveUsd: 0.1 });
          if (!admission.allowed) return 0;
          // Each costs at most its reservation (here 0.05-0.1).
          await limiter.settle(admission.ticket, { tokens: 1, costUsd: 0.05 + (i % 6) / 100 });
          return 1;
        }),
      );
      const usage = await limiters[1]!.usage(key, limits);
      // The documented bound: below the budget plus one reservation (admitted at spent + reserved
      // just under $1), when no request costs more than it reserved.
      expect(usage.spentUsd).toBeLessThan(1.1);
      // Settles free reservations as they land, so 10 or more pass.
      expect(admitted.reduce<number>((a, b) => a + b, 0)).toBeGreaterThanOrEqual(10);
      // Nothing is held once every ticket settled: the rest of the budget is open.
      expect(await limiters[2]!.admit(key, limits, { reserveUsd: 0.1 })).toMatchObject({ allowed: usage.spentUsd < 1 });
    }));

  it('admits exactly 10 of 200 concurrent $0.1 reservations on a $1 budget while none settles', () =>
    onThreeInstances(async (limiters, key) => {
      const limits = { budget: { usd: 1, period: 'total' as const } };
      const admissions = await Promise.all(Array.from({ length: 200 }, (_, i) => limiters[i % 3]!.admit(key, limits, { reserveUsd: 0.1 })));
      const tickets = admissions.filter((admission) => admission.allowed).map(ticketOf);
      expect(tickets).toHaveLength(10);
      for (const ticket of tickets) await limiters[0]!.settle(ticket, { tokens: 0, costUsd: 0.1 });
      expect((await limiters[0]!.usage(key, limits)).spentUsd).toBe(1);
    }));
});

describe('Redis down while counting', () => {
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'limits-redis-'));
    dirs.push(dir);
    return dir;
  };

  it('admits without limits at once (onStoreDown open), logs one error line per outage, shows it in readiness, and counts again once back', async () => {
    const dir = tempDir();
    const redis = await startRedis(dir);
    const { logger, lines } = recordingLogger();
    const readiness = new Readiness();
    const limiter = await openLimiter({ logger, redis: redis.url, readiness });
    try {
      const key = 'down-key';
      expect((await limiter.admit(key, { rpm: 1 })).allowed).toBe(true);
      stopPid(redis.pid);
      await expect.poll(() => readiness.detail()).toEqual({ limits: { store: 'redis', state: 'down', admitting: 'without limits' } });
      const started = performance.now();
      for (let i = 0; i < 3; i++) expect((await limiter.admit(key, { rpm: 1 })).allowed).toBe(true);
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(lines()).toEqual([
        {
          level: 50,
          // The driver's words, by whether it has noticed the closed socket yet.
          err: expect.stringMatching(/^(Connection is closed\.|Stream isn't writeable and enableOfflineQueue options is false)$/),
          store: 'redis',
          onStoreDown: 'open',
          msg: 'limits store unreachable; admitting requests without limits until it returns',
        },
      ]);

      const again = await startRedis(dir, redis.port);
      try {
        await expect.poll(() => readiness.detail(), { timeout: 10_000, interval: 100 }).toBeUndefined();
        expect((await limiter.admit(key, { rpm: 1 }, { now: Date.parse('2026-11-25T12:00:00Z') })).allowed).toBe(true);
        expect((await limiter.admit(key, { rpm: 1 }, { now: Date.parse('2026-11-25T12:00:00Z') })).allowed).toBe(false);
        expect(lines().at(-1)).toEqual({ level: 30, store: 'redis', msg: 'limits store reachable again' });
      } finally {
        stopPid(again.pid);
      }
    } finally {
      await limiter.close();
      stopPid(redis.pid);
    }
  });

  it('answers within the 1 s command timeout when Redis hangs, and refuses with a 503 error when onStoreDown is closed', async () => {
    const dir = tempDir();
    const redis = await startRedis(dir);
    const readiness = new Readiness();
    const limiter = await openLimiter({ logger: silent, redis: redis.url, readiness, onStoreDown: 'closed' });
    try {
      expect((await limiter.admit('hang-key', {})).allowed).toBe(true);
      // A stopped (not dead) server: connected, never answering.
      process.kill(redis.pid!, 'SIGSTOP');
      const started = performance.now();
      await expect(limiter.admit('hang-key', {})).rejects.toMatchObject({
        kind: 'overloaded',
        message: 'the rate limits store is unavailable right now; retry shortly',
      });
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(900);
      expect(waited).toBeLessThan(3_000);
      expect(readiness.failing()).toEqual(['limits']);
    } finally {
      process.kill(redis.pid!, 'SIGCONT');
      await limiter.close();
      stopPid(redis.pid);
    }
  });
});
