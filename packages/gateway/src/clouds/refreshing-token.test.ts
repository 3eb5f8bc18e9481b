import { describe, expect, it } from 'vitest';
import { RefreshingToken } from './refreshing-token.js';

describe('RefreshingToken', () => {
  it('reuses a token until its refresh margin, then fetches a new one', async () => {
    let now = 0;
    let issued = 0;
    const token = new RefreshingToken(
      async () => ({ token: `t${++issued}`, lifetimeMs: 3_600_000 }),
      () => now,
    );
    expect(await token.get()).toBe('t1');
    now = 3_600_000 - 300_001;
    expect(await token.get()).toBe('t1');
    now = 3_600_000 - 300_000;
    expect(await token.get()).toBe('t2');
    expect(issued).toBe(2);
  });

  it('replaces a short-lived token at half its life', async () => {
    let now = 0;
    let issued = 0;
    const token = new RefreshingToken(
      async () => ({ token: `t${++issued}`, lifetimeMs: 2_000 }),
      () => now,
    );
    await token.get();
    now = 999;
    expect(await token.get()).toBe('t1');
    now = 1_000;
    expect(await token.get()).toBe('t2');
  });

  it('shares one fetch among concurrent callers and does not cache a failure', async () => {
    let calls = 0;
    const token = new RefreshingToken(async () => {
      calls++;
      if (calls === 1) throw new Error('token endpoint down');
      return { token: 'ok', lifetimeMs: 3_600_000 };
    });
    const first = await Promise.allSettled([token.get(), token.get()]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
    expect(await Promise.all([token.get(), token.get()])).toEqual(['ok', 'ok']);
    expect(calls).toBe(2);
  });
});
