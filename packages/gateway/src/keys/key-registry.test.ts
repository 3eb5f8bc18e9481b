import { describe, expect, it } from 'vitest';
import { KeyRegistry } from './key-registry.js';
import { SqliteKeyStore } from './sqlite-key-store.js';
import type { VirtualKey } from './virtual-key.js';

describe('KeyRegistry', () => {
  it('never undoes a revocation another process made after the row was read', async () => {
    const store = new SqliteKeyStore(':memory:');
    const registry = new KeyRegistry(store, { configKeyNames: () => new Set(), now: () => 1_000 });
    await registry.create({ name: 'ci', rpm: 5 });
    const stale = (await store.get('ci')) as VirtualKey;
    // Another process revokes; this one still holds the row it read before.
    await new KeyRegistry(store, { configKeyNames: () => new Set(), now: () => 2_000 }).revoke('ci');
    // A registry whose first read is the stale row, as one that read just before the revocation.
    const behind = () => {
      let reads = 0;
      const reading = {
        get: async (name: string) => (reads++ === 0 ? stale : store.get(name)),
        replace: store.replace.bind(store),
      } as unknown as SqliteKeyStore;
      return new KeyRegistry(reading, { configKeyNames: () => new Set(), now: () => 3_000 });
    };
    await expect(behind().update('ci', { rpm: 10 })).rejects.toThrow('the key ci is revoked');
    await expect(behind().revoke('ci')).resolves.toMatchObject({ name: 'ci', revokedAt: 2_000 });
    expect(await store.get('ci')).toMatchObject({ rpm: 5, revokedAt: 2_000, updatedAt: 2_000 });
    // Replacing a revoked row stays possible where a caller asks for no such guard.
    expect(await store.replace({ ...stale, rpm: 7 })).toBe(true);
  });
});
