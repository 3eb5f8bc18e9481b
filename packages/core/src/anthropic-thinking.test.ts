import { describe, expect, it } from 'vitest';
import { anthropicThinking } from './anthropic-thinking.js';
import type { LlmWarning } from './warnings.js';

const run = (reasoning: Parameters<typeof anthropicThinking>[0], maxTokens: number | undefined, clientBudget?: number) => {
  const warnings: LlmWarning[] = [];
  const budget = anthropicThinking(reasoning, maxTokens, clientBudget, { warn: (warning) => warnings.push(warning) }, 'claude');
  return [budget, warnings.map(({ code, path, message }) => `${code} ${path}: ${message}`)];
};

describe('anthropicThinking', () => {
  it("fits another protocol's budget and reports the move; an effort's budget is fitted quietly", () => {
    expect(run({ enabled: true, budgetTokens: 500 }, 4096)).toEqual([
      1024,
      ['lossy-conversion reasoning.budgetTokens: thinking budget 500 sent as 1024 (Anthropic takes 1024 up to max_tokens - 1)'],
    ]);
    expect(run({ enabled: true, budgetTokens: 2000 }, 4096)).toEqual([2000, []]);
    expect(run({ enabled: true, effort: 'high' }, 4096)).toEqual([4095, []]);
  });
  it('leaves thinking out, reported, where max_tokens leaves no room', () => {
    expect(run({ enabled: true, budgetTokens: 2000 }, 1024)).toEqual([
      undefined,
      ['dropped-field reasoning: thinking needs max_tokens above 1024 (it is 1024): sent without thinking'],
    ]);
  });
  it("sends the codec's own client's budget as it came, above max_tokens or not", () => {
    expect(run({ enabled: true, budgetTokens: 8000 }, 4096, 8000)).toEqual([8000, []]);
    // A budget changed since the client sent it (a policy) is fitted like any other.
    expect(run({ enabled: true, budgetTokens: 9000 }, 4096, 8000)[0]).toBe(4095);
  });
});
