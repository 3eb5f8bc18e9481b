// Routing for resilience (issue 21): per-upstream models in fallback chains, balanced deployments,
// rotating keys, circuit breaking, context-window and content-policy reroutes, and the invariant
// that nothing is retried or rerouted once the client got its first byte.
import { describe, expect, it, vi } from 'vitest';
import { RoutingState } from '../src/balancing/routing-state.js';
import type { RequestRecord, RouterConfig, UpstreamConfig, UpstreamRequest, UpstreamResponse } from '../src/config.js';
import { createHandler } from '../src/handler.js';
import { answer } from './upstream-answer.js';

interface Sent {
  upstream: string;
  model: unknown;
  key: string | undefined;
}

const completion = (model: string) =>
  answer(200, 'application/json', [
    JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    }),
  ]);
const chatError = (status: number, code: string | null, message = 'refused') =>
  answer(status, 'application/json', [JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code } })]);

const upstream = (name: string, extra: Partial<UpstreamConfig> = {}): UpstreamConfig => ({
  protocol: 'openai-chat',
  baseUrl: `http://${name}.test/v1`,
  apiKey: `key-${name}`,
  ...extra,
});

/**
 * A router on scripted upstreams: `reply(upstream, model, index)` answers each call. Every call
 * is recorded (upstream, model sent, key sent).
 */
function scripted(reply: (upstream: string, model: unknown, index: number) => UpstreamResponse | Promise<UpstreamResponse>, config: Partial<RouterConfig>) {
  const sent: Sent[] = [];
  const records: RequestRecord[] = [];
  const transport = async (request: UpstreamRequest): Promise<UpstreamResponse> => {
    const body = JSON.parse(new TextDecoder().decode(request.body as Uint8Array)) as { model: unknown };
    const name = new URL(request.url).hostname.replace(/\.test$/, '');
    sent.push({ upstream: name, model: body.model, key: request.headers?.authorization?.replace(/^Bearer /, '') });
    return reply(name, body.model, sent.length - 1);
  };
  const handler = createHandler({
    upstreams: {},
    routes: [],
    transport,
    maxRetries: 0,
    retryBaseDelayMs: 1,
    hooks: { onRequestEnd: (record) => records.push(record) },
    ...config,
  });
  const ask = async (model: string, extra: Record<string, unknown> = {}) => {
    const response = await handler(
      new Request('http://router.test/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], ...extra }),
      }),
    );
    return { status: response.status, body: await response.text() };
  };
  return { sent, records, ask };
}

describe('fallback chains name the model per upstream', () => {
  it('each upstream of the chain gets its own model; a plain name gets the route model', async () => {
    const { sent, records, ask } = scripted((name, model) => (name === 'openai' ? completion(String(model)) : chatError(503, null, 'down')), {
      upstreams: { anthropic: upstream('anthropic'), azure: upstream('azure'), openai: upstream('openai') },
      routes: [{ match: 'smart', model: 'route-model', upstream: [{ name: 'anthropic', model: 'claude-x' }, 'azure', { name: 'openai', model: 'gpt-y' }] }],
    });
    expect((await ask('smart')).status).toBe(200);
    expect(sent.map(({ upstream, model }) => [upstream, model])).toEqual([
      ['anthropic', 'claude-x'],
      ['azure', 'route-model'],
      ['openai', 'gpt-y'],
    ]);
    expect(records[0]).toMatchObject({ upstream: 'openai', upstreamModel: 'gpt-y', clientModel: 'smart', status: 200 });
  });
});

