import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { usageReport } from '../src/ledger/report.js';
import { unnamedKeyLabel } from '../src/config/client-keys.js';
import { createHash } from 'node:crypto';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { type NodeServer, serveNode } from '../src/server/node-adapter.js';
import { createRouter } from '@llm/router';
import { type Gateway, startGateway } from '../src/server/start.js';
import type { RouterConfig } from '../src/router-contract.js';
import { createPassthroughHandler } from './helpers/passthrough-router.js';

let claude: MockUpstream;
let chat: MockUpstream;
let slow: NodeServer;
let slowCancelled = 0;
let gateway: Gateway;
const logs: string[] = [];
const ledgerPath = join(mkdtempSync(join(tmpdir(), 'gw-')), 'usage.db');

beforeAll(async () => {
  [claude, chat] = await Promise.all([startMockUpstream({ protocol: 'claude' }), startMockUpstream({ protocol: 'openai-chat' })]);
  // A slow Gemini-protocol upstream: one SSE event every 20 ms, forever, counting cancellations.
  slow = await serveNode(async () => {
    let timer: NodeJS.Timeout | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        timer = setInterval(() => controller.enqueue(new TextEncoder().encode('data: {}\n\n')), 20);
      },
      cancel() {
        clearInterval(timer);
        slowCancelled += 1;
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
  const config = parseConfig(
    JSON.stringify({
      keys: [{ name: 'ci', key: 'secret-one' }, 'secret-two'],
      upstreams: {
        claude: { protocol: 'claude', baseUrl: claude.baseUrl, apiKey: 'upstream-secret' },
        chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl },
        slow: { protocol: 'gemini', baseUrl: slow.url },
      },
      routes: [{ match: '*', upstream: 'claude' }],
      ledger: { path: ledgerPath },
      maxBodyBytes: 4096,
    }),
  );
  gateway = await startGateway(config, {
    port: 0,
    createRouter: createPassthroughHandler,
    logger: createLogger('info', { write: (line: string) => logs.push(line) }),
  });
});
afterAll(async () => {
  await Promise.all([claude.close(), chat.close(), slow.close()]);
});

describe('gateway server', () => {
  it('answers /health and HEAD /api/hello with a request id', async () => {
    const health = await fetch(`${gateway.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const hello = await fetch(`${gateway.url}/api/hello`, { method: 'HEAD' });
    expect(hello.status).toBe(200);
  });

  it('rejects missing or wrong keys with 401 in the client protocol', async () => {
    const claudeRes = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', body: '{}', headers: { 'x-api-key': 'wrong' } });
    expect(claudeRes.status).toBe(401);
    expect(await claudeRes.json()).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'invalid gateway key' } });
    const geminiRes = await fetch(`${gateway.url}/v1beta/models/g:generateContent`, { method: 'POST', body: '{}' });
    expect(await geminiRes.json()).toEqual({ error: { code: 401, message: 'missing gateway key', status: 'UNAUTHENTICATED' } });
    const chatRes = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', body: '{}', headers: { authorization: 'Bearer nope' } });
    expect(await chatRes.json()).toEqual({ error: { message: 'invalid gateway key', type: 'invalid_request_error', param: null, code: null } });
  });

  it('accepts keys in every native form', async () => {
    const body = JSON.stringify({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    const forms: Record<string, string>[] = [{ 'x-api-key': 'secret-one' }, { authorization: 'Bearer secret-two' }, { 'x-goog-api-key': 'secret-one' }];
    for (const headers of forms) {
      const res = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', body, headers });
      expect(res.status).toBe(200);
    }
    const query = await fetch(`${gateway.url}/v1/messages?key=secret-two`, { method: 'POST', body });
    expect(query.status).toBe(200);
  });

  it('logs a key sent as ?%6Bey= redacted, as it reads it decoded', async () => {
    const body = JSON.stringify({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    const res = await fetch(`${gateway.url}/v1/messages?%6Bey=secret-two`, { method: 'POST', body, headers: { 'x-request-id': 'encoded-key' } });
    expect(res.status).toBe(200);
    const line = logs.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.requestId === 'encoded-key' && entry.msg === 'request');
    expect(line?.path).toBe('/v1/messages?key=%5Bredacted%5D');
  });

  it('answers 413 in the client protocol for a body over the limit', async () => {
    const res = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', body: 'x'.repeat(5000), headers: { 'x-api-key': 'secret-one' } });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'request_too_large', message: 'request body larger than 4096 bytes' } });
  });

  it('streams through to the Anthropic SDK and passes an upstream 429 through', async () => {
    const client = new Anthropic({ apiKey: 'secret-one', baseURL: gateway.url, maxRetries: 0 });
    const message = await client.messages
      .stream({ model: 'claude-opus-5-5', max_tokens: 50, messages: [{ role: 'user', content: 'stream please' }] })
      .finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'Mock claude says: stream please' }]);
    await expect(
      client.messages.create({ model: 'claude-opus-5-5', max_tokens: 50, messages: [{ role: 'user', content: 'error 429' }] }),
    ).rejects.toMatchObject({ status: 429 });
    const openai = new OpenAI({ apiKey: 'secret-two', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const completion = await openai.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hey' }] });
    expect(completion.choices[0]?.message.content).toBe('Mock openai-chat says: hey');
  });

  it('cancels the upstream when the client disconnects', async () => {
    const abort = new AbortController();
    const res = await fetch(`${gateway.url}/v1beta/models/g:streamGenerateContent?alt=sse`, {
      method: 'POST',
      body: JSON.stringify({ contents: [] }),
      headers: { 'x-goog-api-key': 'secret-one' },
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    await expect.poll(() => slowCancelled, { timeout: 3000 }).toBe(1);
  });

  it('never logs keys, and writes ledger rows with key ids on close', async () => {
    const text = logs.join('');
    expect(text).toContain('"msg":"request"');
    for (const secret of ['secret-one', 'secret-two', 'upstream-secret']) expect(text).not.toContain(secret);
    await gateway.close();
    const byKey = usageReport(ledgerPath, 'key');
    // Usage is labelled by the key's name, or a plain key's hash prefix: never its position.
    expect(byKey.map((line) => line.group).sort()).toEqual(['-', 'ci', unnamedKeyLabel('secret-two')]);
    expect(unnamedKeyLabel('secret-two')).toBe(`sha256:${createHash('sha256').update('secret-two').digest('hex').slice(0, 12)}`);
    expect(byKey.find((line) => line.group === '-')?.errors).toBe(3);
  });
});

describe('upstream transport', () => {
  it('hands the router its undici transport: global fetch never calls the upstream', async () => {
    const upstream = await startMockUpstream({ protocol: 'openai-chat' });
    const config = parseConfig(
      JSON.stringify({
        upstreams: { chat: { protocol: 'openai-chat', baseUrl: upstream.baseUrl } },
        routes: [{ match: '*', upstream: 'chat' }],
        ledger: false,
      }),
    );
    let seen: RouterConfig | undefined;
    const gw = await startGateway(config, {
      port: 0,
      logger: createLogger('silent'),
      createRouter: (routerConfig) => {
        seen = routerConfig;
        return createRouter(routerConfig);
      },
    });
    const spy = vi.spyOn(globalThis, 'fetch');
    try {
      const openai = new OpenAI({ apiKey: 'k', baseURL: `${gw.url}/v1`, maxRetries: 0 });
      const completion = await openai.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'via undici' }] });
      expect(completion.choices[0]?.message.content).toBe('Mock openai-chat says: via undici');
      expect(typeof seen?.transport).toBe('function');
      const urls = spy.mock.calls.map(([input]) => (input instanceof Request ? input.url : String(input)));
      expect(urls.filter((url) => url.startsWith(upstream.url))).toEqual([]);
    } finally {
      spy.mockRestore();
      await gw.close();
      await upstream.close();
    }
  });
});
