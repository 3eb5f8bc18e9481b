import { RoutingState } from '@llm/router';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../../src/mock/server.js';
import { askChat, type FailingUpstream, startFailingUpstream } from '../helpers/failing-upstream.js';
import { type Gateway, startGateway } from '../../src/server/start.js';
import { connectRedis } from '../../src/store/redis/state-store.js';
import { RedisRoutingChannel, ROUTING_CHANNEL, ROUTING_LOG_KEY } from '../../src/store/redis/routing-channel.js';

// Issue 21: gateways on one Redis see one circuit. The upstream's name is unique to this run, as
// other test files share the Redis (and its routing channel).
const flaky = `flaky${crypto.randomUUID().slice(0, 8)}`;
let chat: MockUpstream;
let down: FailingUpstream;
const gateways: Gateway[] = [];

beforeAll(async () => {
  chat = await startMockUpstream({ protocol: 'openai-chat' });
  down = await startFailingUpstream();
});
afterAll(async () => {
  for (const gateway of gateways) await gateway.close();
  await Promise.all([chat?.close(), down?.server.close()]);
});

async function startOne(): Promise<Gateway> {
  const config = parseConfig(
    JSON.stringify({
      upstreams: { [flaky]: { protocol: 'openai-chat', baseUrl: `${down.server.url}/v1` }, chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl } },
      routes: [{ match: '*', upstream: [flaky, 'chat'] }],
      maxRetries: 0,
      ledger: false,
      circuitBreaker: { failures: 3, windowMs: 60_000, cooldownMs: 60_000 },
      store: { redis: '${REDIS_URL}' },
    }),
    { REDIS_URL: inject('redisUrl') },
  );
  const gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
  gateways.push(gateway);
  return gateway;
}

const circuits = async (gateway: Gateway) => ((await (await fetch(`${gateway.url}/health/ready`)).json()) as { circuits?: Record<string, string> }).circuits;

describe('circuits shared through Redis', () => {
  it('failures seen by two gateways open one circuit on both; a gateway started later sees it open too', async () => {
    const [a, b] = await Promise.all([startOne(), startOne()]);
    down.calls = 0;
    // Two failures on a, one on b: three within the window, counted together.
    expect((await askChat((a as Gateway).url, 'm')).status).toBe(200);
    expect((await askChat((a as Gateway).url, 'm')).status).toBe(200);
    await expect.poll(() => circuits(b as Gateway)).toBeUndefined();
    expect((await askChat((b as Gateway).url, 'm')).status).toBe(200);
    expect(down.calls).toBe(3);
    await expect.poll(() => circuits(a as Gateway)).toEqual({ [flaky]: 'open' });
    expect(await circuits(b as Gateway)).toEqual({ [flaky]: 'open' });
    // Neither sends to the open upstream; the fallback answers.
    expect((await askChat((a as Gateway).url, 'm')).status).toBe(200);
    expect((await askChat((b as Gateway).url, 'm')).status).toBe(200);
    expect(down.calls).toBe(3);
    const late = await startOne();
    expect(await circuits(late)).toEqual({ [flaky]: 'open' });
    expect((await askChat(late.url, 'm')).status).toBe(200);
    expect(down.calls).toBe(3);
  });

  it('drops what is not a routing event from the channel; keeps circuit events, not latency samples, in the start log', async () => {
    const redis = await connectRedis(inject('redisUrl'), () => undefined);
    try {
      const channel = await RedisRoutingChannel.open(redis, () => undefined);
      const state = new RoutingState({ channel });
      await redis.publish(ROUTING_CHANNEL, 'not json');
      await redis.publish(ROUTING_CHANNEL, JSON.stringify({ from: 'x', event: { type: 'failure', upstream: 'u' } }));
      await redis.publish(ROUTING_CHANNEL, JSON.stringify({ from: 'x', event: { type: 'latency', upstream: 'u', ms: 42 } }));
      await expect.poll(() => state.latency('u')).toBe(42);
      expect(state.circuitState('u')).toBe('closed');
      // Circuit events go to the start log; latency samples only over the channel.
      const mine = async () =>
        (await redis.lrange(ROUTING_LOG_KEY, 0, -1)).map((text) => JSON.parse(text).event).filter((event) => event.upstream === `v-${flaky}`);
      state.failed(`v-${flaky}`);
      state.answered(`v-${flaky}`, 5);
      await expect.poll(mine).toEqual([{ type: 'failure', upstream: `v-${flaky}`, at: expect.any(Number) }]);
      await channel.close();
    } finally {
      redis.disconnect();
    }
  });
});
