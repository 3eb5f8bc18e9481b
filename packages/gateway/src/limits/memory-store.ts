import { type CounterTable, admitIn, readIn, settleIn } from './counter-table.js';
import type { AdmitPlan, AdmitVerdict, LimitStore, ReadPlan, SettlePlan } from './limit-store.js';
import { MINUTE_MS } from './periods.js';

interface Counter {
  value: number;
  expiresAt: number | undefined;
}

/** Counters in this process's memory: one gateway process, tests, `ledger: false` setups. */
export class MemoryLimitStore implements LimitStore, CounterTable {
  readonly kind = 'memory';
  private readonly counters = new Map<string, Counter>();
  private readonly holds = new Map<string, Map<string, { nano: number; expiresAt: number }>>();
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
    const value = counter && !expired(counter.expiresAt, now) ? counter.value + delta : delta;
    this.counters.set(name, { value, expiresAt });
  }

  held(holds: string, now: number): number {
    let sum = 0;
    for (const hold of this.holds.get(holds)?.values() ?? []) if (!expired(hold.expiresAt, now)) sum += hold.nano;
    return sum;
  }

  hold(holds: string, id: string, nano: number, expiresAt: number): void {
    let key = this.holds.get(holds);
    if (!key) this.holds.set(holds, (key = new Map()));
    key.set(id, { nano, expiresAt });
  }

  release(holds: string, id: string): void {
    const key = this.holds.get(holds);
    key?.delete(id);
    if (key?.size === 0) this.holds.delete(holds);
  }

  /** Forgets expired counters and reservations, at most once a minute, so memory stays bounded by the keys in use. */
  private sweep(now: number): void {
    if (now - this.sweptAt < MINUTE_MS) return;
    this.sweptAt = now;
    for (const [name, counter] of this.counters) if (expired(counter.expiresAt, now)) this.counters.delete(name);
    for (const [holds, key] of this.holds) {
      for (const [id, hold] of key) if (expired(hold.expiresAt, now)) key.delete(id);
      if (key.size === 0) this.holds.delete(holds);
    }
  }
}

function expired(expiresAt: number | undefined, now: number): boolean {
  return expiresAt !== undefined && expiresAt <= now;
}
