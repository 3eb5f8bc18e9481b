import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { createMetrics } from '../src/metrics.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { type NodeServer, serveNode } from '../src/server/node-adapter.js';
import { type Gateway, startGateway } from '../src/server/start.js';

// Issue 20: `GET /metrics` in Prometheus text, values after known traffic through the mocks.
let chat: MockUpstream;
let down: NodeServer;
let gateway: Gateway;

const config = (metrics: unknown) =>
  parseConfig(
    JSON.stringify({
      upstreams: {
        down: { protocol: 'openai-chat', baseUrl: `${down.url}/v1` },
        chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl },
      },
      routes: [
        { match: 'broken', upstream: 'down' },
        { match: 'free-*', upstream: 'chat' },
        { match: '*', upstream: ['down', 'chat'], model: 'gpt-4.1' },
      ],
      maxRetries: 1,
      retryBaseDelayMs: 1,
      ledger: false,
      metrics,
    }).replace('"retryBaseDelayMs":1,', ''),
  );

beforeAll(async () => {
  chat = await startMockUpstream({ protocol: 'openai-chat' });
  down = await serveNode(
    async () =>
      new Response('{"error":{"message":"down","type":"server_error"}}', { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '0' } }),
  );
  gateway = await startGateway(config({ models: ['listed-model'] }), { port: 0, logger: createLogger('silent') });
});
afterAll(async () => {
  await gateway.close();
  await Promise.all([chat.close(), down.close()]);
});

async function chatCall(url: string, model: string, stream = false): Promise<number> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hello there' }] }),
  });
  await res.text();
  return res.status;
}

/** The metric lines of `names` (no comments), as exposed. */
function lines(text: string, names: readonly string[]): string[] {
  return text.split('\n').filter((line) => names.some((name) => line.startsWith(`${name}{`) || line.startsWith(`${name} `)));
}

