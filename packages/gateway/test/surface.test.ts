import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { type Gateway, startGateway } from '../src/server/start.js';

// The gateway's own HTTP surface around the real router: stored Responses and Gemini's JSON array streams.
let claude: MockUpstream;
let gateway: Gateway;

beforeAll(async () => {
  claude = await startMockUpstream({ protocol: 'claude' });
  const config = parseConfig(
    JSON.stringify({
      upstreams: { claude: { protocol: 'claude', baseUrl: claude.baseUrl, apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'claude', model: 'claude-sonnet-4-5' }],
      maxRetries: 0,
      ledger: false,
    }),
  );
  gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
});
afterAll(async () => {
  await gateway.close();
  await claude.close();
});

describe('gateway HTTP surface', () => {
  it('serves GET /v1/responses/{id} for answers it gave, JSON and streamed', async () => {
    const client = new OpenAI({ apiKey: 'any', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const created = await client.responses.create({ model: 'gpt-5', input: 'first' });
    const fetched = await client.responses.retrieve(created.id);
    expect(fetched.output_text).toBe('Mock claude says: first');
    expect(fetched).toEqual(created);

    const stream = client.responses.stream({ model: 'gpt-5', input: 'second' });
    const final = await stream.finalResponse();
    const again = await client.responses.retrieve(final.id);
    expect(again.output_text).toBe('Mock claude says: second');
    expect(again.id).toBe(final.id);
  });

  it('keeps nothing to fetch back for a response created with store: false, JSON or streamed', async () => {
    // A gateway of its own: the mock answers every turn under the same id.
    const fresh = await startGateway(
      parseConfig(
        JSON.stringify({
          upstreams: { claude: { protocol: 'claude', baseUrl: claude.baseUrl, apiKey: 'k' } },
          routes: [{ match: '*', upstream: 'claude' }],
          ledger: false,
        }),
      ),
      { port: 0, logger: createLogger('silent') },
    );
    try {
      const client = new OpenAI({ apiKey: 'any', baseURL: `${fresh.url}/v1`, maxRetries: 0 });
      const created = await client.responses.create({ model: 'gpt-5', input: 'private', store: false });
      expect(created.output_text).toBe('Mock claude says: private');
      await expect(client.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
      const streamed = await client.responses.stream({ model: 'gpt-5', input: 'private too', store: false }).finalResponse();
      expect(streamed.output_text).toBe('Mock claude says: private too');
      await expect(client.responses.retrieve(streamed.id)).rejects.toMatchObject({ status: 404 });
      // The same call with storage on is kept.
      const kept = await client.responses.create({ model: 'gpt-5', input: 'public' });
      expect((await client.responses.retrieve(kept.id)).output_text).toBe('Mock claude says: public');
    } finally {
      await fresh.close();
    }
  });

  it('routes on the path whatever the Host header says (a Host that makes no URL included)', async () => {
    const { request } = await import('node:http');
    const answer = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const req = request(`${gateway.url}/health`, { headers: { host: 'bad host/x' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('{"status":"ok"}');
  });

  it('answers 404 in the Responses shape for an id it never served', async () => {
    const res = await fetch(`${gateway.url}/v1/responses/resp_unknown`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('not_found_error');
  });

  it('writes :streamGenerateContent without alt=sse as a JSON array, with alt=sse as SSE', async () => {
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    const array = await fetch(`${gateway.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent`, { method: 'POST', body });
    expect(array.status).toBe(200);
    expect(array.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const chunks = JSON.parse(await array.text()) as { candidates?: { content?: { parts?: { text?: string }[] }; finishReason?: string }[] }[];
    const text = chunks
      .flatMap((c) => c.candidates ?? [])
      .flatMap((c) => c.content?.parts ?? [])
      .map((p) => p.text ?? '')
      .join('');
    expect(text).toBe('Mock claude says: hi');
    expect(chunks.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');

    const sse = await fetch(`${gateway.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, { method: 'POST', body });
    expect(sse.headers.get('content-type')).toContain('text/event-stream');
    expect((await sse.text()).startsWith('data: {')).toBe(true);
  });

  it('answers an upstream 429 as a plain Gemini error on the array path (no uncaught stream error)', async () => {
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'error 429' }] }] });
    const res = await fetch(`${gateway.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent`, { method: 'POST', body });
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe('RESOURCE_EXHAUSTED');
  });
});

describe('gateway routes of every protocol, with exact route names and the warnings header', () => {
  let upstream: MockUpstream;
  let named: Gateway;
  beforeAll(async () => {
    upstream = await startMockUpstream({ protocol: 'claude' });
    const config = parseConfig(
      JSON.stringify({
        upstreams: { claude: { protocol: 'claude', baseUrl: upstream.baseUrl, apiKey: 'k' } },
        routes: [
          { match: 'sonnet', upstream: 'claude', model: 'claude-sonnet-4-5' },
          { match: 'flash', upstream: 'claude', model: 'claude-haiku-4-5' },
          { match: '*', upstream: 'claude' },
        ],
        ledger: false,
        warningsHeader: true,
        maxRetries: 0,
      }),
    );
    named = await startGateway(config, { port: 0, logger: createLogger('silent') });
  });
  afterAll(async () => {
    await named.close();
    await upstream.close();
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${named.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('serves Anthropic clients under /anthropic too: messages and count_tokens', async () => {
    const message = await post(
      '/anthropic/v1/messages',
      { model: 'sonnet', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] },
      { 'anthropic-version': '2023-06-01' },
    );
    expect(message.status).toBe(200);
    expect(((await message.json()) as { content: { text: string }[] }).content[0]?.text).toBe('Mock claude says: hi');
    const count = await post(
      '/anthropic/v1/messages/count_tokens',
      { model: 'sonnet', messages: [{ role: 'user', content: 'hi' }] },
      { 'anthropic-version': '2023-06-01' },
    );
    expect(count.status).toBe(200);
    expect(count.headers.get('x-llm-token-count')).toBe('estimate');
    const tokens = ((await count.json()) as { input_tokens: number }).input_tokens;
    expect(Number.isInteger(tokens) && tokens > 0).toBe(true);
  });

  it('lists the exact route names, then the target models reachable by name, in each protocol: /v1/models?limit= (OpenAI and Anthropic shapes) and /v1beta/models', async () => {
    const ids = ['sonnet', 'flash', 'claude-sonnet-4-5', 'claude-haiku-4-5'];
    const openai = await fetch(`${named.url}/v1/models?limit=1000`);
    expect(await openai.json()).toEqual({ object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'llm-router' })) });
    const anthropic = await fetch(`${named.url}/v1/models?limit=1000`, { headers: { 'anthropic-version': '2023-06-01', 'x-api-key': 'any' } });
    expect(((await anthropic.json()) as { data: { type: string; id: string }[] }).data.map((m) => [m.type, m.id])).toEqual(ids.map((id) => ['model', id]));
    const google = await fetch(`${named.url}/v1beta/models`);
    expect(((await google.json()) as { models: { name: string }[] }).models.map((m) => m.name)).toEqual(ids.map((id) => `models/${id}`));
  });

  it('answers Gemini :countTokens with totalTokens', async () => {
    const res = await post('/v1beta/models/flash:countTokens', { contents: [{ role: 'user', parts: [{ text: 'count me' }] }] });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { totalTokens: number };
    expect(Object.keys(body)).toEqual(['totalTokens']);
    expect(body.totalTokens).toBeGreaterThan(0);
  });

  it('returns translation warnings in x-llm-warnings when configured', async () => {
    const res = await post('/v1/chat/completions', { model: 'sonnet', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-llm-warnings')).toBe('defaulted@max_tokens');
  });
});
