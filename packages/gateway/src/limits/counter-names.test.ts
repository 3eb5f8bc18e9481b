import { describe, expect, it } from 'vitest';
import { CounterNamesByKey, KeyCounterNames, MAX_NAMED_KEYS } from './counter-names.js';

const NOV_25 = Date.parse('2026-11-25T12:00:00Z');
const DAY = 86_400_000;

describe('KeyCounterNames', () => {
  it('names a key’s minute counters once per minute, kept a minute past its end', () => {
    const names = new KeyCounterNames('ci team');
    const minute = NOV_25;
    const requests = names.requests(minute);
    expect(requests).toEqual({ name: `{ci%20team}:requests:${minute}`, expiresAt: minute + 120_000 });
    expect(names.tokens(minute)).toEqual({ name: `{ci%20team}:tokens:${minute}`, expiresAt: minute + 120_000 });
    expect(names.requests(minute)).toBe(requests);
    expect(names.requests(minute + 60_000)).toEqual({ name: `{ci%20team}:requests:${minute + 60_000}`, expiresAt: minute + 180_000 });
    expect(names.holds).toBe('{ci%20team}:holds');
  });

  it('names the spend of every period holding now, kept a day past the period (total: never expires)', () => {
    const names = new KeyCounterNames('k');
    expect(names.everySpent(NOV_25)).toEqual([
      { name: '{k}:spent:day:2026-11-25', expiresAt: Date.parse('2026-11-26T00:00:00Z') + DAY },
      { name: '{k}:spent:week:2026-11-23', expiresAt: Date.parse('2026-11-30T00:00:00Z') + DAY },
      { name: '{k}:spent:month:2026-11', expiresAt: Date.parse('2026-12-01T00:00:00Z') + DAY },
      { name: '{k}:spent:total', expiresAt: undefined },
    ]);
    const day = names.spent('day', NOV_25);
    expect(names.spent('day', NOV_25 + 1_000)).toBe(day);
    expect(names.spent('day', NOV_25 + DAY)).toEqual({ name: '{k}:spent:day:2026-11-26', expiresAt: Date.parse('2026-11-27T00:00:00Z') + DAY });
    // Back to an earlier day (a caller's own clock): named for that day again, never the last one's.
    expect(names.spent('day', NOV_25)).toEqual(day);
  });
});

describe('CounterNamesByKey', () => {
  it('keeps one KeyCounterNames per key, and starts again empty past its bound', () => {
    const byKey = new CounterNamesByKey();
    const first = byKey.of('a');
    expect(byKey.of('a')).toBe(first);
    for (let i = 1; i < MAX_NAMED_KEYS; i++) byKey.of(`k${i}`);
    expect(byKey.of('a')).toBe(first);
    byKey.of('one-past-the-bound');
    expect(byKey.of('a')).not.toBe(first);
    expect(byKey.of('a').holds).toBe('{a}:holds');
  });
});
