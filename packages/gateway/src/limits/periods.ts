import type { BudgetPeriod } from './limiter.js';

/** Rate limits count in fixed UTC minutes: `[start, start + MINUTE_MS)`. */
export const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The fixed one-minute window holding `now`. */
export function minuteWindow(now: number): { start: number; end: number } {
  const start = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  return { start, end: start + MINUTE_MS };
}

/** One UTC calendar period of a budget: `[start, end)`; `total` runs from -Infinity and never ends. */
export interface BudgetPeriodSpan {
  /** Part of the counter's name: `day:2026-11-25`, `week:2026-11-23` (its Monday), `month:2026-11`, `total`. */
  readonly id: string;
  readonly start: number;
  readonly end: number | undefined;
}

/** The period of a budget holding `now`. */
export function budgetPeriod(period: BudgetPeriod, now: number): BudgetPeriodSpan {
  // Every settle names all four periods: the last span of each is reused while `now` stays in it.
  const last = lastSpans[period];
  if (last && now >= last.start && now < (last.end ?? Number.POSITIVE_INFINITY)) return last;
  const span = calendarPeriod(period, now);
  lastSpans[period] = span;
  return span;
}

const lastSpans: Partial<Record<BudgetPeriod, BudgetPeriodSpan>> = {};

function calendarPeriod(period: BudgetPeriod, now: number): BudgetPeriodSpan {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const dayStart = Date.UTC(year, month, date.getUTCDate());
  switch (period) {
    case 'day':
      return { id: `day:${isoDate(dayStart)}`, start: dayStart, end: dayStart + DAY_MS };
    case 'week': {
      const monday = dayStart - ((date.getUTCDay() + 6) % 7) * DAY_MS;
      return { id: `week:${isoDate(monday)}`, start: monday, end: monday + 7 * DAY_MS };
    }
    case 'month': {
      const first = Date.UTC(year, month, 1);
      return { id: `month:${isoDate(first).slice(0, 7)}`, start: first, end: Date.UTC(year, month + 1, 1) };
    }
    case 'total':
      return { id: 'total', start: Number.NEGATIVE_INFINITY, end: undefined };
  }
}

/** Every budget period: spend is counted in each, so a key whose budget period changes keeps its spend. */
export const BUDGET_PERIODS: readonly BudgetPeriod[] = ['day', 'week', 'month', 'total'];

/** Whole seconds until `end`, at least 1 (a `retry-after` of 0 invites a retry storm). */
export function secondsUntil(end: number, now: number): number {
  return Math.max(1, Math.ceil((end - now) / 1000));
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
