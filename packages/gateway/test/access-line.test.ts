import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { type NodeServer, serveNode } from '../src/server/node-adapter.js';
import { type Gateway, startGateway } from '../src/server/start.js';
import { slowClaudeStream } from './helpers/slow-claude.js';

// Issue 20: one access line per request, written once the answer is over, with what an operator
// needs: ids, protocol, models, upstream and fallbacks, status, first byte and total time, tokens,
// error kind. Failed upstream attempts have their own lines.
let chat: MockUpstream;
let slow: NodeServer;
let refused: NodeServer;
let gateway: Gateway;
const lines: string[] = [];

beforeAll(async () => {
  chat = await startMockUpstream({ protocol: 'openai-chat' });
  // Six deltas 50 ms apart: a stream that lasts ~300 ms.
  slow = await serveNode(async () => slowClaudeStream({ deltas: 6, everyMs: 50, usage: { input_tokens: 12, output_tokens: 1, cache_read_input_tokens: 4 } }));
  // An upstream that always fails: 503.
  refused = await serveNode(
    async () => new Response('{"error":{"message":"down","type":"server_error"}}', { status: 503, headers: { 'content-type': 'application/json' } }),
  );
  const config = parseConfig(
    JSON.stringify({
      upstreams: {
        down: { protocol: 'openai-chat', baseUrl: `${refused.url}/v1` },
        chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl },
        slow: { protocol: 'claude', baseUrl: slow.url },
      },
      routes: [
        { match: 'slow-*', upstream: 'slow', model: 'claude-slow' },
        { match: 'broken', upstream: 'down' },
        { match: '*', upstream: ['down', 'chat'], model: 'gpt-4.1' },
      ],
      maxRetries: 0,
      ledger: false,
    }),
  );
  gateway = await startGateway(config, { port: 0, logger: createLogger('info', { write: (line: string) => lines.push(line) }) });
});
afterAll(async () => {
  await gateway.close();
  await Promise.all([chat.close(), slow.close(), refused.close()]);
});

