import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecentRequests } from '../src/admin/recent-requests.js';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { type Gateway, startGateway } from '../src/server/start.js';
import { type FailingUpstream, startFailingUpstream } from './helpers/failing-upstream.js';

// Issue 22, dashboard: GET /admin/requests (this process's newest requests, warnings and errors
// included) and GET /admin/upstreams (circuits, cool-downs, in-flight calls, latency).
const ADMIN_KEY = 'admin-key-0123456789';
const auth = { authorization: `Bearer ${ADMIN_KEY}` };

let chat: MockUpstream;
let down: FailingUpstream;
let gateway: Gateway;

beforeAll(async () => {
  chat = await startMockUpstream({ protocol: 'openai-chat' });
  down = await startFailingUpstream();
  const config = parseConfig(
    JSON.stringify({
      adminKey: ADMIN_KEY,
      keys: [{ name: 'ci', key: 'client-key' }],
      upstreams: { chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl }, down: { protocol: 'openai-chat', baseUrl: `${down.server.url}/v1` } },
      routes: [
        { match: 'broken-*', upstream: 'down' },
        { match: '*', upstream: 'chat' },
      ],
      maxRetries: 0,
      ledger: false,
      metrics: false,
      circuitBreaker: { failures: 2, windowMs: 60_000, cooldownMs: 60_000 },
      // gpt-4.1 priced here (USD per million tokens); claude-x has no price.
      prices: { 'gpt-4.1': { input: 2, output: 8 } },
    }),
  );
  gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
});
afterAll(async () => {
  await gateway.close();
  await Promise.all([chat.close(), down.server.close()]);
});

