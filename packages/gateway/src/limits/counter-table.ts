import type { AdmitPlan, AdmitVerdict, ReadPlan, SettlePlan } from './limit-store.js';

/**
 * Counters and reservations read and written synchronously inside one transaction: the memory
 * and SQLite backends implement this, and share the check-and-count logic below (the Redis
 * backend runs the same steps as a Lua script).
 */
export interface CounterTable {
  /** The counter's value, 0 when missing or expired. */
  get(name: string, now: number): number;
  /** Adds to the counter (starting from 0 when missing or expired) and sets its expiry. */
  add(name: string, delta: number, expiresAt: number | undefined, now: number): void;
  /** The sum of the unexpired reservations of `holds`. */
  held(holds: string, now: number): number;
  hold(holds: string, id: string, nano: number, expiresAt: number): void;
  release(holds: string, id: string): void;
}

export function admitIn(table: CounterTable, plan: AdmitPlan): AdmitVerdict {
  const { now, budget } = plan;
  if (plan.rpm !== undefined && table.get(plan.requests.name, now) >= plan.rpm) return 'rpm';
  if (plan.tpm !== undefined && table.get(plan.tokens.name, now) >= plan.tpm) return 'tpm';
  if (budget) {
    if (table.get(budget.spent.name, now) + table.held(budget.holds, now) >= budget.limitNano) return 'budget';
    if (budget.hold) table.hold(budget.holds, budget.hold.id, budget.hold.nano, budget.hold.expiresAt);
  }
  table.add(plan.requests.name, 1, plan.requests.expiresAt, now);
  return 'ok';
}

export function settleIn(table: CounterTable, plan: SettlePlan): void {
  if (plan.release) table.release(plan.release.holds, plan.release.id);
  if (plan.tokenCount > 0) table.add(plan.tokens.name, plan.tokenCount, plan.tokens.expiresAt, plan.now);
  if (plan.costNano > 0) for (const spent of plan.spent) table.add(spent.name, plan.costNano, spent.expiresAt, plan.now);
}

export function readIn(table: CounterTable, plan: ReadPlan): { spentNano: number; requests: number; tokens: number } {
  return {
    spentNano: plan.spent === undefined ? 0 : table.get(plan.spent, plan.now),
    requests: table.get(plan.requests, plan.now),
    tokens: table.get(plan.tokens, plan.now),
  };
}
