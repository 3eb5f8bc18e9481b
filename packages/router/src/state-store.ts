import type { StateStore } from './config.js';

/** Options of {@link MemoryStateStore}. */
export interface MemoryStateStoreOptions {
  /** Most entries kept; the oldest go first. Default 1000. */
  maxEntries?: number;
  /** Default time to live in milliseconds. Default one hour. */
  ttlMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/** The default {@link StateStore}: in memory, bounded by entry count and time to live. */
export class MemoryStateStore implements StateStore {
  readonly #entries = new Map<string, { value: unknown; expires: number }>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(options: MemoryStateStoreOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 1000;
    this.#ttlMs = options.ttlMs ?? 3_600_000;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  async get(key: string): Promise<unknown | undefined> {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  async set(key: string, value: unknown, ttlMs?: number): Promise<void> {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expires: this.#now() + (ttlMs ?? this.#ttlMs) });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }
}
