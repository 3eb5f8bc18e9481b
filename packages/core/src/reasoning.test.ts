import { describe, expect, it } from 'vitest';
import { REASONING_EFFORTS, anthropicThinkingBudget, budgetToEffort, effortToBudget } from './reasoning.js';

describe('effortToBudget', () => {
  it('follows the documented table', () => {
    expect(REASONING_EFFORTS.map((effort) => [effort, effortToBudget(effort)])).toEqual([
      ['none', 0],
      ['minimal', 1024],
      ['low', 2048],
      ['medium', 8192],
      ['high', 16384],
      ['xhigh', 32768],
      ['max', 65536],
    ]);
  });
  it('uses the model maximum for max when known', () => {
    expect(effortToBudget('max', 128000)).toBe(128000);
  });
});

describe('budgetToEffort', () => {
  it('maps every table budget back to its level', () => {
    for (const effort of ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const) {
      expect(budgetToEffort(effortToBudget(effort))).toBe(effort);
    }
  });
  it('picks the nearest level by ratio', () => {
    expect(budgetToEffort(1)).toBe('minimal');
    expect(budgetToEffort(3000)).toBe('low');
    expect(budgetToEffort(5000)).toBe('medium');
    expect(budgetToEffort(31999)).toBe('xhigh');
    expect(budgetToEffort(49152)).toBe('xhigh');
    expect(budgetToEffort(49153)).toBe('max');
  });
  it('has no level for a dynamic (negative) budget', () => {
    expect(budgetToEffort(-1)).toBeUndefined();
  });
});

describe('anthropicThinkingBudget', () => {
  it("is the effort's budget, at least 1024 and below max tokens", () => {
    expect(anthropicThinkingBudget('medium', undefined)).toBe(effortToBudget('medium'));
    expect(anthropicThinkingBudget('high', 4000)).toBe(3999);
    expect(anthropicThinkingBudget('minimal', 100_000)).toBe(Math.max(1024, effortToBudget('minimal')));
    expect(anthropicThinkingBudget('medium', 500)).toBe(1024);
  });
});
