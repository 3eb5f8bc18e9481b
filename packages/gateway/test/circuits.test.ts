import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { askChat, type FailingUpstream, startFailingUpstream } from './helpers/failing-upstream.js';
import { type Gateway, startGateway } from '../src/server/start.js';

// Issue 21: a failing upstream's circuit opens after N failures, is skipped (the fallback
// answers), shows in /metrics and in /health/ready, which fails only when every routed upstream is open.
let chat: MockUpstream;
let down: FailingUpstream;

beforeAll(async () => {
  chat = await startMockUpstream({ protocol: 'openai-chat' });
  down = await startFailingUpstream();
});
afterAll(async () => {
  await Promise.all([chat.close(), down.server.close()]);
});

async function gatewayFor(routes: unknown, upstreamNames: string[]): Promise<Gateway> {
  const all: Record<string, unknown> = {
    down: { protocol: 'openai-chat', baseUrl: `${down.server.url}/v1` },
    down2: { protocol: 'openai-chat', baseUrl: `${down.server.url}/v1` },
    chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl },
  };
  const upstreams = Object.fromEntries(upstreamNames.map((name) => [name, all[name]]));
  const config = parseConfig(
    JSON.stringify({ upstreams, routes, maxRetries: 0, ledger: false, circuitBreaker: { failures: 2, windowMs: 60_000, cooldownMs: 60_000 } }),
  );
  return startGateway(config, { port: 0, logger: createLogger('silent') });
}

const ready = async (gateway: Gateway) => {
  const res = await fetch(`${gateway.url}/health/ready`);
  return [res.status, await res.json()];
};

const circuitLines = async (gateway: Gateway) =>
  (await (await fetch(`${gateway.url}/metrics`)).text()).split('\n').filter((line) => line.startsWith('llm_gateway_upstream_circuit_state'));

describe('circuit breaking in the gateway', () => {
  it('skips the open upstream for its fallback, and reports it in metrics and readiness without failing it', async () => {
    const gateway = await gatewayFor([{ match: '*', upstream: ['down', 'chat'] }], ['down', 'chat']);
    try {
      down.calls = 0;
      expect(await ready(gateway)).toEqual([200, { status: 'ready' }]);
      expect(await circuitLines(gateway)).toEqual([
        'llm_gateway_upstream_circuit_state{upstream="down"} 0',
        'llm_gateway_upstream_circuit_state{upstream="chat"} 0',
      ]);
      for (let i = 0; i < 2; i++) expect((await askChat(gateway.url, 'gpt-4.1')).status).toBe(200);
      expect(down.calls).toBe(2);
      expect(await ready(gateway)).toEqual([200, { status: 'ready', circuits: { down: 'open' } }]);
      expect(await circuitLines(gateway)).toEqual([
        'llm_gateway_upstream_circuit_state{upstream="down"} 2',
        'llm_gateway_upstream_circuit_state{upstream="chat"} 0',
      ]);
      expect((await askChat(gateway.url, 'gpt-4.1')).status).toBe(200);
      expect(down.calls).toBe(2);
    } finally {
      await gateway.close();
    }
  });

  it('answers 503 at once and fails readiness once every upstream of every route is open', async () => {
    const gateway = await gatewayFor([{ match: '*', upstream: ['down', 'down2'] }], ['down', 'down2']);
    try {
      down.calls = 0;
      for (let i = 0; i < 2; i++) expect((await askChat(gateway.url, 'm')).status).toBe(503);
      expect(down.calls).toBe(4);
      const skipped = await askChat(gateway.url, 'm');
      expect([skipped.status, await skipped.json()]).toEqual([
        503,
        {
          error: {
            message: 'every upstream of the route for * is cooling down after failures; try again later',
            type: 'service_unavailable_error',
            param: null,
            code: null,
          },
        },
      ]);
      expect(down.calls).toBe(4);
      expect(await ready(gateway)).toEqual([503, { status: 'unavailable', failing: ['upstreams'], circuits: { down: 'open', down2: 'open' } }]);
    } finally {
      await gateway.close();
    }
  });
});
