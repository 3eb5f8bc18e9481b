import { describe, expect, it } from 'vitest';
import type { RequestRecord, UpstreamRequest } from '../src/config.js';
import { createHandler } from '../src/handler.js';

// The record counts every upstream API call a request made (`attempts`) and, per upstream, the
// calls resent to it (`retries`): what an access line's "attempts and fallbacks taken" reads.

const completion = JSON.stringify({
  id: 'c',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-up',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
});

/** A router over upstreams a and b (route `m`: a, then b) answering `script`'s steps in turn, then 200. */
function scripted(script: (number | 'refuse')[], maxRetries = 2) {
  const records: RequestRecord[] = [];
  const hosts: string[] = [];
  const handler = createHandler({
    upstreams: {
      a: { protocol: 'openai-chat', baseUrl: 'http://a.test/v1', apiKey: 'k' },
      b: { protocol: 'openai-chat', baseUrl: 'http://b.test/v1', apiKey: 'k' },
    },
    routes: [{ match: 'm', upstream: ['a', 'b'], model: 'gpt-up' }],
    maxRetries,
    retryBaseDelayMs: 1,
    hooks: { onRequestEnd: (record) => records.push(record) },
    transport: async (request: UpstreamRequest) => {
      hosts.push(new URL(request.url).hostname);
      const step = script[hosts.length - 1] ?? 200;
      if (step === 'refuse') throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      return new Response(step === 200 ? completion : '{"error":{"message":"busy"}}', { status: step, headers: { 'content-type': 'application/json' } });
    },
  });
  const ask = async (model = 'm') => {
    const response = await handler(
      new Request('http://router.test/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }] }),
      }),
    );
    await response.text();
    return response.status;
  };
  return { ask, records, hosts };
}

/** The record's counting fields. */
const counts = ({ upstream, fallbacks, attempts, retries, status }: RequestRecord) => ({ upstream, fallbacks, attempts, retries, status });

describe('attempts and retries in the request record', () => {
  it('a clean request: one attempt, no retries', async () => {
    const { ask, records, hosts } = scripted([]);
    expect(await ask()).toBe(200);
    expect(hosts).toEqual(['a.test']);
    expect(records.map(counts)).toEqual([{ upstream: 'a', fallbacks: 0, attempts: 1, retries: undefined, status: 200 }]);
  });

  it('the first upstream 503s twice then answers: three attempts, two retries on it', async () => {
    const { ask, records, hosts } = scripted([503, 503]);
    expect(await ask()).toBe(200);
    expect(hosts).toEqual(['a.test', 'a.test', 'a.test']);
    expect(records.map(counts)).toEqual([{ upstream: 'a', fallbacks: 0, attempts: 3, retries: [{ upstream: 'a', count: 2 }], status: 200 }]);
  });

  it('retries spent on the first upstream, then a fallback to the second: each counted where it happened', async () => {
    // a: 503 and two retries (refused, 503); b: 429 once, then answers.
    const { ask, records, hosts } = scripted([503, 'refuse', 503, 429]);
    expect(await ask()).toBe(200);
    expect(hosts).toEqual(['a.test', 'a.test', 'a.test', 'b.test', 'b.test']);
    expect(records.map(counts)).toEqual([
      {
        upstream: 'b',
        fallbacks: 1,
        attempts: 5,
        retries: [
          { upstream: 'a', count: 2 },
          { upstream: 'b', count: 1 },
        ],
        status: 200,
      },
    ]);
  });

  it('a fallback without retries: two attempts, none of them a retry', async () => {
    const { ask, records } = scripted([500], 0);
    expect(await ask()).toBe(200);
    expect(records.map(counts)).toEqual([{ upstream: 'b', fallbacks: 1, attempts: 2, retries: undefined, status: 200 }]);
  });

  it('every upstream failing: all attempts counted on the failed request', async () => {
    const { ask, records } = scripted([503, 503, 503, 503], 1);
    expect(await ask()).toBe(503);
    expect(records.map(counts)).toEqual([
      {
        upstream: 'b',
        fallbacks: 1,
        attempts: 4,
        retries: [
          { upstream: 'a', count: 1 },
          { upstream: 'b', count: 1 },
        ],
        status: 503,
      },
    ]);
  });

  it('a request refused before any upstream call (no route): attempts 0', async () => {
    const { ask, records, hosts } = scripted([]);
    expect(await ask('unrouted')).toBe(404);
    expect(hosts).toEqual([]);
    expect(records.map(counts)).toEqual([{ upstream: undefined, fallbacks: undefined, attempts: 0, retries: undefined, status: 404 }]);
  });

  it("a token count asks the upstream's own count once (attempts 1), or estimates without a call (attempts 0)", async () => {
    const records: RequestRecord[] = [];
    const make = (countTokens: 'upstream' | undefined, status: number) =>
      createHandler({
        upstreams: { up: { protocol: 'claude', baseUrl: 'http://up.test', apiKey: 'k' } },
        routes: [{ match: '*', upstream: 'up' }],
        ...(countTokens && { countTokens }),
        hooks: { onRequestEnd: (record) => records.push(record) },
        transport: async () => new Response(status === 200 ? '{"input_tokens":5}' : '{}', { status, headers: { 'content-type': 'application/json' } }),
      });
    const count = async (handler: ReturnType<typeof make>) => {
      const response = await handler(
        new Request('http://router.test/v1/messages/count_tokens', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model: 'claude-x', messages: [{ role: 'user', content: 'hi' }] }),
        }),
      );
      return response.headers.get('x-llm-token-count');
    };
    expect(await count(make('upstream', 200))).toBe('upstream');
    // The upstream's count failed: the estimate answers, and the call it made is still counted.
    expect(await count(make('upstream', 500))).toBe('estimate');
    expect(await count(make(undefined, 200))).toBe('estimate');
    expect(records.map(({ attempts, retries, status }) => ({ attempts, retries, status }))).toEqual([
      { attempts: 1, retries: undefined, status: 200 },
      { attempts: 1, retries: undefined, status: 200 },
      { attempts: 0, retries: undefined, status: 200 },
    ]);
  });
});
