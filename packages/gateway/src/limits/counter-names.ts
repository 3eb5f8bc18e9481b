import type { CounterRef } from './limit-store.js';
import type { BudgetPeriod } from './limiter.js';
import { BUDGET_PERIODS, MINUTE_MS, type BudgetPeriodSpan, budgetPeriod } from './periods.js';

/** Keys whose counter names are kept, at most (default 10,000); past it the cache starts again empty. */
export const MAX_NAMED_KEYS = 10_000;
/** How long a spent counter outlives its period: a day, so a report just after midnight still reads it. */
const SPENT_KEPT_MS = 86_400_000;

/**
 * The counter names of one key, made once per minute or budget period instead of once per
 * request (string building was a third of the memory store's cost). The `{...}` hash tag keeps a
 * key's counters on one Redis Cluster slot, as a script needs.
 */
export class KeyCounterNames {
  readonly holds: string;
  private readonly base: string;
  private minute = Number.NaN;
  private requestsRef: CounterRef | undefined;
  private tokensRef: CounterRef | undefined;
  private readonly spentRefs = new Map<BudgetPeriod, { span: BudgetPeriodSpan; ref: CounterRef }>();

  constructor(key: string) {
    this.base = `{${encodeURIComponent(key)}}`;
    this.holds = `${this.base}:holds`;
  }

  /** Requests in the minute starting at `minute`, kept a minute past its end. */
  requests(minute: number): CounterRef {
    this.toMinute(minute);
    return this.requestsRef as CounterRef;
  }

  /** Tokens in the minute starting at `minute`, kept a minute past its end. */
  tokens(minute: number): CounterRef {
    this.toMinute(minute);
    return this.tokensRef as CounterRef;
  }

  /** Spend in the `period` holding `now`. */
  spent(period: BudgetPeriod, now: number): CounterRef {
    const span = budgetPeriod(period, now);
    const known = this.spentRefs.get(period);
    if (known?.span === span) return known.ref;
    const ref = { name: `${this.base}:spent:${span.id}`, expiresAt: span.end === undefined ? undefined : span.end + SPENT_KEPT_MS };
    this.spentRefs.set(period, { span, ref });
    return ref;
  }

  /** Spend in every period holding `now` (a settle counts each). */
  everySpent(now: number): CounterRef[] {
    return BUDGET_PERIODS.map((period) => this.spent(period, now));
  }

  private toMinute(minute: number): void {
    if (minute === this.minute) return;
    this.minute = minute;
    const expiresAt = minute + 2 * MINUTE_MS;
    this.requestsRef = { name: `${this.base}:requests:${minute}`, expiresAt };
    this.tokensRef = { name: `${this.base}:tokens:${minute}`, expiresAt };
  }
}

/** Each key's {@link KeyCounterNames}, bounded by {@link MAX_NAMED_KEYS}. */
export class CounterNamesByKey {
  private readonly byKey = new Map<string, KeyCounterNames>();

  of(key: string): KeyCounterNames {
    let names = this.byKey.get(key);
    if (names) return names;
    if (this.byKey.size >= MAX_NAMED_KEYS) this.byKey.clear();
    names = new KeyCounterNames(key);
    this.byKey.set(key, names);
    return names;
  }
}