describe('balanced deployments and keys', () => {
  it('weighted with a seeded draw: exact first picks, the other deployment as the fallback', async () => {
    const draws = [0.1, 0.9, 0.5, 0.8];
    const routingState = new RoutingState({ random: () => draws.shift() as number });
    const { sent, ask } = scripted((_name, model, index) => (index === 3 ? chatError(500, null, 'oops') : completion(String(model))), {
      upstreams: { a: upstream('a'), b: upstream('b') },
      // Total 4: [0, 3) a, [3, 4) b.
      routes: [
        {
          match: 'm',
          upstream: [
            { name: 'a', weight: 3 },
            { name: 'b', weight: 1 },
          ],
        },
      ],
      routingState,
    });
    for (let i = 0; i < 4; i++) expect((await ask('m')).status).toBe(200);
    expect(sent.map((item) => item.upstream)).toEqual(['a', 'b', 'a', 'b', 'a']);
    // The fourth request: b (0.8) failed with 500 and its fallback a answered.
  });

  it('round-robin turns per request; apiKeys rotate per call, one key each', async () => {
    const { sent, ask } = scripted((_name, model) => completion(String(model)), {
      upstreams: { a: upstream('a', { apiKey: undefined, apiKeys: ['a1', 'a2', 'a3'] }), b: upstream('b') },
      routes: [{ match: 'm', upstream: ['a', 'b'], strategy: 'round-robin' }],
    });
    for (let i = 0; i < 5; i++) await ask('m');
    expect(sent.map((item) => `${item.upstream}:${item.key}`)).toEqual(['a:a1', 'b:key-b', 'a:a2', 'b:key-b', 'a:a3']);
  });

  it('least-busy: a deployment with a call in flight (until its answer ends) is picked last', async () => {
    const routingState = new RoutingState();
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { sent, ask } = scripted(
      async (name, model) => {
        if (name === 'a' && sent.length === 1) await held;
        return completion(String(model));
      },
      { upstreams: { a: upstream('a'), b: upstream('b') }, routes: [{ match: 'm', upstream: ['a', 'b'], strategy: 'least-busy' }], routingState },
    );
    const first = ask('m');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(routingState.inFlight('a')).toBe(1);
    await ask('m');
    release?.();
    await first;
    expect(sent.map((item) => item.upstream)).toEqual(['a', 'b']);
    expect([routingState.inFlight('a'), routingState.inFlight('b')]).toEqual([0, 0]);
  });

  it('lowest-latency: the deployment that answered faster gets the next request', async () => {
    let now = 0;
    const routingState = new RoutingState({ now: () => now });
    const { sent, ask } = scripted(
      (name, model) => {
        now += name === 'a' ? 300 : 100;
        return completion(String(model));
      },
      { upstreams: { a: upstream('a'), b: upstream('b') }, routes: [{ match: 'm', upstream: ['a', 'b'], strategy: 'lowest-latency' }], routingState },
    );
    for (let i = 0; i < 4; i++) await ask('m');
    // a, then b (unmeasured first), then b (100 < 300) twice.
    expect(sent.map((item) => item.upstream)).toEqual(['a', 'b', 'b', 'b']);
    expect([routingState.latency('a'), routingState.latency('b')]).toEqual([300, 100]);
  });
});

