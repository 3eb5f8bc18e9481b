import type { StateStore } from './config.js';

/** Default of `RouterConfig.maxStoredTurnsPerOwner`: a tenth of the default store's 10,000 entries. */
export const DEFAULT_MAX_STORED_TURNS_PER_OWNER = 1000;

/** Owners tracked at once; past it the least recently storing owner's list is forgotten. */
const MAX_TRACKED_OWNERS = 10_000;

/**
 * A per-owner cap on the continuation state the router stores (`previous_response_id` turns and
 * `owner:<id>` records), so that one client key sending many small requests cannot evict every
 * other key's state from a shared store's oldest-first eviction. Each owner's keys are listed in
 * the order stored; past the cap the owner's oldest is deleted from the store, if it still
 * belongs to that owner (an upstream that reuses ids may have given it to another since).
 *
 * Works only with a store that has `delete` (the default `MemoryStateStore` has); in memory per
 * router (each instance in front of a shared store caps on its own). No cap for an open router's
 * one shared owner (no `clientKeyId`): the store's own limits apply. Costs one map lookup per
 * stored key.
 */
export class OwnerQuota {
  readonly #keysByOwner = new Map<string, string[]>();

  constructor(
    private readonly store: StateStore,
    private readonly maxPerOwner: number,
    /** The owner recorded in a stored value (undefined when it has none). */
    private readonly ownerOf: (value: unknown) => string | undefined,
  ) {}

  /** Counts `key`, just stored for `owner`; deletes the owner's oldest key past the cap. */
  add(owner: string | undefined, key: string): void {
    const { store } = this;
    if (owner === undefined || !store.delete) return;
    let keys = this.#keysByOwner.get(owner);
    if (keys) this.#keysByOwner.delete(owner);
    else keys = [];
    // Map order is recency of storing: the first owner is the one to forget when too many.
    this.#keysByOwner.set(owner, keys);
    if (this.#keysByOwner.size > MAX_TRACKED_OWNERS) this.#keysByOwner.delete(this.#keysByOwner.keys().next().value as string);
    keys.push(key);
    while (keys.length > this.maxPerOwner) void this.#evict(owner, keys.shift() as string).catch(() => undefined);
  }

  async #evict(owner: string, key: string): Promise<void> {
    if (this.ownerOf(await this.store.get(key)) === owner) await this.store.delete?.(key);
  }
}
