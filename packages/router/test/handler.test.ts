import type { LlmResponse, LlmStreamEvent } from '@llm/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestRecord, RouterConfig, Transport } from '../src/config.js';
import { createHandler, createRouter } from '../src/handler.js';
import { claude } from '@llm/claude';
import { openaiChat } from '@llm/openai-chat';
import { fakeCodecs, fakeSse, parseFakeSse } from './fake-codec.js';
import { claudeTextMessage } from './claude-answer.js';
import { json, startUpstream, type MockUpstream } from './mock-upstream.js';

const upstreams: MockUpstream[] = [];
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
});

async function upstream(reply: Parameters<typeof startUpstream>[0]): Promise<MockUpstream> {
  const started = await startUpstream(reply);
  upstreams.push(started);
  return started;
}

const answer: LlmResponse = {
  id: 'resp_1',
  model: 'claude-up',
  choices: [{ index: 0, content: [{ type: 'text', text: 'hello' }], finishReason: 'stop' }],
  usage: { inputTokens: 4, outputTokens: 2, totalTokens: 6 } as LlmResponse['usage'],
};

const streamEvents: LlmStreamEvent[] = [
  { type: 'start', id: 'resp_2', model: 'claude-up' },
  { type: 'block-start', index: 0, block: { kind: 'text' } },
  { type: 'text-delta', index: 0, text: 'hi' },
  { type: 'block-end', index: 0 },
  { type: 'finish', reason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } as never },
];

function config(baseUrl: string, extra: Partial<RouterConfig> = {}): RouterConfig {
  return {
    codecs: fakeCodecs(),
    upstreams: { main: { protocol: 'claude', baseUrl, apiKey: 'server-key' } },
    routes: [
      { match: 'gpt-*', upstream: 'main', model: 'claude-up' },
      { match: 'exact-model', upstream: 'main' },
    ],
    retryBaseDelayMs: 1,
    ...extra,
  };
}