describe('circuit breaking', () => {
  const setup = (reply: (name: string, model: unknown) => UpstreamResponse | Promise<UpstreamResponse>) => {
    const clock = { now: 0 };
    const routingState = new RoutingState({ now: () => clock.now, circuitBreaker: { failures: 2, windowMs: 1_000, cooldownMs: 500 } });
    const router = scripted(reply, {
      upstreams: { a: upstream('a'), b: upstream('b') },
      routes: [{ match: 'm', upstream: ['a', 'b'] }],
      routingState,
    });
    return { ...router, clock, routingState };
  };

  it('skips an upstream after N failures, probes it once after the cool-down, closes on success', async () => {
    let aHealthy = false;
    const { sent, ask, clock, routingState } = setup((name, model) =>
      name === 'a' && !aHealthy ? chatError(429, null, 'slow down') : completion(String(model)),
    );
    await ask('m');
    await ask('m');
    expect(routingState.circuitState('a')).toBe('open');
    await ask('m');
    expect(sent.map((item) => item.upstream)).toEqual(['a', 'b', 'a', 'b', 'b']);
    clock.now = 500;
    aHealthy = true;
    expect(routingState.circuitState('a')).toBe('half-open');
    await ask('m');
    expect(routingState.circuitState('a')).toBe('closed');
    expect(sent.slice(5).map((item) => item.upstream)).toEqual(['a']);
  });

  it('connection errors and timeouts count; a failed probe re-opens the circuit', async () => {
    const { sent, ask, clock, routingState } = setup((name, model) => {
      if (name === 'a') throw new TypeError('connect ECONNREFUSED');
      return completion(String(model));
    });
    await ask('m');
    await ask('m');
    expect(routingState.circuitState('a')).toBe('open');
    clock.now = 600;
    await ask('m'); // the probe fails: open again until 1100
    expect(routingState.circuitState('a')).toBe('open');
    clock.now = 1_099;
    await ask('m');
    expect(sent.map((item) => item.upstream)).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'b']);
  });

  it('a snapshot reports failures in the window, the cool-down end and the probe (for the admin API)', () => {
    const clock = { now: 0 };
    const routingState = new RoutingState({ now: () => clock.now, circuitBreaker: { failures: 2, windowMs: 1_000, cooldownMs: 500 } });
    expect(routingState.circuitSnapshot('a')).toEqual({ state: 'closed', recentFailures: 0 });
    routingState.failed('a');
    clock.now = 1_000;
    expect(routingState.circuitSnapshot('a')).toEqual({ state: 'closed', recentFailures: 0 });
    routingState.failed('a');
    clock.now = 1_100;
    routingState.failed('a');
    expect(routingState.circuitSnapshot('a')).toEqual({ state: 'open', recentFailures: 0, openUntil: 1_600 });
    clock.now = 1_600;
    routingState.sending('a');
    expect(routingState.circuitSnapshot('a')).toEqual({ state: 'half-open', recentFailures: 0, openUntil: 1_600, probeAt: 1_600 });
    routingState.answered('a', 10);
    expect(routingState.circuitSnapshot('a')).toEqual({ state: 'closed', recentFailures: 0 });
  });

  it("a request's own error (400) does not count against the upstream", async () => {
    const { ask, routingState } = setup(() => chatError(400, null, 'bad field'));
    for (let i = 0; i < 3; i++) expect((await ask('m')).status).toBe(400);
    expect(routingState.circuitState('a')).toBe('closed');
  });

  it("every upstream of the route open: 503 in the client's protocol at once, no call made", async () => {
    const { sent, ask, records } = setup(() => chatError(503, null, 'down'));
    await ask('m');
    await ask('m');
    const reply = await ask('m');
    expect(sent).toHaveLength(4);
    expect(reply.status).toBe(503);
    expect(JSON.parse(reply.body)).toEqual({
      error: {
        message: 'every upstream of the route for m is cooling down after failures; try again later',
        type: 'service_unavailable_error',
        param: null,
        code: null,
      },
    });
    expect(records[2]).toMatchObject({ status: 503, errorKind: 'overloaded' });
  });

  it('circuitBreaker: false never skips an upstream', async () => {
    const { sent, ask } = scripted(() => chatError(503, null, 'down'), {
      upstreams: { a: upstream('a') },
      routes: [{ match: 'm', upstream: 'a' }],
      circuitBreaker: false,
    });
    for (let i = 0; i < 7; i++) await ask('m');
    expect(sent).toHaveLength(7);
  });

  it('defaults: 5 failures open the circuit', async () => {
    const { sent, ask } = scripted(() => chatError(503, null, 'down'), {
      upstreams: { a: upstream('a'), b: upstream('b') },
      routes: [{ match: 'm', upstream: ['a', 'b'] }],
    });
    for (let i = 0; i < 7; i++) await ask('m');
    expect(sent).toHaveLength(10);
  });

  it("a route of one upstream never skips it: the client gets the upstream's own answer", async () => {
    const routingState = new RoutingState({ circuitBreaker: { failures: 2 } });
    const { sent, ask } = scripted(() => chatError(429, null, 'slow down'), {
      upstreams: { a: upstream('a'), b: upstream('b') },
      routes: [
        { match: 'solo', upstream: 'a' },
        { match: 'pair', upstream: ['a', 'b'] },
      ],
      routingState,
    });
    for (let i = 0; i < 3; i++) expect((await ask('solo')).status).toBe(429);
    expect(routingState.circuitState('a')).toBe('open');
    await ask('pair');
    expect(sent.map((item) => item.upstream)).toEqual(['a', 'a', 'a', 'b']);
  });
});

