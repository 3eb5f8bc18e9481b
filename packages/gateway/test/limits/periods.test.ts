import { describe, expect, it } from 'vitest';
import { budgetPeriod, minuteWindow, secondsUntil } from '../../src/limits/periods.js';

const at = (iso: string) => Date.parse(iso);

describe('limit windows and budget periods (UTC)', () => {
  it('puts a moment in its fixed UTC minute', () => {
    expect(minuteWindow(at('2026-11-25T12:00:59.999Z'))).toEqual({ start: at('2026-11-25T12:00:00Z'), end: at('2026-11-25T12:01:00Z') });
    expect(minuteWindow(at('2026-11-25T12:01:00Z'))).toEqual({ start: at('2026-11-25T12:01:00Z'), end: at('2026-11-25T12:02:00Z') });
  });

  it('names days, Monday weeks, months and the total', () => {
    expect(budgetPeriod('day', at('2026-11-25T23:59:59.999Z'))).toEqual({
      id: 'day:2026-11-25',
      start: at('2026-11-25T00:00:00Z'),
      end: at('2026-11-26T00:00:00Z'),
    });
    // Wednesday 25 November: its week began on Monday the 23rd; Sunday the 29th is still in it.
    expect(budgetPeriod('week', at('2026-11-25T10:00:00Z'))).toEqual({
      id: 'week:2026-11-23',
      start: at('2026-11-23T00:00:00Z'),
      end: at('2026-11-30T00:00:00Z'),
    });
    expect(budgetPeriod('week', at('2026-11-29T23:59:59Z'))).toEqual({
      id: 'week:2026-11-23',
      start: at('2026-11-23T00:00:00Z'),
      end: at('2026-11-30T00:00:00Z'),
    });
    expect(budgetPeriod('week', at('2026-11-30T00:00:00Z'))).toEqual({
      id: 'week:2026-11-30',
      start: at('2026-11-30T00:00:00Z'),
      end: at('2026-12-07T00:00:00Z'),
    });
    // A week across a year's end keeps its Monday's id.
    expect(budgetPeriod('week', at('2027-01-01T08:00:00Z'))).toEqual({
      id: 'week:2026-12-28',
      start: at('2026-12-28T00:00:00Z'),
      end: at('2027-01-04T00:00:00Z'),
    });
    expect(budgetPeriod('month', at('2026-12-31T23:59:59Z'))).toEqual({
      id: 'month:2026-12',
      start: at('2026-12-01T00:00:00Z'),
      end: at('2027-01-01T00:00:00Z'),
    });
    expect(budgetPeriod('month', at('2028-02-29T12:00:00Z'))).toEqual({
      id: 'month:2028-02',
      start: at('2028-02-01T00:00:00Z'),
      end: at('2028-03-01T00:00:00Z'),
    });
    expect(budgetPeriod('total', at('2026-11-25T10:00:00Z'))).toEqual({ id: 'total', start: Number.NEGATIVE_INFINITY, end: undefined });
  });

  it('gives the same span again while a moment stays in it, and the next one after its end', () => {
    const first = budgetPeriod('day', at('2026-11-25T01:00:00Z'));
    expect(budgetPeriod('day', at('2026-11-25T23:59:59.999Z'))).toBe(first);
    expect(budgetPeriod('day', at('2026-11-26T00:00:00Z')).id).toBe('day:2026-11-26');
    expect(budgetPeriod('day', at('2026-11-24T12:00:00Z')).id).toBe('day:2026-11-24');
  });

  it('rounds a retry-after up to whole seconds, never below 1', () => {
    expect(secondsUntil(10_000, 0)).toBe(10);
    expect(secondsUntil(10_000, 1)).toBe(10);
    expect(secondsUntil(10_000, 9_999)).toBe(1);
    expect(secondsUntil(10_000, 10_000)).toBe(1);
  });
});
