import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Admission, AdmissionTicket, Limiter } from '../../src/limits/index.js';
import { RESERVATION_TTL_MS } from '../../src/limits/index.js';

const at = (iso: string) => Date.parse(iso);

/** The ticket of an admission the test expects to pass. */
export function ticketOf(admission: Admission): AdmissionTicket {
  if (!admission.allowed) throw new Error(`refused: ${admission.message}`);
  return admission.ticket;
}

/**
 * The limiter's meaning, run against every backend (memory and SQLite here, Redis in the
 * services suite): exact counts, windows and periods rolling over at injected times,
 * reservations, retry-after values.
 */
export function describeLimiterBehaviour(backend: string, open: () => Promise<Limiter>): void {
  describe(`the limiter on ${backend}`, () => {
    let limiter: Limiter;
    // Keys unique per test: a shared Redis keeps counters between tests.
    let key: string;
    const setUp = async () => {
      limiter = await open();
      key = `key-${randomUUID()}`;
    };
    afterEach(async () => {
      await limiter?.close();
    });

    it('admits rpm requests in a UTC minute, refuses the next until the minute ends, and does not count refusals', async () => {
      await setUp();
      const now = at('2026-11-25T12:00:30.250Z');
      for (let i = 0; i < 3; i++) expect((await limiter.admit(key, { rpm: 3 }, { now })).allowed).toBe(true);
      expect(await limiter.admit(key, { rpm: 3 }, { now })).toEqual({
        allowed: false,
        limit: 'rpm',
        retryAfterSeconds: 30,
        message: 'rate limit reached: 3 requests per minute for this key; retry in 30 s',
      });
      expect(await limiter.admit(key, { rpm: 3 }, { now: at('2026-11-25T12:00:59.999Z') })).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
      expect(await limiter.usage(key, { rpm: 3 }, now)).toEqual({ spentUsd: 0, requests: 3, tokens: 0 });
      const next = at('2026-11-25T12:01:00Z');
      expect((await limiter.admit(key, { rpm: 3 }, { now: next })).allowed).toBe(true);
      expect(await limiter.usage(key, {}, next)).toEqual({ spentUsd: 0, requests: 1, tokens: 0 });
    });

    it('refuses once the minute has used tpm tokens (counted at settle), until the minute ends', async () => {
      await setUp();
      const now = at('2026-11-25T12:00:10Z');
      const first = ticketOf(await limiter.admit(key, { tpm: 1000 }, { now }));
      const second = ticketOf(await limiter.admit(key, { tpm: 1000 }, { now }));
      await limiter.settle(first, { tokens: 600, costUsd: 0 }, now);
      expect((await limiter.admit(key, { tpm: 1000 }, { now })).allowed).toBe(true);
      await limiter.settle(second, { tokens: 400, costUsd: 0 }, now);
      expect(await limiter.admit(key, { tpm: 1000 }, { now })).toEqual({
        allowed: false,
        limit: 'tpm',
        retryAfterSeconds: 50,
        message: 'rate limit reached: 1000 tokens per minute for this key; retry in 50 s',
      });
      expect(await limiter.usage(key, {}, now)).toEqual({ spentUsd: 0, requests: 3, tokens: 1000 });
      expect((await limiter.admit(key, { tpm: 1000 }, { now: at('2026-11-25T12:01:00Z') })).allowed).toBe(true);
    });

    it('refuses when spent + reserved reaches a daily budget, releases reservations at settle, and resets at UTC midnight', async () => {
      await setUp();
      const limits = { budget: { usd: 1, period: 'day' as const } };
      const now = at('2026-11-25T23:00:00Z');
      const tickets = [];
      // 0, 0.3, 0.6, 0.9 reserved before each: all below $1.
      for (let i = 0; i < 4; i++) tickets.push(ticketOf(await limiter.admit(key, limits, { reserveUsd: 0.3, now })));
      expect(await limiter.admit(key, limits, { reserveUsd: 0.3, now })).toEqual({
        allowed: false,
        limit: 'budget',
        retryAfterSeconds: 3600,
        message: "budget exhausted: this key's daily budget of $1 is spent",
      });
      // Settling replaces each reservation by the real cost: 4 x $0.1 spent, nothing reserved.
      for (const ticket of tickets) await limiter.settle(ticket, { tokens: 10, costUsd: 0.1 }, now);
      expect(await limiter.usage(key, limits, now)).toEqual({ spentUsd: 0.4, requests: 4, tokens: 40 });
      const more = [];
      for (let i = 0; i < 2; i++) more.push(ticketOf(await limiter.admit(key, limits, { reserveUsd: 0.3, now })));
      expect((await limiter.admit(key, limits, { reserveUsd: 0.3, now })).allowed).toBe(false);
      for (const ticket of more) await limiter.settle(ticket, { tokens: 0, costUsd: 0.3 }, now);
      // $1.0 spent exactly: refused until midnight, one second before it.
      expect(await limiter.admit(key, limits, { now: at('2026-11-25T23:59:59Z') })).toMatchObject({ allowed: false, limit: 'budget', retryAfterSeconds: 1 });
      const tomorrow = at('2026-11-26T00:00:00Z');
      expect((await limiter.admit(key, limits, { now: tomorrow })).allowed).toBe(true);
      expect(await limiter.usage(key, limits, tomorrow)).toEqual({ spentUsd: 0, requests: 1, tokens: 0 });
      // The week and the month still hold the day's spend.
      expect((await limiter.usage(key, { budget: { usd: 5, period: 'week' } }, tomorrow)).spentUsd).toBe(1);
      expect((await limiter.usage(key, { budget: { usd: 5, period: 'month' } }, tomorrow)).spentUsd).toBe(1);
    });

    it('keeps a weekly budget from Monday to Sunday, a monthly one to the month end, a total one for ever', async () => {
      await setUp();
      const week = { budget: { usd: 2, period: 'week' as const } };
      const monday = at('2026-11-23T00:00:00Z');
      await limiter.settle(ticketOf(await limiter.admit(key, week, { now: monday })), { tokens: 0, costUsd: 2 }, monday);
      expect(await limiter.admit(key, week, { now: at('2026-11-29T23:00:00Z') })).toMatchObject({ allowed: false, limit: 'budget', retryAfterSeconds: 3600 });
      expect((await limiter.admit(key, week, { now: at('2026-11-30T00:00:00Z') })).allowed).toBe(true);

      const month = { budget: { usd: 2.5, period: 'month' as const } };
      expect((await limiter.admit(key, month, { now: at('2026-11-30T23:59:00Z') })).allowed).toBe(true);
      const late = at('2026-11-30T23:59:00Z');
      await limiter.settle(ticketOf(await limiter.admit(key, month, { now: late })), { tokens: 0, costUsd: 0.5 }, late);
      expect(await limiter.admit(key, month, { now: late })).toEqual({
        allowed: false,
        limit: 'budget',
        retryAfterSeconds: 60,
        message: "budget exhausted: this key's monthly budget of $2.5 is spent",
      });
      expect((await limiter.admit(key, month, { now: at('2026-12-01T00:00:00Z') })).allowed).toBe(true);

      const total = { budget: { usd: 2.5, period: 'total' as const } };
      expect(await limiter.admit(key, total, { now: at('2027-06-01T00:00:00Z') })).toEqual({
        allowed: false,
        limit: 'budget',
        message: "budget exhausted: this key's total budget of $2.5 is spent",
      });
    });

    it('forgets a reservation never settled after RESERVATION_TTL_MS, and ignores a second settle of one ticket', async () => {
      await setUp();
      const limits = { budget: { usd: 1, period: 'total' as const } };
      const now = at('2026-11-25T12:00:00Z');
      const ticket = ticketOf(await limiter.admit(key, limits, { reserveUsd: 1, now }));
      expect((await limiter.admit(key, limits, { now: now + RESERVATION_TTL_MS - 1 })).allowed).toBe(false);
      const later = now + RESERVATION_TTL_MS;
      expect((await limiter.admit(key, limits, { now: later })).allowed).toBe(true);
      await limiter.settle(ticket, { tokens: 5, costUsd: 0.25 }, later);
      await limiter.settle(ticket, { tokens: 5, costUsd: 0.25 }, later);
      expect(await limiter.usage(key, limits, later)).toEqual({ spentUsd: 0.25, requests: 1, tokens: 5 });
    });

    it('reads a limit that is no finite number as none, and one below 0 as 0', async () => {
      await setUp();
      const now = at('2026-11-25T12:00:00Z');
      for (const limits of [{ rpm: Number.NaN }, { tpm: Number.POSITIVE_INFINITY }, { budget: { usd: Number.NaN, period: 'day' as const } }])
        expect((await limiter.admit(key, limits, { now })).allowed).toBe(true);
      expect(await limiter.admit(key, { rpm: -1 }, { now })).toMatchObject({ allowed: false, limit: 'rpm' });
      expect(await limiter.admit(key, { budget: { usd: -5, period: 'day' } }, { now })).toMatchObject({ allowed: false, limit: 'budget' });
    });

    it('counts an unpriced request as $0 and a key without limits only in its counters', async () => {
      await setUp();
      const now = at('2026-11-25T12:00:00Z');
      const ticket = ticketOf(await limiter.admit(key, {}, { reserveUsd: 5, now }));
      await limiter.settle(ticket, { tokens: 70, costUsd: undefined }, now);
      expect(await limiter.usage(key, { budget: { usd: 1, period: 'day' } }, now)).toEqual({ spentUsd: 0, requests: 1, tokens: 70 });
      expect(ticket.key).toBe(key);
    });
  });
}
