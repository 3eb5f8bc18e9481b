import { describe, expect, it } from 'vitest';
import type { UpstreamRequest } from '../src/config.js';
import { createHandler } from '../src/handler.js';

// Each upstream API call names the client request it serves (UpstreamRequest.requestId), so a
// transport can label its spans and log lines without tracking the request through async context.

const answer = JSON.stringify({
  id: 'c',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-up',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
});

function routerSeeing(statuses: number[]) {
  const seen: { url: string; requestId: string | undefined }[] = [];
  const handler = createHandler({
    upstreams: {
      a: { protocol: 'openai-chat', baseUrl: 'http://a.test/v1', apiKey: 'k' },
      b: { protocol: 'openai-chat', baseUrl: 'http://b.test/v1', apiKey: 'k' },
    },
    routes: [{ match: '*', upstream: ['a', 'b'], model: 'gpt-up' }],
    maxRetries: 1,
    retryBaseDelayMs: 1,
    transport: async (request: UpstreamRequest) => {
      seen.push({ url: request.url, requestId: request.requestId });
      const status = statuses[seen.length - 1] ?? 200;
      return new Response(status === 200 ? answer : '{"error":{"message":"busy"}}', { status, headers: { 'content-type': 'application/json' } });
    },
  });
  return { handler, seen };
}

const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello' }] });

describe('the request id on upstream calls', () => {
  it("every attempt, retries and fallbacks included, carries the server's request id", async () => {
    const { handler, seen } = routerSeeing([503, 503, 200]);
    const request = new Request('http://router.test/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const response = await handler(Object.assign(request, { requestId: 'req-client-1' }));
    expect(response.status).toBe(200);
    await response.text();
    expect(seen).toEqual([
      { url: 'http://a.test/v1/chat/completions', requestId: 'req-client-1' },
      { url: 'http://a.test/v1/chat/completions', requestId: 'req-client-1' },
      { url: 'http://b.test/v1/chat/completions', requestId: 'req-client-1' },
    ]);
  });

  it('a request with no id gets the one the router minted, the same as its x-request-id', async () => {
    const { handler, seen } = routerSeeing([200]);
    const response = await handler(
      new Request('http://router.test/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
    );
    await response.text();
    expect(seen).toHaveLength(1);
    expect(seen[0]?.requestId).toBe(response.headers.get('x-request-id'));
    expect(seen[0]?.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
