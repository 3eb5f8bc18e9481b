import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UpstreamRequest } from '../src/config.js';
import { callUpstream } from '../src/upstream-call.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A transport answering from a list, recording each call. */
function scripted(answers: (() => Response)[]) {
  const calls: UpstreamRequest[] = [];
  return {
    calls,
    transport: async (request: UpstreamRequest) => {
      calls.push(request);
      return (answers[calls.length - 1] ?? (answers[answers.length - 1] as () => Response))();
    },
  };
}

const options = {
  url: 'http://up.test/v1/x',
  headers: { 'content-type': 'application/json' },
  body: '{}',
  timeoutMs: 60_000,
  maxRetries: 2,
  retryBaseDelayMs: 500,
  maxRetryDelayMs: 30_000,
};

describe('callUpstream retries', () => {
  it('waits exactly the retry-after of a 429 before the next attempt, then returns the answer', async () => {
    vi.useFakeTimers();
    const up = scripted([() => new Response('{}', { status: 429, headers: { 'retry-after': '2' } }), () => new Response('ok')]);
    const result = callUpstream({ ...options, transport: up.transport });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(up.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(up.calls).toHaveLength(2);
    expect(await (await result).text()).toBe('ok');
    expect(up.calls[1]).toMatchObject({ url: 'http://up.test/v1/x', method: 'POST', body: '{}' });
  });

  it('caps a long retry-after at maxRetryDelayMs, and backs off exponentially without one', async () => {
    vi.useFakeTimers();
    const up = scripted([
      () => new Response('{}', { status: 503, headers: { 'retry-after': '3600' } }),
      () => new Response('{}', { status: 500 }),
      () => new Response('done'),
    ]);
    const result = callUpstream({ ...options, maxRetryDelayMs: 5_000, transport: up.transport });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(up.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(up.calls).toHaveLength(2);
    // No retry-after: the base delay doubled for the second retry (500 * 2 = 1000 ms).
    await vi.advanceTimersByTimeAsync(999);
    expect(up.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(up.calls).toHaveLength(3);
    expect(await (await result).text()).toBe('done');
  });

  it('gives up after maxRetries and returns the last retryable answer', async () => {
    vi.useFakeTimers();
    const up = scripted([() => new Response('busy', { status: 529 })]);
    const result = callUpstream({ ...options, maxRetries: 1, retryBaseDelayMs: 10, transport: up.transport });
    await vi.advanceTimersByTimeAsync(10);
    const response = await result;
    expect(response.status).toBe(529);
    expect(up.calls).toHaveLength(2);
  });
});
