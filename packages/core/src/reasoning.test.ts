import { describe, expect, it } from 'vitest';
import { REASONING_EFFORTS, anthropicThinkingBudget, budgetToEffort, effortToBudget, fitAnthropicThinkingBudget } from './reasoning.js';

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
  it("is the effort's budget, at least 1024 and below max tokens; none where max tokens leave no room", () => {
    expect(anthropicThinkingBudget('medium', undefined)).toBe(effortToBudget('medium'));
    expect(anthropicThinkingBudget('high', 4000)).toBe(3999);
    expect(anthropicThinkingBudget('minimal', 100_000)).toBe(Math.max(1024, effortToBudget('minimal')));
    expect(anthropicThinkingBudget('medium', 1025)).toBe(1024);
    expect(anthropicThinkingBudget('medium', 1024)).toBeUndefined();
    expect(anthropicThinkingBudget('medium', 500)).toBeUndefined();
  });
});

describe('fitAnthropicThinkingBudget', () => {
  it('raises a budget to 1024, keeps it below max tokens, and has none for max tokens of 1024 or less', () => {
    expect(fitAnthropicThinkingBudget(512, 8192)).toBe(1024);
    expect(fitAnthropicThinkingBudget(512, undefined)).toBe(1024);
    expect(fitAnthropicThinkingBudget(8000, 4096)).toBe(4095);
    expect(fitAnthropicThinkingBudget(8000, 8001)).toBe(8000);
    expect(fitAnthropicThinkingBudget(8000, undefined)).toBe(8000);
    expect(fitAnthropicThinkingBudget(1500.4, 4096)).toBe(1500);
    expect(fitAnthropicThinkingBudget(2048, 1024)).toBeUndefined();
    expect(fitAnthropicThinkingBudget(2048, 1)).toBeUndefined();
  });
});