describe('context-window and content-policy reroutes', () => {
  const routes: RouterConfig['routes'] = [
    { match: 'small', upstream: [{ name: 'a', model: 'small-ctx' }, 'b'], contextFallback: 'large', contentPolicyFallback: 'lenient' },
    { match: 'large', upstream: { name: 'c', model: 'large-ctx' } },
    { match: 'lenient', upstream: { name: 'd', model: 'lenient-model' } },
  ];
  const upstreams = { a: upstream('a'), b: upstream('b'), c: upstream('c'), d: upstream('d') };

  it("a context-window error reroutes to contextFallback (the chain's other upstreams skipped)", async () => {
    const { sent, ask, records } = scripted(
      (name, model) => (name === 'a' ? chatError(400, 'context_length_exceeded', 'maximum context length is 8192 tokens') : completion(String(model))),
      { upstreams, routes },
    );
    const reply = await ask('small');
    expect(reply.status).toBe(200);
    expect(sent.map(({ upstream, model }) => [upstream, model])).toEqual([
      ['a', 'small-ctx'],
      ['c', 'large-ctx'],
    ]);
    expect(records[0]).toMatchObject({ upstream: 'c', upstreamModel: 'large-ctx', clientModel: 'small', status: 200 });
  });

  it('a content-policy refusal reroutes to contentPolicyFallback; each reroute is taken once', async () => {
    const { sent, ask } = scripted(() => chatError(400, 'content_policy_violation', 'refused by policy'), {
      upstreams,
      routes: [{ ...routes[0], contentPolicyFallback: 'small' } as RouterConfig['routes'][0], ...routes.slice(1)],
    });
    const reply = await ask('small');
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      error: { message: 'refused by policy', type: 'invalid_request_error', param: null, code: 'content_policy_violation' },
    });
    expect(sent.map((item) => item.upstream)).toEqual(['a', 'a']);
  });

  it('without a configured fallback the error is answered as the upstream gave it', async () => {
    const { sent, ask } = scripted(() => chatError(400, 'context_length_exceeded', 'too long'), {
      upstreams,
      routes: [{ match: 'small', upstream: ['a', 'b'] }],
    });
    const reply = await ask('small');
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).error.code).toBe('context_length_exceeded');
    expect(sent).toHaveLength(1);
  });
});

describe('retries', () => {
  it('back off by retryBaseDelayMs doubling, capped by maxRetryDelayMs', async () => {
    const times: number[] = [];
    const { ask } = scripted(
      (_name, model) => {
        times.push(performance.now());
        return times.length < 4 ? chatError(503, null, 'busy') : completion(String(model));
      },
      { upstreams: { a: upstream('a') }, routes: [{ match: 'm', upstream: 'a' }], maxRetries: 3, retryBaseDelayMs: 40, maxRetryDelayMs: 60 },
    );
    // The waits asked of the timers (the call's own timeout is the long one), and the gaps they made.
    const timer = vi.spyOn(globalThis, 'setTimeout');
    let asked: unknown[];
    try {
      expect((await ask('m')).status).toBe(200);
    } finally {
      asked = timer.mock.calls.map(([, ms]) => ms);
      timer.mockRestore();
    }
    const waits = asked.filter((ms): ms is number => typeof ms === 'number' && ms < 1_000);
    // 40, then 80 and 160 capped to 60.
    expect(waits).toEqual([40, 60, 60]);
    // A timer fires no earlier than asked (give or take 1 ms); a loaded machine may fire it later.
    const gaps = times.slice(1).map((time, i) => time - (times[i] as number));
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual((waits[i] as number) - 1));
  });

  it('never after the first byte: a stream cut mid-way is neither retried nor handed to the fallback', async () => {
    const chunk = (delta: Record<string, unknown>) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'x', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
    const routingState = new RoutingState();
    const { sent, ask, records } = scripted(
      (name) => {
        if (name === 'b') return completion('b');
        const cut = answer(200, 'text/event-stream', [chunk({ role: 'assistant', content: 'Hel' })]);
        return {
          ...cut,
          chunks: async function* () {
            yield* cut.chunks?.() ?? [];
            throw new TypeError('socket hang up');
          },
        };
      },
      { upstreams: { a: upstream('a'), b: upstream('b') }, routes: [{ match: 'm', upstream: ['a', 'b'] }], maxRetries: 2, routingState },
    );
    const reply = await ask('m', { stream: true });
    expect(reply.status).toBe(200);
    expect(reply.body.startsWith(chunk({ role: 'assistant', content: 'Hel' }))).toBe(true);
    expect(sent.map((item) => item.upstream)).toEqual(['a']);
    expect(records[0]?.upstream).toBe('a');
    // The stream's end (here its failure) ends the call's in-flight count.
    expect(routingState.inFlight('a')).toBe(0);
  });
});
