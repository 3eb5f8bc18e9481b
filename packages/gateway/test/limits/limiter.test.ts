import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openLimiter } from '../../src/limits/index.js';
import type { AdmitPlan, LimitStore } from '../../src/limits/limit-store.js';
import { StoreLimiter } from '../../src/limits/limiter.js';
import { createLogger } from '../../src/logger.js';
import { Readiness } from '../../src/server/readiness.js';
import { describeLimiterBehaviour, ticketOf } from './limiter-behaviour.js';
import { recordingLogger } from './log-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const silent = createLogger('silent');

describeLimiterBehaviour('memory', () => openLimiter({ logger: silent }));
describeLimiterBehaviour('SQLite', () => openLimiter({ logger: silent, sqlitePath: join(dir, `limits-${Math.random()}.sqlite`) }));

describe('the SQLite limits file', () => {
  it('keeps counters across a restart and between connections', async () => {
    const path = join(dir, 'restart.sqlite');
    const now = Date.parse('2026-11-25T12:00:00Z');
    const first = await openLimiter({ logger: silent, sqlitePath: path });
    const second = await openLimiter({ logger: silent, sqlitePath: path });
    await first.settle(ticketOf(await first.admit('k', { rpm: 2 }, { now })), { tokens: 3, costUsd: 0.5 }, now);
    expect((await second.admit('k', { rpm: 2 }, { now })).allowed).toBe(true);
    expect((await second.admit('k', { rpm: 2 }, { now })).allowed).toBe(false);
    await first.close();
    await second.close();
    const reopened = await openLimiter({ logger: silent, sqlitePath: path });
    expect(await reopened.usage('k', { budget: { usd: 9, period: 'day' } }, now)).toEqual({ spentUsd: 0.5, requests: 2, tokens: 3 });
    await reopened.close();
  });
});

describe('SQLite admissions in flight together', () => {
  it('share a transaction and still admit exactly rpm of 200; a settle queued at close is counted', async () => {
    const path = join(dir, 'batch.sqlite');
    const now = Date.parse('2026-11-25T12:00:00Z');
    const limiter = await openLimiter({ logger: silent, sqlitePath: path });
    const admissions = await Promise.all(Array.from({ length: 200 }, () => limiter.admit('k', { rpm: 50 }, { now })));
    expect(admissions.filter((admission) => admission.allowed)).toHaveLength(50);
    const settled = limiter.settle(ticketOf(admissions[0]!), { tokens: 9, costUsd: 0.75 }, now);
    await limiter.close();
    await settled;
    const reopened = await openLimiter({ logger: silent, sqlitePath: path });
    expect(await reopened.usage('k', { budget: { usd: 1, period: 'total' } }, now)).toEqual({ spentUsd: 0.75, requests: 50, tokens: 9 });
    await reopened.close();
  });
});

describe('an unpriced request', () => {
  it('is logged once per key', async () => {
    const { logger, lines } = recordingLogger();
    const limiter = await openLimiter({ logger });
    for (const key of ['a', 'a', 'b']) await limiter.settle(ticketOf(await limiter.admit(key, {})), { tokens: 1, costUsd: undefined });
    expect(lines()).toEqual([
      { level: 40, keyName: 'a', msg: 'unpriced request counted as $0 against the key budget (logged once per key)' },
      { level: 40, keyName: 'b', msg: 'unpriced request counted as $0 against the key budget (logged once per key)' },
    ]);
  });
});

/** A store that fails while `down` is set. */
class FlakyStore implements LimitStore {
  readonly kind = 'redis';
  down = false;
  admitted: AdmitPlan[] = [];
  async admit(plan: AdmitPlan) {
    if (this.down) throw new Error('Connection is closed.');
    this.admitted.push(plan);
    return 'ok' as const;
  }
  async settle() {
    if (this.down) throw new Error('Connection is closed.');
  }
  async read() {
    if (this.down) throw new Error('Connection is closed.');
    return { spentNano: 0, requests: 0, tokens: 0 };
  }
  async close() {}
}

describe('a limits store down', () => {
  it('admits without limits by default, logs one error line per outage and one when back, and shows a readiness detail', async () => {
    const { logger, lines } = recordingLogger();
    const store = new FlakyStore();
    const readiness = new Readiness();
    const limiter = new StoreLimiter(store, logger);
    readiness.addDetail('limits', () => (limiter.storeDown ? { store: limiter.storeKind, state: 'down' } : undefined));
    store.down = true;
    for (let i = 0; i < 3; i++) {
      const admission = await limiter.admit('k', { rpm: 1 });
      expect(admission.allowed).toBe(true);
      await limiter.settle(ticketOf(admission), { tokens: 1, costUsd: 1 });
    }
    expect(readiness.detail()).toEqual({ limits: { store: 'redis', state: 'down' } });
    await expect(limiter.usage('k', {})).rejects.toThrow('the limits store is unavailable right now; retry shortly');
    store.down = false;
    expect((await limiter.admit('k', { rpm: 1 })).allowed).toBe(true);
    expect(readiness.detail()).toBeUndefined();
    expect(lines()).toEqual([
      {
        level: 50,
        err: 'Connection is closed.',
        store: 'redis',
        onStoreDown: 'open',
        msg: 'limits store unreachable; admitting requests without limits until it returns',
      },
      { level: 30, store: 'redis', msg: 'limits store reachable again' },
    ]);
  });

  it('refuses with a retryable 503 error when onStoreDown is closed, and fails the readiness check', async () => {
    const store = new FlakyStore();
    const limiter = new StoreLimiter(store, silent, 'closed');
    store.down = true;
    await expect(limiter.admit('k', {})).rejects.toMatchObject({
      kind: 'overloaded',
      message: 'the rate limits store is unavailable right now; retry shortly',
    });
    const readiness = new Readiness();
    const opened = await openLimiter({ logger: silent, readiness, onStoreDown: 'closed' });
    expect(readiness.failing()).toEqual([]);
    await opened.close();
  });
});