describe('metrics', () => {
  it('counts requests, tokens, upstream attempts, failures and fallbacks after known traffic, with bounded model labels', async () => {
    expect(await chatCall(gateway.url, 'my-model')).toBe(200);
    expect(await chatCall(gateway.url, 'my-model', true)).toBe(200);
    expect(await chatCall(gateway.url, 'free-whatever')).toBe(200);
    expect(await chatCall(gateway.url, 'broken')).toBe(503);
    expect((await fetch(`${gateway.url}/health/live`)).status).toBe(200);
    const res = await fetch(`${gateway.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(lines(text, ['llm_gateway_requests_total'])).toEqual([
      'llm_gateway_requests_total{protocol="openai-chat",upstream="chat",model="gpt-4.1",status="200"} 2',
      // A glob route without a model sends the client's name: not a label value.
      'llm_gateway_requests_total{protocol="openai-chat",upstream="chat",model="other",status="200"} 1',
      'llm_gateway_requests_total{protocol="openai-chat",upstream="down",model="broken",status="503"} 1',
      'llm_gateway_requests_total{protocol="none",upstream="none",model="none",status="200"} 1',
    ]);
    expect(lines(text, ['llm_gateway_tokens_total'])).toEqual([
      // The streamed call asked for no usage (no `stream_options.include_usage`): only the other one counts.
      'llm_gateway_tokens_total{upstream="chat",model="gpt-4.1",kind="input"} 3',
      'llm_gateway_tokens_total{upstream="chat",model="gpt-4.1",kind="output"} 5',
      'llm_gateway_tokens_total{upstream="chat",model="other",kind="input"} 3',
      'llm_gateway_tokens_total{upstream="chat",model="other",kind="output"} 5',
    ]);
    // Two requests fell over from `down` (one try and one retry each), `broken` tried it twice too.
    const upstreamLines = [
      'llm_gateway_upstream_attempts_total',
      'llm_gateway_upstream_retries_total',
      'llm_gateway_upstream_failures_total',
      'llm_gateway_fallbacks_total',
    ];
    expect(lines(text, upstreamLines)).toEqual([
      'llm_gateway_upstream_attempts_total{upstream="down"} 6',
      'llm_gateway_upstream_attempts_total{upstream="chat"} 3',
      'llm_gateway_upstream_retries_total{upstream="down"} 3',
      'llm_gateway_upstream_failures_total{upstream="down",reason="503"} 6',
      'llm_gateway_fallbacks_total{upstream="chat"} 2',
    ]);
    expect(lines(text, ['llm_gateway_request_errors_total'])).toEqual([
      'llm_gateway_request_errors_total{protocol="openai-chat",upstream="down",kind="overloaded"} 1',
    ]);
    expect(lines(text, ['llm_gateway_request_duration_seconds_count', 'llm_gateway_time_to_first_byte_seconds_count'])).toEqual([
      'llm_gateway_request_duration_seconds_count{protocol="openai-chat",upstream="chat"} 3',
      'llm_gateway_request_duration_seconds_count{protocol="openai-chat",upstream="down"} 1',
      'llm_gateway_request_duration_seconds_count{protocol="none",upstream="none"} 1',
      'llm_gateway_time_to_first_byte_seconds_count{protocol="openai-chat",upstream="chat"} 3',
      'llm_gateway_time_to_first_byte_seconds_count{protocol="openai-chat",upstream="down"} 1',
      'llm_gateway_time_to_first_byte_seconds_count{protocol="none",upstream="none"} 1',
    ]);
    // The scrape itself is in flight while it is answered; no stream is open.
    expect(lines(text, ['llm_gateway_requests_in_flight', 'llm_gateway_open_streams'])).toEqual([
      'llm_gateway_requests_in_flight 1',
      'llm_gateway_open_streams 0',
    ]);
  });

  it('serves /health/ready: 200, or 503 naming each failing check', async () => {
    const ready = await fetch(`${gateway.url}/health/ready`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
    let storeUp = true;
    gateway.readiness.add({ name: 'store', ready: () => storeUp });
    gateway.readiness.add({
      name: 'throwing',
      ready: () => {
        if (!storeUp) throw new Error('check failed');
        return true;
      },
    });
    storeUp = false;
    const down = await fetch(`${gateway.url}/health/ready`);
    expect([down.status, await down.json()]).toEqual([503, { status: 'unavailable', failing: ['store', 'throwing'] }]);
    storeUp = true;
    expect((await fetch(`${gateway.url}/health/ready`)).status).toBe(200);
  });

  it('serves /metrics on a port of its own when configured, and not on the gateway port', async () => {
    const own = await startGateway(config({ port: 0 }), { port: 0, logger: createLogger('silent') });
    try {
      expect(own.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${own.url}/metrics`)).status).toBe(404);
      const res = await fetch(`${own.metricsUrl}/metrics`);
      expect(res.status).toBe(200);
      expect(lines(await res.text(), ['llm_gateway_requests_total'])).toEqual([
        'llm_gateway_requests_total{protocol="none",upstream="none",model="none",status="404"} 1',
      ]);
      expect((await fetch(`${own.metricsUrl}/other`)).status).toBe(404);
    } finally {
      await own.close();
    }
  });

  it("labels a reloaded config's route models by name, not as other", async () => {
    const reloading = await startGateway(config({}), { port: 0, logger: createLogger('silent') });
    try {
      expect(await chatCall(reloading.url, 'free-a')).toBe(200);
      const next = JSON.stringify({
        upstreams: { chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl } },
        routes: [{ match: '*', upstream: 'chat', model: 'gpt-reloaded' }],
        ledger: false,
        metrics: {},
      });
      expect(reloading.reload(() => parseConfig(next))).toBe(true);
      expect(await chatCall(reloading.url, 'free-a')).toBe(200);
      const text = await (await fetch(`${reloading.url}/metrics`)).text();
      expect(lines(text, ['llm_gateway_requests_total'])).toEqual([
        // Before: a glob route without a model sends the client's name.
        'llm_gateway_requests_total{protocol="openai-chat",upstream="chat",model="other",status="200"} 1',
        'llm_gateway_requests_total{protocol="openai-chat",upstream="chat",model="gpt-reloaded",status="200"} 1',
      ]);
    } finally {
      await reloading.close();
    }
  });

  it('has no /metrics with `metrics: false`', async () => {
    const off = await startGateway(config(false), { port: 0, logger: createLogger('silent') });
    try {
      expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
      expect(off.metricsUrl).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});

/** The Prometheus text's lines of one histogram series, from the bucket bounds and its values in seconds. */
function histogramLines(name: string, labels: string, bounds: readonly number[], values: readonly number[]): string[] {
  return [
    ...bounds.map((bound) => `${name}_bucket{le="${bound}",${labels}} ${values.filter((value) => value <= bound).length}`),
    `${name}_bucket{le="+Inf",${labels}} ${values.length}`,
    `${name}_sum{${labels}} ${values.reduce((sum, value) => sum + value, 0)}`,
    `${name}_count{${labels}} ${values.length}`,
  ];
}

const DURATION_BOUNDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const FIRST_BYTE_BOUNDS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

describe('metrics: histograms', () => {
  it('puts requests of known durations in exact buckets, a bound counted in its own bucket', async () => {
    const metrics = await createMetrics(new Set(['gpt-4.1']));
    const ended = (ms: number, ttfbMs?: number) => {
      metrics.started();
      metrics.ended({ requestId: 'r', method: 'POST', protocol: 'claude', upstream: 'a', upstreamModel: 'gpt-4.1', status: 200, ms, ttfbMs }, false);
    };
    // 50 ms and 250 ms sit on bounds: `le` is "less than or equal".
    ended(40, 10);
    ended(50, 25);
    ended(51, 26);
    ended(250, 100);
    ended(2600, 1200);
    // Beyond the last bound (300 s): in +Inf only.
    ended(301_000);
    const text = await metrics.text();
    const series = (name: string) => text.split('\n').filter((line) => line.startsWith(`${name}_`) && line.includes('protocol="claude"'));
    expect(series('llm_gateway_request_duration_seconds')).toEqual([
      'llm_gateway_request_duration_seconds_bucket{le="0.05",protocol="claude",upstream="a"} 2',
      'llm_gateway_request_duration_seconds_bucket{le="0.1",protocol="claude",upstream="a"} 3',
      'llm_gateway_request_duration_seconds_bucket{le="0.25",protocol="claude",upstream="a"} 4',
      'llm_gateway_request_duration_seconds_bucket{le="0.5",protocol="claude",upstream="a"} 4',
      'llm_gateway_request_duration_seconds_bucket{le="1",protocol="claude",upstream="a"} 4',
      'llm_gateway_request_duration_seconds_bucket{le="2.5",protocol="claude",upstream="a"} 4',
      'llm_gateway_request_duration_seconds_bucket{le="5",protocol="claude",upstream="a"} 5',
      'llm_gateway_request_duration_seconds_bucket{le="10",protocol="claude",upstream="a"} 5',
      'llm_gateway_request_duration_seconds_bucket{le="30",protocol="claude",upstream="a"} 5',
      'llm_gateway_request_duration_seconds_bucket{le="60",protocol="claude",upstream="a"} 5',
      'llm_gateway_request_duration_seconds_bucket{le="120",protocol="claude",upstream="a"} 5',
      'llm_gateway_request_duration_seconds_bucket{le="300",protocol="claude",upstream="a"} 5',
      'llm_gateway_request_duration_seconds_bucket{le="+Inf",protocol="claude",upstream="a"} 6',
      // 0.04 + 0.05 + 0.051 + 0.25 + 2.6 + 301, in floating point.
      `llm_gateway_request_duration_seconds_sum{protocol="claude",upstream="a"} ${0.04 + 0.05 + 0.051 + 0.25 + 2.6 + 301}`,
      'llm_gateway_request_duration_seconds_count{protocol="claude",upstream="a"} 6',
    ]);
    // The request with no first byte is not in the first-byte histogram.
    expect(series('llm_gateway_time_to_first_byte_seconds')).toEqual(
      histogramLines('llm_gateway_time_to_first_byte_seconds', 'protocol="claude",upstream="a"', FIRST_BYTE_BOUNDS, [0.01, 0.025, 0.026, 0.1, 1.2]),
    );
    expect(series('llm_gateway_time_to_first_byte_seconds').slice(0, 3)).toEqual([
      'llm_gateway_time_to_first_byte_seconds_bucket{le="0.025",protocol="claude",upstream="a"} 2',
      'llm_gateway_time_to_first_byte_seconds_bucket{le="0.05",protocol="claude",upstream="a"} 3',
      'llm_gateway_time_to_first_byte_seconds_bucket{le="0.1",protocol="claude",upstream="a"} 4',
    ]);
  });
});

describe('metrics: an upstream timeout', () => {
  let silent: Server;
  let silentUrl: string;
  /** Requests the silent upstream received (it answers none). */
  let received = 0;
  let timing: Gateway;
  const logLines: string[] = [];

  beforeAll(async () => {
    silent = createServer((req: IncomingMessage) => {
      received++;
      req.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const config = parseConfig(
      JSON.stringify({
        upstreams: { silent: { protocol: 'openai-chat', baseUrl: `${silentUrl}/v1`, timeoutMs: 300 } },
        routes: [{ match: '*', upstream: 'silent', model: 'gpt-4.1' }],
        maxRetries: 2,
        ledger: false,
      }),
    );
    timing = await startGateway(config, { port: 0, logger: createLogger('info', { write: (line: string) => logLines.push(line) }) });
  });
  afterAll(async () => {
    await timing?.close();
    silent?.closeAllConnections();
    await new Promise((resolve) => silent?.close(resolve));
  });

  it('counts the failure as reason="timeout" and the request as kind="timeout", tries once, and times it in its buckets', async () => {
    const res = await fetch(`${timing.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-request-id': 'timed-out' },
      body: JSON.stringify({ model: 'my-model', messages: [{ role: 'user', content: 'hello there' }] }),
    });
    await res.text();
    expect(res.status).toBe(504);
    const access = () =>
      logLines.map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry.requestId === 'timed-out' && entry.msg === 'request');
    await expect.poll(() => access() !== undefined).toBe(true);
    const { ms, ttfbMs, errorKind, attempts } = access() as { ms: number; ttfbMs: number; errorKind: string; attempts: number };
    // A timed-out attempt is not retried: the upstream already had its 300 ms.
    expect([errorKind, attempts, received]).toEqual(['timeout', 1, 1]);
    expect(ms).toBeGreaterThanOrEqual(300);
    const text = await (await fetch(`${timing.url}/metrics`)).text();
    const names = [
      'llm_gateway_upstream_attempts_total',
      'llm_gateway_upstream_retries_total',
      'llm_gateway_upstream_failures_total',
      'llm_gateway_request_errors_total',
      'llm_gateway_requests_total',
    ];
    expect(lines(text, names)).toEqual([
      'llm_gateway_requests_total{protocol="openai-chat",upstream="silent",model="gpt-4.1",status="504"} 1',
      'llm_gateway_upstream_attempts_total{upstream="silent"} 1',
      'llm_gateway_upstream_failures_total{upstream="silent",reason="timeout"} 1',
      'llm_gateway_request_errors_total{protocol="openai-chat",upstream="silent",kind="timeout"} 1',
    ]);
    // The histograms hold the very milliseconds the access line has: exact buckets whatever the machine's speed.
    const series = (name: string) => text.split('\n').filter((line) => line.startsWith(`${name}_`) && line.includes('upstream="silent"'));
    const labels = 'protocol="openai-chat",upstream="silent"';
    expect(series('llm_gateway_request_duration_seconds')).toEqual(
      histogramLines('llm_gateway_request_duration_seconds', labels, DURATION_BOUNDS, [ms / 1000]),
    );
    expect(series('llm_gateway_time_to_first_byte_seconds')).toEqual(
      histogramLines('llm_gateway_time_to_first_byte_seconds', labels, FIRST_BYTE_BOUNDS, [ttfbMs / 1000]),
    );
    // Past 300 ms: the duration's first three buckets are empty.
    expect(series('llm_gateway_request_duration_seconds').slice(0, 3)).toEqual([
      `llm_gateway_request_duration_seconds_bucket{le="0.05",${labels}} 0`,
      `llm_gateway_request_duration_seconds_bucket{le="0.1",${labels}} 0`,
      `llm_gateway_request_duration_seconds_bucket{le="0.25",${labels}} 0`,
    ]);
  });
});
