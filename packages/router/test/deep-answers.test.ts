import { openaiChat } from '@llm/openai-chat';
import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../src/config.js';
import { createHandler } from '../src/handler.js';

/** A Chat answer carrying one extra field nested `depth` arrays deep. */
function deepChatAnswer(depth: number): string {
  const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  return `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"extra":${deep}}`;
}

function chatToChat(answer: string) {
  const records: RequestRecord[] = [];
  const handler = createHandler({
    codecs: { 'openai-chat': openaiChat },
    upstreams: { chat: { protocol: 'openai-chat', baseUrl: 'http://upstream.test/v1', apiKey: 'k' } },
    routes: [{ match: '*', upstream: 'chat' }],
    maxRetries: 0,
    transport: async () => new Response(answer, { headers: { 'content-type': 'application/json' } }),
    hooks: { onRequestEnd: (record) => records.push(record) },
  });
  const request = new Request('http://router.test/v1/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
  });
  return { response: handler(request), records };
}

describe('a same-protocol JSON answer nested too deep', () => {
  it('a 5,000-level field is a 502 upstream error in the client protocol (passed on, JSON.stringify of it may overflow the stack: a 500)', async () => {
    const { response: pending, records } = chatToChat(deepChatAnswer(5000));
    const response = await pending;
    const requestId = response.headers.get('x-request-id');
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      error: {
        message: `invalid Chat Completions answer at extra${'[0]'.repeat(7)}…[0][0] (request id ${requestId})`,
        type: 'server_error',
        param: `extra${'[0]'.repeat(7)}…[0][0]`,
        code: null,
      },
    });
    expect(records[0]).toMatchObject({ status: 502, errorKind: 'upstream', upstream: 'chat' });
    expect(records[0]?.errorDetail).toContain('JSON nested deeper than 128 levels');
  });

  it('an answer within the limit passes through unchanged', async () => {
    const { response: pending } = chatToChat(deepChatAnswer(100));
    const response = await pending;
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toBe(deepChatAnswer(100));
  });
});
