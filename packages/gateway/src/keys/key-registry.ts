import { applyChanges, type KeyChanges, type NewKey } from './key-input.js';
import type { KeyStore } from './key-store.js';
import { hashSecret, newSecret, SHOWN_PREFIX_CHARS, type VirtualKey } from './virtual-key.js';

/** A refused key operation: 404 (no such key) or 409 (name taken, key revoked). */
export class KeyOperationError extends Error {
  override name = 'KeyOperationError';
  constructor(
    readonly status: 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

/** What the registry needs beyond its store. */
export interface KeyRegistryOptions {
  /** The names of the config's `keys:` (a virtual key may not take one). */
  configKeyNames(): ReadonlySet<string>;
  /** Told after every change, so caches drop the key (this process's, and others' through Redis). */
  changed?(name: string): Promise<void> | void;
  now?(): number;
}

/**
 * Creates, changes and revokes virtual keys: the one place the admin API and the CLI go through,
 * so both keep the same rules (unique names, config names taken, the secret shown once).
 */
export class KeyRegistry {
  private readonly now: () => number;

  constructor(
    readonly store: KeyStore,
    private readonly options: KeyRegistryOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** A new key and its secret, which is returned here only: the store keeps its hash. */
  async create(input: NewKey): Promise<{ key: VirtualKey; secret: string }> {
    const { name, ...changes } = input;
    if (this.options.configKeyNames().has(name)) throw new KeyOperationError(409, `a key named ${name} is in the config file's keys`);
    const secret = newSecret();
    const now = this.now();
    const settings = applyChanges({ models: [], metadata: {}, disabled: false }, changes);
    const key: VirtualKey = { name, hash: hashSecret(secret), prefix: secret.slice(0, SHOWN_PREFIX_CHARS), createdAt: now, updatedAt: now, ...settings };
    if (!(await this.store.insert(key))) throw new KeyOperationError(409, `a key named ${name} exists (revoked keys keep their names)`);
    await this.options.changed?.(name);
    return { key, secret };
  }

  async list(): Promise<VirtualKey[]> {
    return this.store.list();
  }

  async get(name: string): Promise<VirtualKey> {
    const key = await this.store.get(name);
    if (!key) throw new KeyOperationError(404, `no key named ${name}`);
    return key;
  }

  /** Changes a key's settings; a revoked key cannot change (revocation is final). */
  async update(name: string, changes: KeyChanges): Promise<VirtualKey> {
    const current = await this.get(name);
    if (current.revokedAt !== undefined) throw new KeyOperationError(409, `the key ${name} is revoked`);
    const next: VirtualKey = { ...applyChanges(current, changes), updatedAt: this.now() };
    // Revoked meanwhile (another process): the revocation stands.
    if (!(await this.store.replace(next, { unrevoked: true }))) throw new KeyOperationError(409, `the key ${name} is revoked`);
    await this.options.changed?.(name);
    return next;
  }

  /** Revokes a key: refused from now on, its row (and its label in the usage history) kept. Revoking twice changes nothing. */
  async revoke(name: string): Promise<VirtualKey> {
    const current = await this.get(name);
    if (current.revokedAt !== undefined) return current;
    const now = this.now();
    const next: VirtualKey = { ...current, revokedAt: now, updatedAt: now };
    // Revoked meanwhile (another process): that revocation stands, and is the answer.
    if (!(await this.store.replace(next, { unrevoked: true }))) return this.get(name);
    await this.options.changed?.(name);
    return next;
  }
}