/** Posts `body` to `path` under `requestId` and reads the whole answer. */
async function post(path: string, requestId: string, body: object): Promise<number> {
  const res = await fetch(`${gateway.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'x-request-id': requestId } });
  await res.text();
  return res.status;
}

function entries(requestId: string): Record<string, unknown>[] {
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.requestId === requestId);
}

/** A line without its clock-dependent fields, which are checked apart. */
function timeless(entry: Record<string, unknown> | undefined): Record<string, unknown> {
  const { time, ttfbMs, ms, ...rest } = entry ?? {};
  return rest;
}

describe('access line', () => {
  it('names the fallback taken, the upstream and its model, the tokens; the failed attempt has its own warn line', async () => {
    lines.length = 0;
    expect(await post('/v1/chat/completions', 'fell-over', { model: 'my-model', messages: [{ role: 'user', content: 'hello there' }] })).toBe(200);
    await expect.poll(() => entries('fell-over').length).toBe(2);
    const [failed, access] = entries('fell-over');
    expect(timeless(failed)).toEqual({ level: 40, name: 'llm-gateway', requestId: 'fell-over', upstream: 'down', status: 503, msg: 'upstream attempt failed' });
    expect(timeless(access)).toEqual({
      level: 30,
      name: 'llm-gateway',
      requestId: 'fell-over',
      method: 'POST',
      path: '/v1/chat/completions',
      protocol: 'openai-chat',
      clientModel: 'my-model',
      upstream: 'chat',
      upstreamModel: 'gpt-4.1',
      fallbacks: 1,
      // Down's one call (maxRetries 0), then chat's.
      attempts: 2,
      status: 200,
      inputTokens: 3,
      outputTokens: 5,
      msg: 'request',
    });
    expect(access?.ttfbMs).toBeTypeOf('number');
    expect(access?.ms).toBeGreaterThanOrEqual(access?.ttfbMs as number);
  });

  it("times a stream's first byte and its end apart, and counts its cached tokens", async () => {
    lines.length = 0;
    expect(await post('/v1/messages', 'slow-stream', { model: 'slow-one', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] })).toBe(
      200,
    );
    await expect.poll(() => entries('slow-stream').length).toBe(1);
    const [access] = entries('slow-stream');
    expect(timeless(access)).toEqual({
      level: 30,
      name: 'llm-gateway',
      requestId: 'slow-stream',
      method: 'POST',
      path: '/v1/messages',
      protocol: 'claude',
      clientModel: 'slow-one',
      upstream: 'slow',
      upstreamModel: 'claude-slow',
      fallbacks: 0,
      attempts: 1,
      status: 200,
      // Claude's 12 uncached input tokens plus its 4 cache reads.
      inputTokens: 16,
      outputTokens: 6,
      cachedTokens: 4,
      msg: 'request',
    });
    // Six deltas 50 ms apart: the line's `ms` is the stream's end, not its head.
    expect(access?.ttfbMs as number).toBeLessThan(200);
    expect(access?.ms as number).toBeGreaterThanOrEqual(250);
  });

  it('writes a 5xx at warn with its error kind', async () => {
    lines.length = 0;
    expect(await post('/v1/chat/completions', 'broken', { model: 'broken', messages: [{ role: 'user', content: 'hi' }] })).toBe(503);
    await expect.poll(() => entries('broken').filter((entry) => entry.msg === 'request').length).toBe(1);
    const access = entries('broken').find((entry) => entry.msg === 'request');
    expect(timeless(access)).toEqual({
      level: 40,
      name: 'llm-gateway',
      requestId: 'broken',
      method: 'POST',
      path: '/v1/chat/completions',
      protocol: 'openai-chat',
      clientModel: 'broken',
      upstream: 'down',
      upstreamModel: 'broken',
      fallbacks: 0,
      attempts: 1,
      status: 503,
      errorKind: 'overloaded',
      msg: 'request',
    });
  });

  it('logs translation warnings at debug only: none at info', async () => {
    lines.length = 0;
    expect(
      await post('/v1/messages', 'warned', {
        model: 'any',
        max_tokens: 5,
        metadata: { user_id: 'u', extra: 'x' },
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).toBe(200);
    await expect.poll(() => entries('warned').filter((entry) => entry.msg === 'request').length).toBe(1);
    expect(
      entries('warned')
        .filter((entry) => entry.requestId === 'warned')
        .map((entry) => entry.msg),
      // The route's first upstream is down: its attempt's line shares the request id.
    ).toEqual(['upstream attempt failed', 'request']);
  });
});

describe('access line: attempts, with retries', () => {
  let flaky: NodeServer;
  let busy: NodeServer;
  let retrying: Gateway;
  /** Calls the flaky upstream answers 503 before it answers 200. */
  let flakyFailures = 0;
  const retryLines: string[] = [];

  // `retry-after: 0`: retried at once (the config has no backoff setting; its default is 500 ms).
  const busyAnswer = () =>
    new Response('{"error":{"message":"busy","type":"server_error"}}', { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '0' } });

  beforeAll(async () => {
    busy = await serveNode(async () => busyAnswer());
    flaky = await serveNode(async () => {
      if (flakyFailures > 0) {
        flakyFailures--;
        return busyAnswer();
      }
      const body = {
        id: 'chatcmpl-flaky',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-flaky',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
      };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const config = parseConfig(
      JSON.stringify({
        upstreams: {
          flaky: { protocol: 'openai-chat', baseUrl: `${flaky.url}/v1` },
          down: { protocol: 'openai-chat', baseUrl: `${busy.url}/v1` },
          chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl },
        },
        routes: [
          { match: 'flaky', upstream: 'flaky', model: 'gpt-flaky' },
          { match: 'fall', upstream: ['down', 'chat'], model: 'gpt-4.1' },
          { match: 'clean', upstream: 'chat', model: 'gpt-4.1' },
        ],
        maxRetries: 2,
        ledger: false,
      }),
    );
    retrying = await startGateway(config, { port: 0, logger: createLogger('info', { write: (line: string) => retryLines.push(line) }) });
  });
  afterAll(async () => {
    await retrying?.close();
    await Promise.all([flaky?.close(), busy?.close()]);
  });

  async function ask(requestId: string, model: string): Promise<Record<string, unknown>> {
    const res = await fetch(`${retrying.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello there' }] }),
      headers: { 'x-request-id': requestId },
    });
    await res.text();
    expect(res.status).toBe(200);
    const access = () =>
      retryLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.requestId === requestId && entry.msg === 'request');
    await expect.poll(() => access().length).toBe(1);
    return timeless(access()[0]);
  }

  const base = { level: 30, name: 'llm-gateway', method: 'POST', path: '/v1/chat/completions', protocol: 'openai-chat', status: 200, msg: 'request' };

  it('counts the retries on one upstream, a fallback after retries, and a clean request; the metrics count the same retries', async () => {
    flakyFailures = 2;
    expect(await ask('retried', 'flaky')).toEqual({
      ...base,
      requestId: 'retried',
      clientModel: 'flaky',
      upstream: 'flaky',
      upstreamModel: 'gpt-flaky',
      fallbacks: 0,
      // 503, 503, then 200: all three on the same upstream.
      attempts: 3,
      inputTokens: 7,
      outputTokens: 2,
    });
    expect(await ask('fell-over', 'fall')).toEqual({
      ...base,
      requestId: 'fell-over',
      clientModel: 'fall',
      upstream: 'chat',
      upstreamModel: 'gpt-4.1',
      fallbacks: 1,
      // Down's call and its two retries, then chat's.
      attempts: 4,
      inputTokens: 3,
      outputTokens: 5,
    });
    expect(await ask('clean', 'clean')).toEqual({
      ...base,
      requestId: 'clean',
      clientModel: 'clean',
      upstream: 'chat',
      upstreamModel: 'gpt-4.1',
      fallbacks: 0,
      attempts: 1,
      inputTokens: 3,
      outputTokens: 5,
    });
    const text = await (await fetch(`${retrying.url}/metrics`)).text();
    const names = ['llm_gateway_upstream_attempts_total', 'llm_gateway_upstream_retries_total', 'llm_gateway_fallbacks_total'];
    expect(text.split('\n').filter((line) => names.some((name) => line.startsWith(`${name}{`)))).toEqual([
      'llm_gateway_upstream_attempts_total{upstream="flaky"} 3',
      'llm_gateway_upstream_attempts_total{upstream="down"} 3',
      'llm_gateway_upstream_attempts_total{upstream="chat"} 2',
      'llm_gateway_upstream_retries_total{upstream="flaky"} 2',
      'llm_gateway_upstream_retries_total{upstream="down"} 2',
      'llm_gateway_fallbacks_total{upstream="chat"} 1',
    ]);
  });
});
