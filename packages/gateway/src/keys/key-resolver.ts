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

/** {@link KeyResolver.cachedByName}'s answer when the cache holds nothing fresh of the name. */
export const NOT_CACHED: unique symbol = Symbol('not cached');

interface Cached {
  key: VirtualKey | undefined;
  until: number;
}

/**
 * Reads keys for requests, through a short cache: by the secret as presented (authentication) and
 * by name (the admission that follows). Another process's change is seen within the cache's TTL,
 * or at once when {@link invalidate} is called (this process's writes, and Redis messages from others).
 */
export class KeyResolver {
  /**
   * By the secret as the client presented it, not its hash: a hit then costs no SHA-256 (~3 µs,
   * most of a key's per-request cost). The secret is in the request's headers anyway; the store
   * still sees only its hash.
   */
  private readonly bySecret = new Map<string, Cached>();
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
    let entry = this.fresh(this.bySecret, presented);
    if (!entry) {
      try {
        entry = await this.read(this.bySecret, presented, () => this.store.findByHash(hashSecret(presented)));
      } catch (error) {
        this.options.onError?.(error);
        return { refused: 'the gateway cannot check keys now (its key store is unreachable)', status: 503 };
      }
    }
    const { key } = entry;
    if (!key) return undefined;
    // The admission that follows asks by name: the same entry, so it expires when this read does.
    if (this.bySecret.get(presented) === entry) this.keep(this.byNameCache, key.name, entry);
    const refusal = keyRefusal(key, this.now());
    return refusal ? { refused: `the gateway key ${key.name} is ${refusal}`, status: 401, keyName: key.name } : { keyId: key.name };
  }

  /** A virtual key by name (undefined for a config key's name). */
  async byName(name: string): Promise<VirtualKey | undefined> {
    return this.cached(this.byNameCache, name, () => this.store.get(name));
  }

  /**
   * What the cache holds of a name, without a read: the key (or undefined for no key), or
   * {@link NOT_CACHED}. The admission right after authentication finds it there, so it skips
   * {@link byName}'s await.
   */
  cachedByName(name: string): VirtualKey | undefined | typeof NOT_CACHED {
    const hit = this.fresh(this.byNameCache, name);
    return hit ? hit.key : NOT_CACHED;
  }

  /** Forgets everything read (the next requests read the store) and reads again whether any key exists. */
  invalidate(): Promise<void> {
    this.bySecret.clear();
    this.byNameCache.clear();
    this.generation++;
    return this.readAny();
  }

  private async cached(cache: Map<string, Cached>, id: string, read: () => Promise<VirtualKey | undefined>): Promise<VirtualKey | undefined> {
    return (this.fresh(cache, id) ?? (await this.read(cache, id, read))).key;
  }

  private fresh(cache: Map<string, Cached>, id: string): Cached | undefined {
    const hit = cache.get(id);
    return hit && this.now() < hit.until ? hit : undefined;
  }

  /** Reads the store, and caches what it read unless an invalidation came meanwhile. */
  private async read(cache: Map<string, Cached>, id: string, read: () => Promise<VirtualKey | undefined>): Promise<Cached> {
    const generation = this.generation;
    const entry = { key: await read(), until: 0 };
    entry.until = this.now() + this.ttl;
    if (generation === this.generation) this.keep(cache, id, entry);
    return entry;
  }

  private keep(cache: Map<string, Cached>, id: string, entry: Cached): void {
    if (cache.size >= MAX_CACHED_KEYS) cache.clear();
    cache.set(id, entry);
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