const ask = (model: string) => askChatAs(gateway.url, model);
function askChatAs(url: string, model: string) {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer client-key' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

const get = async (path: string, headers: Record<string, string> = auth) => {
  const reply = await fetch(`${gateway.url}${path}`, { headers });
  return { status: reply.status, body: await reply.json() };
};

/** What the mock Chat upstream reports for a one-word prompt. */
const USAGE = { inputTokens: 1, outputTokens: 4, reasoningTokens: 0 };
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('GET /admin/requests', () => {
  it('lists the newest requests first, with warnings and error kinds, never the internal error detail', async () => {
    expect((await ask('gpt-4.1')).status).toBe(200);
    // A Claude client's top_k has no Chat field: a warning on the request.
    const claude = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'client-key', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-x', max_tokens: 50, top_k: 5, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(claude.status).toBe(200);
    expect((await ask('broken-1')).status).toBe(503);

    const { status, body } = await get('/admin/requests');
    expect(status).toBe(200);
    const varying = { time: expect.stringMatching(ISO_TIME), requestId: expect.any(String), totalMs: expect.any(Number) };
    expect(body).toEqual({
      capacity: 200,
      requests: [
        {
          ...varying,
          keyId: 'ci',
          clientProtocol: 'openai-chat',
          clientModel: 'broken-1',
          upstream: 'down',
          upstreamProtocol: 'openai-chat',
          upstreamModel: 'broken-1',
          fallbacks: 0,
          attempts: 1,
          status: 503,
          stream: false,
          errorKind: 'overloaded',
          warnings: [],
        },
        {
          ...varying,
          keyId: 'ci',
          clientProtocol: 'claude',
          clientModel: 'claude-x',
          upstream: 'chat',
          upstreamProtocol: 'openai-chat',
          upstreamModel: 'claude-x',
          fallbacks: 0,
          attempts: 1,
          status: 200,
          stream: false,
          usage: USAGE,
          unpriced: true,
          warnings: [{ code: 'dropped-field', path: 'sampling.topK', message: 'openai-chat has no top_k', protocol: 'openai-chat' }],
        },
        {
          ...varying,
          keyId: 'ci',
          clientProtocol: 'openai-chat',
          clientModel: 'gpt-4.1',
          upstream: 'chat',
          upstreamProtocol: 'openai-chat',
          upstreamModel: 'gpt-4.1',
          fallbacks: 0,
          attempts: 1,
          status: 200,
          stream: false,
          usage: USAGE,
          // 1 input token x $2/M + 4 output tokens x $8/M
          costUsd: 0.000034,
          warnings: [],
        },
      ],
    });

    expect((await get('/admin/requests?limit=1')).body.requests.map((request: { clientModel: string }) => request.clientModel)).toEqual(['broken-1']);
    for (const limit of ['0', '201', '1.5', 'x', '']) {
      expect(await get(`/admin/requests?limit=${limit}`)).toEqual({
        status: 400,
        body: { error: { type: 'invalid_request_error', message: 'limit: must be a whole number from 1 to 200', param: 'limit' } },
      });
    }
    expect(await get('/admin/requests', { authorization: 'Bearer client-key' })).toEqual({
      status: 401,
      body: { error: { type: 'authentication_error', message: 'invalid admin key' } },
    });
  });
});

describe('GET /admin/upstreams', () => {
  it('reports each circuit, its failures and cool-down, calls in flight and the latency average', async () => {
    // The requests test left one failure on `down`; a second opens its circuit (failures: 2).
    expect((await ask('broken-2')).status).toBe(503);
    const { status, body } = await get('/admin/upstreams');
    expect(status).toBe(200);
    expect(body).toEqual({
      time: expect.stringMatching(ISO_TIME),
      circuitBreaker: { failures: 2, windowMs: 60_000, cooldownMs: 60_000 },
      upstreams: [
        { name: 'chat', protocol: 'openai-chat', state: 'closed', recentFailures: 0, inFlight: 0, latencyMs: expect.any(Number) },
        {
          name: 'down',
          protocol: 'openai-chat',
          state: 'open',
          recentFailures: 0,
          cooldownEndsAt: expect.stringMatching(ISO_TIME),
          cooldownRemainingMs: expect.any(Number),
          inFlight: 0,
        },
      ],
    });
    const downNow = body.upstreams[1];
    // The cool-down ends 60 s after the failure that opened it, read at `time`.
    expect(Date.parse(downNow.cooldownEndsAt) - Date.parse(body.time)).toBe(downNow.cooldownRemainingMs);
    expect(downNow.cooldownRemainingMs).toBeGreaterThan(0);
    expect(downNow.cooldownRemainingMs).toBeLessThanOrEqual(60_000);
  });
});

describe('RecentRequests', () => {
  const record = (n: number) => ({ requestId: `r${n}`, clientProtocol: 'openai-chat' as const, status: 200, stream: false, totalMs: n, warnings: [] });

  it('keeps the newest `capacity` records, newest first, without the internal error detail', () => {
    const ring = new RecentRequests(3);
    expect(ring.newest()).toEqual([]);
    for (let n = 1; n <= 5; n++) ring.add(record(n), undefined, Date.UTC(2026, 0, 1, 0, 0, n));
    expect(ring.newest().map((request) => request.requestId)).toEqual(['r5', 'r4', 'r3']);
    expect(ring.newest(2).map((request) => request.requestId)).toEqual(['r5', 'r4']);
    ring.add({ ...record(6), errorKind: 'network', errorDetail: 'connect ECONNREFUSED 10.0.0.7:443', warningsDropped: 4 }, undefined, Date.UTC(2026, 0, 1));
    expect(ring.newest(1)).toEqual([
      {
        time: '2026-01-01T00:00:00.000Z',
        requestId: 'r6',
        clientProtocol: 'openai-chat',
        status: 200,
        stream: false,
        totalMs: 6,
        errorKind: 'network',
        warnings: [],
        warningsDropped: 4,
      },
    ]);
  });

  it('writes every field it keeps, in the order the dashboard reads them', () => {
    const ring = new RecentRequests(1);
    const full = {
      requestId: 'r7',
      clientKeyId: 'team-a',
      clientProtocol: 'claude' as const,
      clientModel: 'sonnet',
      upstream: 'up',
      upstreamProtocol: 'openai-chat' as const,
      upstreamModel: 'gpt-4o-mini',
      fallbacks: 1,
      attempts: 4,
      status: 200,
      stream: true,
      usage: {
        inputTokens: 10,
        outputTokens: 5,
        cacheReadTokens: 2,
        cacheWriteTokens: 1,
        reasoningTokens: 3,
        raw: { protocol: 'openai-chat' as const, usage: { secret: 1 } },
      },
      usageEstimated: true,
      firstByteMs: 12.345,
      totalMs: 99.99,
      errorKind: 'upstream',
      errorDetail: 'internal',
      warnings: [{ code: 'dropped', message: 'm' }],
      warningsDropped: 2,
    };
    ring.add(full as Parameters<RecentRequests['add']>[0], { usd: 0.5 }, Date.UTC(2026, 0, 2));
    expect(JSON.stringify(ring.newest())).toBe(
      '[{"time":"2026-01-02T00:00:00.000Z","requestId":"r7","keyId":"team-a","clientProtocol":"claude","clientModel":"sonnet","upstream":"up",' +
        '"upstreamProtocol":"openai-chat","upstreamModel":"gpt-4o-mini","fallbacks":1,"attempts":4,"status":200,"stream":true,' +
        '"usage":{"inputTokens":10,"outputTokens":5,"cacheReadTokens":2,"cacheWriteTokens":1,"reasoningTokens":3},"usageEstimated":true,' +
        '"costUsd":0.5,"firstByteMs":12.3,"totalMs":100,"errorKind":"upstream","warnings":[{"code":"dropped","message":"m"}],"warningsDropped":2}]',
    );
  });

  it("carries the request's cost, or that its model has no price", () => {
    const ring = new RecentRequests(2);
    ring.add(record(1), { usd: 0.25 }, 0);
    ring.add(record(2), { unpriced: true }, 0);
    expect(ring.newest().map(({ requestId, costUsd, unpriced }) => ({ requestId, costUsd, unpriced }))).toEqual([
      { requestId: 'r2', costUsd: undefined, unpriced: true },
      { requestId: 'r1', costUsd: 0.25, unpriced: undefined },
    ]);
  });

  it('keeps nothing with capacity 0', () => {
    const ring = new RecentRequests(0);
    ring.add(record(1));
    expect(ring.newest()).toEqual([]);
  });
});
