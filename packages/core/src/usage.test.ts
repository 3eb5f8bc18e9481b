import { describe, expect, it } from 'vitest';
import { sumUsage } from './usage.js';

describe('sumUsage (usage summed over several calls)', () => {
  it('adds every count and drops the one provider object', () => {
    const first = sumUsage(undefined, { inputTokens: 10, outputTokens: 5, cacheReadTokens: 4, raw: { protocol: 'openai-chat', usage: {} } });
    expect(first).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15, cacheReadTokens: 4 });
    expect(
      sumUsage(first, {
        inputTokens: 20,
        outputTokens: 7,
        totalTokens: 30,
        cacheReadTokens: 1,
        reasoningTokens: 3,
        cacheWriteByTtl: { '5m': 2 },
        serverToolRequests: { web_search_requests: 1 },
      }),
    ).toEqual({
      inputTokens: 30,
      outputTokens: 12,
      totalTokens: 45,
      cacheReadTokens: 5,
      reasoningTokens: 3,
      cacheWriteByTtl: { '5m': 2 },
      serverToolRequests: { web_search_requests: 1 },
    });
    expect(sumUsage(first, undefined)).toBe(first);
  });
});