function post(path: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Request {
  return new Request(`http://router.test${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal,
  });
}

const chatBody = { model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };

describe('createHandler', () => {
  it('routes a Chat client to a Claude upstream without forwarding the client key', async () => {
    const mock = await upstream((_request, response) => json(response, 200, answer));
    const records: RequestRecord[] = [];
    const handler = createHandler(config(mock.baseUrl, { hooks: { onRequestEnd: (record) => records.push(record) } }));
    const response = await handler(post('/openai-chat/generate', chatBody, { authorization: 'Bearer client-secret' }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(answer);
    expect(mock.received[0]?.url).toBe('/claude/generate');
    expect(mock.received[0]?.headers.authorization).toBe('Bearer server-key');
    expect(JSON.stringify(mock.received[0]?.headers)).not.toContain('client-secret');
    expect(mock.received[0]?.body).toEqual({ ...chatBody, model: 'claude-up' });
    expect(records[0]).toMatchObject({
      clientProtocol: 'openai-chat',
      upstream: 'main',
      upstreamProtocol: 'claude',
      clientModel: 'gpt-4o',
      upstreamModel: 'claude-up',
      status: 200,
      stream: false,
      usage: answer.usage,
    });
    expect(response.headers.get('x-request-id')).toBe(records[0]?.requestId);
  });

  it('streams and reports usage from the stream in onRequestEnd', async () => {
    const mock = await upstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(fakeSse(streamEvents));
    });
    const records: RequestRecord[] = [];
    const handler = createHandler(config(mock.baseUrl, { hooks: { onRequestEnd: (record) => records.push(record) } }));
    const response = await handler(post('/openai-chat/generate', { ...chatBody, stream: true }));
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(parseFakeSse(await response.text())).toEqual(streamEvents);
    expect(mock.received[0]?.url).toBe('/claude/generate?stream=1');
    expect(records[0]).toMatchObject({ status: 200, stream: true, usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } });
  });

  it('serves a streaming client from an upstream declared non-streaming', async () => {
    const mock = await upstream((_request, response) => json(response, 200, answer));
    const base = config(mock.baseUrl);
    const handler = createHandler({ ...base, upstreams: { main: { ...base.upstreams.main!, capabilities: { streaming: false } } } });
    const response = await handler(post('/openai-chat/generate', { ...chatBody, stream: true }));
    expect(mock.received[0]?.url).toBe('/claude/generate');
    const events = parseFakeSse(await response.text()) as LlmStreamEvent[];
    expect(events.map((event) => event.type)).toEqual(['start', 'block-start', 'text-delta', 'block-end', 'finish']);
  });

  it('retries a 429 honouring retry-after, then succeeds', async () => {
    const mock = await upstream((_request, response, index) =>
      index === 0 ? json(response, 429, { error: { message: 'slow' } }, { 'retry-after': '0' }) : json(response, 200, answer),
    );
    const response = await createHandler(config(mock.baseUrl))(post('/openai-chat/generate', chatBody));
    expect(response.status).toBe(200);
    expect(mock.received).toHaveLength(2);
  });

  it('re-encodes a final upstream error in the client protocol', async () => {
    const mock = await upstream((_request, response) => json(response, 500, { error: { message: 'boom' } }));
    const response = await createHandler(config(mock.baseUrl, { maxRetries: 1 }))(post('/openai-chat/generate', chatBody));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { protocol: 'openai-chat', kind: 'server', message: 'boom' } });
    expect(mock.received).toHaveLength(2);
  });

  it('falls back to the next upstream of a route', async () => {
    const failing = await upstream((_request, response) => json(response, 503, { error: { message: 'down' } }));
    const working = await upstream((_request, response) => json(response, 200, answer));
    const handler = createHandler({
      codecs: fakeCodecs(),
      maxRetries: 0,
      upstreams: { a: { protocol: 'claude', baseUrl: failing.baseUrl }, b: { protocol: 'gemini', baseUrl: working.baseUrl } },
      routes: [{ match: '*', upstream: ['a', 'b'] }],
    });
    const response = await handler(post('/openai-chat/generate', chatBody));
    expect(response.status).toBe(200);
    expect(working.received[0]?.url).toBe('/gemini/generate');
  });

  it('times out an upstream that never answers', async () => {
    const mock = await upstream(() => undefined);
    const base = config(mock.baseUrl, { maxRetries: 0 });
    const handler = createHandler({ ...base, upstreams: { main: { ...base.upstreams.main!, timeoutMs: 50 } } });
    const response = await handler(post('/openai-chat/generate', chatBody));
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ error: { kind: 'timeout' } });
  });

  it('a client abort cancels the upstream request', async () => {
    let closed = false;
    const mock = await upstream((request, response) => {
      response.on('close', () => {
        closed = true;
      });
      void request;
    });
    const controller = new AbortController();
    const pending = createHandler(config(mock.baseUrl, { maxRetries: 0 }))(post('/openai-chat/generate', chatBody, {}, controller.signal));
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    const response = await pending;
    expect(response.status).toBe(499);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(true);
  });

  it('answers unknown models, bad JSON and unknown paths with errors', async () => {
    const handler = createHandler(config('http://127.0.0.1:9'));
    const noRoute = await handler(post('/claude/generate', { model: 'other', messages: [] }));
    expect(noRoute.status).toBe(404);
    expect(await noRoute.json()).toMatchObject({ error: { protocol: 'claude', kind: 'not_found' } });
    const badJson = await handler(new Request('http://router.test/claude/generate', { method: 'POST', body: '{' }));
    expect(badJson.status).toBe(400);
    expect((await handler(post('/nowhere', {}))).status).toBe(404);
  });

  it('lists exact route names as models and estimates token counts', async () => {
    const handler = createHandler(config('http://127.0.0.1:9'));
    const models = await handler(new Request('http://router.test/openai-chat/models'));
    expect(await models.json()).toEqual({ object: 'list', data: [{ id: 'exact-model', object: 'model', created: 0, owned_by: 'llm-router' }] });
    const count = await handler(post('/claude/count', { model: 'x', messages: [] }));
    expect(count.headers.get('x-llm-token-count')).toBe('estimate');
    expect(await count.json()).toEqual({ input_tokens: Math.ceil(JSON.stringify({ model: 'x', messages: [] }).length / 3) });
  });

  it('lists the configured models instead, when the config names them', async () => {
    const handler = createHandler({ ...config('http://127.0.0.1:9'), models: ['b-model', 'a-model'] });
    const models = await handler(new Request('http://router.test/openai-chat/models'));
    expect(await models.json()).toEqual({
      object: 'list',
      data: [
        { id: 'b-model', object: 'model', created: 0, owned_by: 'llm-router' },
        { id: 'a-model', object: 'model', created: 0, owned_by: 'llm-router' },
      ],
    });
  });

  it('REGRESSIONS #5: previous_response_id for a Responses client of a Claude upstream replays the stored turn', async () => {
    const mock = await upstream((_request, response) => json(response, 200, answer));
    const handler = createHandler({ ...config(mock.baseUrl), routes: [{ match: '*', upstream: 'main' }] });
    const first = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'one' }] }] };
    const firstAnswer = await handler(post('/openai-responses/generate', first));
    expect(firstAnswer.status).toBe(200);
    // The id the client saw is minted by the router, not the upstream's `resp_1`.
    const { id } = (await firstAnswer.json()) as { id: string };
    expect(id).toMatch(/^resp_[0-9a-f]{32}$/);
    const second = { model: 'm', previous_response_id: id, previousResponseId: id, messages: [{ role: 'user', content: [{ type: 'text', text: 'two' }] }] };
    expect((await handler(post('/openai-responses/generate', second))).status).toBe(200);
    expect((mock.received[1]?.body as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'one' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      { role: 'user', content: [{ type: 'text', text: 'two' }] },
    ]);
    expect(mock.received[1]?.body).not.toHaveProperty('previousResponseId');
    const missing = await handler(post('/openai-responses/generate', { ...second, previous_response_id: 'nope' }));
    expect(missing.status).toBe(404);
  });

  it('a Responses turn sent with store: false is not kept: previous_response_id cannot name it', async () => {
    const mock = await upstream((_request, response) => json(response, 200, answer));
    const handler = createHandler({ ...config(mock.baseUrl), routes: [{ match: '*', upstream: 'main' }] });
    const first = { model: 'm', store: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'one' }] }] };
    const firstAnswer = await handler(post('/openai-responses/generate', first));
    expect(firstAnswer.status).toBe(200);
    const { id } = (await firstAnswer.json()) as { id: string };
    const second = { model: 'm', previous_response_id: id, messages: [{ role: 'user', content: [{ type: 'text', text: 'two' }] }] };
    const missing = await handler(post('/openai-responses/generate', second));
    expect(missing.status).toBe(404);
    expect(mock.received).toHaveLength(1);
  });

  it('an empty policies object keeps the same-protocol fast path: the body reaches the upstream as sent', async () => {
    const mock = await upstream((_request, response) =>
      json(response, 200, {
        id: 'c1',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      }),
    );
    const handler = createHandler({
      codecs: { 'openai-chat': openaiChat },
      upstreams: { chat: { protocol: 'openai-chat', baseUrl: `${mock.baseUrl}/v1`, apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'chat' }],
      policies: {},
    });
    // Key order and a field the codec does not model would not survive a decode + encode.
    const sent = { messages: [{ content: 'hi', role: 'user' }], zz_vendor_extra: { a: 1 }, model: 'gpt-4o', temperature: 0.5 };
    const response = await handler(post('/v1/chat/completions', sent));
    expect(response.status).toBe(200);
    expect(JSON.stringify(mock.received[0]?.body)).toBe(JSON.stringify(sent));
  });

  it("forwards a Claude client's anthropic-version and anthropic-beta to a Claude upstream, under the upstream's own headers", async () => {
    const mock = await upstream((_request, response) => json(response, 200, claudeTextMessage('ok', 'c', { input_tokens: 1, output_tokens: 1 })));
    const handler = createHandler({
      codecs: { claude },
      upstreams: { anthropic: { protocol: 'claude', baseUrl: mock.baseUrl, apiKey: 'server-key', headers: { 'anthropic-version': '2026-10-21' } } },
      routes: [{ match: '*', upstream: 'anthropic' }],
    });
    const body = { model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    const betas = 'context-management-2025-06-27,interleaved-thinking-2025-05-14';
    const response = await handler(post('/v1/messages', body, { 'anthropic-version': '2023-06-01', 'anthropic-beta': betas, 'x-api-key': 'client-key' }));
    expect(response.status).toBe(200);
    const headers = mock.received[0]?.headers ?? {};
    expect(headers['anthropic-beta']).toBe(betas);
    expect(headers['anthropic-version']).toBe('2026-10-21');
    expect(headers['x-api-key']).toBe('server-key');
  });

  it('refuses requests needing a capability the upstream lacks', async () => {
    const base = config('http://127.0.0.1:9');
    const handler = createHandler({ ...base, upstreams: { main: { ...base.upstreams.main!, capabilities: { tools: false } } } });
    const response = await handler(post('/openai-chat/generate', { ...chatBody, tools: [{ type: 'function', name: 'f' }] }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { kind: 'unsupported', message: 'upstream main does not support tools' } });
  });
});

describe('createRouter', () => {
  /** A plain inbound call: no Request, no Headers. */
  const call = (path: string, body: unknown, requestId?: string) => ({
    method: 'POST',
    url: `http://router.test${path}`,
    headers: { get: (name: string) => (name === 'content-type' ? 'application/json' : null) },
    text: async () => JSON.stringify(body),
    requestId,
  });

  it("answers a plain call with a plain reply (whole text body) under the caller's request id", async () => {
    const mock = await upstream((_request, response) => json(response, 200, answer));
    const records: RequestRecord[] = [];
    const route = createRouter(config(mock.baseUrl, { hooks: { onRequestEnd: (record) => records.push(record) } }));
    const reply = await route(call('/openai-chat/generate', chatBody, 'req-42'));
    expect(reply).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-42' },
      body: JSON.stringify(answer),
    });
    expect(records[0]?.requestId).toBe('req-42');
  });

  it("marks a Responses client's store: false answer not retrievable, and leaves the others unmarked", async () => {
    const mock = await upstream((_request, response) => json(response, 200, answer));
    const route = createRouter({ ...config(mock.baseUrl), routes: [{ match: '*', upstream: 'main' }] });
    const body = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'one' }] }] };
    const off = await route(call('/openai-responses/generate', { ...body, store: false }));
    expect([off.status, off.retrievable]).toEqual([200, false]);
    const on = await route(call('/openai-responses/generate', body));
    expect([on.status, 'retrievable' in on]).toEqual([200, false]);
    const chat = await route(call('/openai-chat/generate', { ...chatBody, store: false }));
    expect([chat.status, 'retrievable' in chat]).toEqual([200, false]);
  });

  it('reads the URL from parsedUrl when the server passes one, instead of parsing url again', async () => {
    const mock = await upstream((_request, response) => json(response, 200, answer));
    const route = createRouter(config(mock.baseUrl));
    const reply = await route({ ...call('/openai-chat/generate', chatBody), url: 'not parsed', parsedUrl: new URL('http://router.test/openai-chat/generate') });
    expect(reply.status).toBe(200);
    expect(reply.body).toBe(JSON.stringify(answer));
  });

  it("streams as an async iterable of text, read from the transport's own chunks (no Web stream)", async () => {
    const sse = fakeSse(streamEvents);
    const bodies: string[] = [];
    const records: RequestRecord[] = [];
    const transport: Transport = async (request) => {
      bodies.push(new TextDecoder().decode(request.body as Uint8Array));
      return {
        status: 200,
        headers: { get: (name: string) => (name === 'content-type' ? 'text/event-stream' : null) },
        body: null,
        text: async () => sse,
        json: async () => JSON.parse(sse),
        async *chunks() {
          yield new TextEncoder().encode(sse);
        },
      };
    };
    const route = createRouter(config('http://upstream.test', { transport, hooks: { onRequestEnd: (record) => records.push(record) } }));
    const reply = await route(call('/openai-chat/generate', { ...chatBody, stream: true }));
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(reply.body).not.toBeInstanceOf(ReadableStream);
    const chunks: unknown[] = [];
    for await (const chunk of reply.body as AsyncIterable<string | Uint8Array>) chunks.push(chunk);
    expect(chunks.every((chunk) => typeof chunk === 'string')).toBe(true);
    expect(parseFakeSse(chunks.join(''))).toEqual(streamEvents);
    expect(JSON.parse(bodies[0] as string)).toMatchObject({ model: 'claude-up', stream: true });
    expect(records.map((record) => [record.status, record.stream, record.usage])).toEqual([[200, true, { inputTokens: 1, outputTokens: 1, totalTokens: 2 }]]);
  });

  it('a consumer that stops early cancels the upstream chunks and still records the request once', async () => {
    let returned = 0;
    const records: RequestRecord[] = [];
    const transport: Transport = async () => ({
      status: 200,
      headers: { get: (name: string) => (name === 'content-type' ? 'text/event-stream' : null) },
      body: null,
      text: async () => '',
      json: async () => null,
      chunks: () => ({
        [Symbol.asyncIterator]() {
          let sent = false;
          return {
            next: () => {
              if (sent) return new Promise<IteratorResult<Uint8Array>>(() => undefined);
              sent = true;
              return Promise.resolve({ done: false, value: new TextEncoder().encode(fakeSse(streamEvents.slice(0, 3))) });
            },
            return: async () => {
              returned += 1;
              return { done: true, value: undefined };
            },
          };
        },
      }),
    });
    const route = createRouter(config('http://upstream.test', { transport, hooks: { onRequestEnd: (record) => records.push(record) } }));
    const reply = await route(call('/openai-chat/generate', { ...chatBody, stream: true }));
    const iterator = (reply.body as AsyncIterable<string | Uint8Array>)[Symbol.asyncIterator]();
    expect(parseFakeSse(String((await iterator.next()).value))).toEqual(streamEvents.slice(0, 3));
    const pending = iterator.next();
    await iterator.return?.();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(returned).toBe(1);
    expect(records).toHaveLength(1);
    expect(records[0]?.status).toBe(200);
  });

  it("answers an upstream error from a light transport answer in the client's shape", async () => {
    const transport: Transport = async () => ({
      status: 400,
      headers: { get: () => null },
      body: null,
      text: async () => JSON.stringify({ message: 'bad field', path: 'messages.0' }),
      json: async () => ({ message: 'bad field', path: 'messages.0' }),
    });
    const route = createRouter(config('http://upstream.test', { transport, maxRetries: 0 }));
    const reply = await route(call('/openai-chat/generate', chatBody));
    expect(reply.status).toBe(400);
    expect(typeof reply.body).toBe('string');
    expect(JSON.parse(reply.body as string)).toMatchObject({ error: { kind: 'invalid_request' } });
  });
});
