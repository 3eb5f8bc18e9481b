import { describe, expect, it } from 'vitest';
import { MemoryLimitStore } from './memory-store.js';

describe('MemoryLimitStore reservations', () => {
  it('sums the unexpired ones exactly through holds, releases, replacements and expiries', () => {
    const store = new MemoryLimitStore();
    expect(store.held('{k}:holds', 0)).toBe(0);
    store.hold('{k}:holds', 'a', 300, 1_000);
    store.hold('{k}:holds', 'b', 50, 2_000);
    store.hold('{k}:holds', 'c', 7, 3_000);
    expect(store.held('{k}:holds', 999)).toBe(357);
    store.release('{k}:holds', 'b');
    store.release('{k}:holds', 'b');
    store.release('{k}:holds', 'never-held');
    expect(store.held('{k}:holds', 999)).toBe(307);
    // `a` expires at 1,000: gone from the sum from then on.
    expect(store.held('{k}:holds', 1_000)).toBe(7);
    store.hold('{k}:holds', 'c', 20, 3_000);
    expect(store.held('{k}:holds', 1_500)).toBe(20);
    store.hold('{k}:holds', 'd', 1, 1_600);
    expect(store.held('{k}:holds', 1_599)).toBe(21);
    expect(store.held('{k}:holds', 1_600)).toBe(20);
    expect(store.held('{k}:holds', 3_000)).toBe(0);
    expect(store.held('{other}:holds', 0)).toBe(0);
  });
});

describe('MemoryLimitStore counters', () => {
  it('add to a live counter, and start again from the delta once it expired', () => {
    const store = new MemoryLimitStore();
    store.add('{k}:tokens:0', 5, 1_000, 0);
    store.add('{k}:tokens:0', 6, 1_000, 10);
    expect(store.get('{k}:tokens:0', 999)).toBe(11);
    expect(store.get('{k}:tokens:0', 1_000)).toBe(0);
    store.add('{k}:tokens:0', 4, 2_000, 1_000);
    expect(store.get('{k}:tokens:0', 1_999)).toBe(4);
    store.add('{k}:spent:total', 9, undefined, 0);
    expect(store.get('{k}:spent:total', Number.MAX_SAFE_INTEGER)).toBe(9);
  });
});
