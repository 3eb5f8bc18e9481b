import type { KeyStore } from './key-store.js';
import { hashSecret, keyRefusal, SECRET_PREFIX, type VirtualKey } from './virtual-key.js';

/** How long a gateway trusts what it read of a key (default 5000 ms): the bound on how late it sees a change made elsewhere without Redis. */
export const DEFAULT_KEY_CACHE_TTL_MS = 5_000;
/** Keys (and unknown secrets) remembered at most (default 10,000); past it the cache starts again empty. */
export const MAX_CACHED_KEYS = 10_000;

/**
 * How a presented secret fared: a key's name, a refusal (401 naming the key, which labels the
 * refused request's ledger row; or 503 when the store is down), or not a virtual key at all.
 */
export type KeyAuthentication = { keyId: string } | { refused: string; status: 401 | 503; keyName?: string } | undefined;

interface Cached {
  key: VirtualKey | undefined;
  until: number;
}

/**
 * Reads keys for requests, through a short cache: by secret hash (authentication) and by name
 * (the admission that follows). Another process's change is seen within the cache's TTL, or at
 * once when {@link invalidate} is called (this process's writes, and Redis messages from others).
 */
export class KeyResolver {
  private readonly byHash = new Map<string, Cached>();
  private readonly byNameCache = new Map<string, Cached>();
  private anyKeys = false;
  private anyUntil = 0;
  private anyReading: Promise<void> | undefined;
  /** Counts invalidations: a read begun before one is not cached after it (it may be stale). */
  private generation = 0;

  constructor(
    private readonly store: KeyStore,
    private readonly options: { ttlMs?: number; now?: () => number; onError?: (error: unknown) => void } = {},
  ) {}

  private get ttl(): number {
    return this.options.ttlMs ?? DEFAULT_KEY_CACHE_TTL_MS;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Reads whether any key exists (call once before serving). */
  async start(): Promise<void> {
    await this.readAny();
  }

  /**
   * Whether every request must present a key: once any virtual key was created (a revoked one
   * too, so revoking the last key never opens the gateway). Answered from memory; refreshed in
   * the background every TTL.
   */
  required(): boolean {
    if (this.now() >= this.anyUntil) this.anyReading ??= this.readAny().finally(() => (this.anyReading = undefined));
    return this.anyKeys;
  }

  /** The key a client presents: undefined when it is no virtual key's secret form, or no key's. */
  async authenticate(presented: string): Promise<KeyAuthentication> {
    if (!presented.startsWith(SECRET_PREFIX)) return undefined;
    const hash = hashSecret(presented);
    let key: VirtualKey | undefined;
    try {
      key = await this.cached(this.byHash, hash, () => this.store.findByHash(hash));
    } catch (error) {
      this.options.onError?.(error);
      return { refused: 'the gateway cannot check keys now (its key store is unreachable)', status: 503 };
    }
    if (!key) return undefined;
    this.remember(this.byNameCache, key.name, key);
    const refusal = keyRefusal(key, this.now());
    return refusal ? { refused: `the gateway key ${key.name} is ${refusal}`, status: 401, keyName: key.name } : { keyId: key.name };
  }

  /** A virtual key by name (undefined for a config key's name). */
  async byName(name: string): Promise<VirtualKey | undefined> {
    return this.cached(this.byNameCache, name, () => this.store.get(name));
  }

  /** Forgets everything read (the next requests read the store) and reads again whether any key exists. */
  invalidate(): Promise<void> {
    this.byHash.clear();
    this.byNameCache.clear();
    this.generation++;
    return this.readAny();
  }

  private async cached(cache: Map<string, Cached>, id: string, read: () => Promise<VirtualKey | undefined>): Promise<VirtualKey | undefined> {
    const hit = cache.get(id);
    if (hit && this.now() < hit.until) return hit.key;
    const generation = this.generation;
    const key = await read();
    if (generation === this.generation) this.remember(cache, id, key);
    return key;
  }

  private remember(cache: Map<string, Cached>, id: string, key: VirtualKey | undefined): void {
    if (cache.size >= MAX_CACHED_KEYS) cache.clear();
    cache.set(id, { key, until: this.now() + this.ttl });
  }

  private async readAny(): Promise<void> {
    try {
      this.anyKeys = this.anyKeys || (await this.store.any());
    } catch (error) {
      this.options.onError?.(error);
    }
    this.anyUntil = this.now() + this.ttl;
  }
}
