import { type CounterTable, admitIn, readIn, settleIn } from './counter-table.js';
import type { AdmitPlan, AdmitVerdict, LimitStore, ReadPlan, SettlePlan } from './limit-store.js';
import { MINUTE_MS } from './periods.js';

interface Counter {
  value: number;
  expiresAt: number | undefined;
}

/**
 * One key's reservations with their sum, so an admission reads one number instead of adding up
 * every request in flight; the sum is made again only once one of them expired.
 */
interface Holds {
  byId: Map<string, { nano: number; expiresAt: number }>;
  nano: number;
  /** The earliest expiry among them: before it, `nano` is every one's sum. */
  soonest: number;
}

/** Counters in this process's memory: one gateway process, tests, `ledger: false` setups. */
export class MemoryLimitStore implements LimitStore, CounterTable {
  readonly kind = 'memory';
  private readonly counters = new Map<string, Counter>();
  private readonly holds = new Map<string, Holds>();
  private sweptAt = 0;

  async admit(plan: AdmitPlan): Promise<AdmitVerdict> {
    this.sweep(plan.now);
    return admitIn(this, plan);
  }

  async settle(plan: SettlePlan): Promise<void> {
    settleIn(this, plan);
  }

  async read(plan: ReadPlan): Promise<{ spentNano: number; requests: number; tokens: number }> {
    return readIn(this, plan);
  }

  async close(): Promise<void> {
    this.counters.clear();
    this.holds.clear();
  }

  get(name: string, now: number): number {
    const counter = this.counters.get(name);
    return counter && !expired(counter.expiresAt, now) ? counter.value : 0;
  }

  add(name: string, delta: number, expiresAt: number | undefined, now: number): void {
    const counter = this.counters.get(name);
    if (!counter) {
      this.counters.set(name, { value: delta, expiresAt });
      return;
    }
    // Changed in place: a request's counts allocate nothing once its counters exist.
    counter.value = expired(counter.expiresAt, now) ? delta : counter.value + delta;
    counter.expiresAt = expiresAt;
  }

  held(holds: string, now: number): number {
    const key = this.holds.get(holds);
    if (!key) return 0;
    if (now >= key.soonest) forgetExpired(key, now);
    return key.nano;
  }

  hold(holds: string, id: string, nano: number, expiresAt: number): void {
    let key = this.holds.get(holds);
    if (!key) this.holds.set(holds, (key = { byId: new Map(), nano: 0, soonest: Number.POSITIVE_INFINITY }));
    const replaced = key.byId.get(id);
    if (replaced) key.nano -= replaced.nano;
    key.byId.set(id, { nano, expiresAt });
    key.nano += nano;
    key.soonest = Math.min(key.soonest, expiresAt);
  }

  release(holds: string, id: string): void {
    const key = this.holds.get(holds);
    const hold = key?.byId.get(id);
    if (!key || !hold) return;
    key.byId.delete(id);
    key.nano -= hold.nano;
    if (key.byId.size === 0) this.holds.delete(holds);
  }

  /** Forgets expired counters and reservations, at most once a minute, so memory stays bounded by the keys in use. */
  private sweep(now: number): void {
    if (now - this.sweptAt < MINUTE_MS) return;
    this.sweptAt = now;
    for (const [name, counter] of this.counters) if (expired(counter.expiresAt, now)) this.counters.delete(name);
    for (const [holds, key] of this.holds) {
      forgetExpired(key, now);
      if (key.byId.size === 0) this.holds.delete(holds);
    }
  }
}

/** Drops a key's expired reservations and sums the rest again (whole nano-dollars: the sum stays exact). */
function forgetExpired(key: Holds, now: number): void {
  let nano = 0;
  let soonest = Number.POSITIVE_INFINITY;
  for (const [id, hold] of key.byId) {
    if (expired(hold.expiresAt, now)) key.byId.delete(id);
    else {
      nano += hold.nano;
      soonest = Math.min(soonest, hold.expiresAt);
    }
  }
  key.nano = nano;
  key.soonest = soonest;
}

function expired(expiresAt: number | undefined, now: number): boolean {
  return expiresAt !== undefined && expiresAt <= now;
}
