import type { StateStore } from './config.js';
import { estimateValueSize } from './value-size.js';

/** Default of {@link MemoryStateStoreOptions.maxBytes}: 64 MiB. */
export const DEFAULT_STATE_STORE_MAX_BYTES = 64 * 1024 * 1024;

/** Default of {@link MemoryStateStoreOptions.maxEntries}. */
export const DEFAULT_STATE_STORE_MAX_ENTRIES = 10_000;

/** Options of {@link MemoryStateStore}. */
export interface MemoryStateStoreOptions {
  /** Most entries kept; the oldest go first. Default 10000. */
  maxEntries?: number;
  /**
   * Most bytes kept, as estimated by `estimateValueSize` (string lengths plus a fixed cost per
   * node); the oldest entries go first, and a single value larger than this is not stored.
   * Default 64 MiB.
   */
  maxBytes?: number;
  /** Default time to live in milliseconds. Default one hour. */
  ttlMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * The default {@link StateStore}: in memory, bounded by entry count, by bytes and by time to
 * live. Measuring a value walks it once (no serialization): see `estimateValueSize`.
 */
export class MemoryStateStore implements StateStore {
  readonly #entries = new Map<string, { value: unknown; expires: number; bytes: number }>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #bytes = 0;

  constructor(options: MemoryStateStoreOptions = {}) {
    this.#maxEntries = options.maxEntries ?? DEFAULT_STATE_STORE_MAX_ENTRIES;
    this.#maxBytes = options.maxBytes ?? DEFAULT_STATE_STORE_MAX_BYTES;
    this.#ttlMs = options.ttlMs ?? 3_600_000;
    this.#now = options.now ?? Date.now;
  }

  /** Entries held. */
  get size(): number {
    return this.#entries.size;
  }

  /** Estimated bytes held (never above `maxBytes`). */
  get bytes(): number {
    return this.#bytes;
  }

  async get(key: string): Promise<unknown | undefined> {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.#now()) {
      this.#delete(key);
      return undefined;
    }
    return entry.value;
  }

  async set(key: string, value: unknown, ttlMs?: number): Promise<void> {
    this.#delete(key);
    const bytes = key.length + estimateValueSize(value, this.#maxBytes);
    if (bytes > this.#maxBytes) return;
    this.#entries.set(key, { value, expires: this.#now() + (ttlMs ?? this.#ttlMs), bytes });
    this.#bytes += bytes;
    while (this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#delete(oldest);
    }
  }

  async delete(key: string): Promise<void> {
    this.#delete(key);
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}
