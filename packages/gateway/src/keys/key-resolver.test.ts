import { describe, expect, it } from 'vitest';
import { KeyResolver, NOT_CACHED } from './key-resolver.js';
import { SqliteKeyStore } from './sqlite-key-store.js';
import { hashSecret, newSecret, type VirtualKey } from './virtual-key.js';

function key(name: string, secret: string, extra: Partial<VirtualKey> = {}): VirtualKey {
  return { name, hash: hashSecret(secret), prefix: secret.slice(0, 12), models: [], metadata: {}, disabled: false, createdAt: 1, updatedAt: 1, ...extra };
}

describe('KeyResolver', () => {
  it('trusts what it read for the TTL, then reads again; invalidate forgets at once', async () => {
    const store = new SqliteKeyStore(':memory:');
    let now = 1_000;
    const resolver = new KeyResolver(store, { ttlMs: 5_000, now: () => now });
    const secret = newSecret();
    await store.insert(key('ci', secret));
    expect(await resolver.authenticate(secret)).toEqual({ keyId: 'ci' });
    await store.replace(key('ci', secret, { revokedAt: 2 }));
    now += 4_999;
    expect(await resolver.authenticate(secret)).toEqual({ keyId: 'ci' });
    now += 1;
    expect(await resolver.authenticate(secret)).toEqual({ refused: 'the gateway key ci is revoked', status: 401, keyName: 'ci' });
    await store.replace(key('ci', secret, { disabled: true }));
    await resolver.invalidate();
    expect(await resolver.authenticate(secret)).toEqual({ refused: 'the gateway key ci is disabled', status: 401, keyName: 'ci' });
    expect(await resolver.authenticate('not-a-virtual-key')).toBeUndefined();
    expect(await resolver.authenticate(newSecret())).toBeUndefined();
  });

  it('does not cache a read that an invalidation overtook (it may be stale)', async () => {
    const store = new SqliteKeyStore(':memory:');
    const secret = newSecret();
    await store.insert(key('ci', secret));
    let release: () => void = () => undefined;
    const slow = {
      ...store,
      findByHash: async (hash: string) => {
        const found = await store.findByHash(hash);
        await new Promise<void>((resolve) => (release = resolve));
        return found;
      },
    } as unknown as SqliteKeyStore;
    const resolver = new KeyResolver(slow, { ttlMs: 60_000 });
    const reading = resolver.authenticate(secret);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await store.replace(key('ci', secret, { revokedAt: 5 }));
    void resolver.invalidate();
    release();
    expect(await reading).toEqual({ keyId: 'ci' });
    const next = resolver.authenticate(secret);
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    expect(await next).toEqual({ refused: 'the gateway key ci is revoked', status: 401, keyName: 'ci' });
  });

  it('hashes a presented secret once per read, and hands the admission the same read, expiring with it', async () => {
    const store = new SqliteKeyStore(':memory:');
    const secret = newSecret();
    await store.insert(key('ci', secret, { rpm: 60 }));
    const hashes: string[] = [];
    const names: string[] = [];
    const counting = {
      findByHash: (hash: string) => {
        hashes.push(hash);
        return store.findByHash(hash);
      },
      get: (name: string) => {
        names.push(name);
        return store.get(name);
      },
      any: () => store.any(),
    } as unknown as SqliteKeyStore;
    let now = 1_000;
    const resolver = new KeyResolver(counting, { ttlMs: 5_000, now: () => now });
    expect(resolver.cachedByName('ci')).toBe(NOT_CACHED);
    expect(await resolver.authenticate(secret)).toEqual({ keyId: 'ci' });
    expect(resolver.cachedByName('ci')).toMatchObject({ name: 'ci', rpm: 60 });
    now = 5_999;
    expect(await resolver.authenticate(secret)).toEqual({ keyId: 'ci' });
    expect(await resolver.byName('ci')).toMatchObject({ name: 'ci', rpm: 60 });
    expect(hashes).toEqual([hashSecret(secret)]);
    expect(names).toEqual([]);
    // Read at 1,000 with a 5,000 ms TTL: authenticating again at 5,999 did not stretch it.
    now = 6_000;
    expect(resolver.cachedByName('ci')).toBe(NOT_CACHED);
    expect(await resolver.authenticate(secret)).toEqual({ keyId: 'ci' });
    expect(hashes).toEqual([hashSecret(secret), hashSecret(secret)]);
    expect(resolver.cachedByName('nobody')).toBe(NOT_CACHED);
    expect(await resolver.byName('nobody')).toBeUndefined();
    expect(resolver.cachedByName('nobody')).toBeUndefined();
    expect(names).toEqual(['nobody']);
    await resolver.invalidate();
    expect(resolver.cachedByName('ci')).toBe(NOT_CACHED);
  });

  it('requires a key once any key exists, a revoked one too', async () => {
    const store = new SqliteKeyStore(':memory:');
    const resolver = new KeyResolver(store);
    await resolver.start();
    expect(resolver.required()).toBe(false);
    await store.insert(key('gone', newSecret(), { revokedAt: 1 }));
    await resolver.invalidate();
    expect(resolver.required()).toBe(true);
  });
});
