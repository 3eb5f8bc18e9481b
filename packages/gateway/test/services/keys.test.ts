// Virtual keys on three gateways sharing PostgreSQL and Redis (issue 22): a change made through
// one gateway's admin API or the CLI holds on every gateway at once (Redis invalidation, with a
// cache TTL of a minute to prove it is not the TTL); many concurrent requests on several
// instances never pass a key's rpm, and its spend stays within the documented budget bound.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startPostgres } from '../../../../scripts/services.mjs';
import { type CliIo, runCli } from '../../src/cli/run.js';
import { parseConfig } from '../../src/config/load.js';
import { openLimiter } from '../../src/limits/index.js';
import { createLogger } from '../../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../../src/mock/server.js';
import { type Gateway, startGateway } from '../../src/server/start.js';
import { ADMIN_KEY, createKey } from '../helpers/keys-gateway.js';
import { freshDatabase, query } from './databases.js';

const MODEL = 'claude-sonnet-4-5';
let claude: MockUpstream;
let gateways: Gateway[] = [];
let configFile: string;
let env: Record<string, string>;

beforeAll(async () => {
  claude = await startMockUpstream({ protocol: 'claude' });
  const dir = mkdtempSync(join(tmpdir(), 'keys-services-'));
  configFile = join(dir, 'gateway.yaml');
  writeFileSync(
    configFile,
    `keys: [{ name: file-key, key: client-key }]
adminKey: ${ADMIN_KEY}
upstreams: { claude: { protocol: claude, baseUrl: "${claude.baseUrl}", apiKey: k } }
routes: [{ match: "*", upstream: claude }]
maxRetries: 0
metrics: false
virtualKeys: { cacheTtlMs: 60000 }
store: { postgres: "\${DATABASE_URL}", redis: "\${REDIS_URL}" }
`,
  );
  env = { DATABASE_URL: await freshDatabase(), REDIS_URL: inject('redisUrl') };
  const config = () => parseConfig(readFileSync(configFile, 'utf8'), env, configFile, { baseDir: dir });
  // All start at once, as replicas do: the migrations run once under their lock.
  gateways = await Promise.all([0, 1, 2].map(() => startGateway(config(), { port: 0, logger: createLogger('silent') })));
});
afterAll(async () => {
  for (const gateway of gateways) await gateway.close();
  await claude?.close();
});

function ask(gateway: Gateway, key: string, maxTokens = 20): Promise<Response> {
  return fetch(`${gateway.url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model: MODEL, max_tokens: maxTokens, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

async function statuses(key: string): Promise<number[]> {
  return Promise.all(gateways.map(async (gateway) => (await ask(gateway, key)).status));
}

function patch(gateway: Gateway, name: string, body: unknown): Promise<Response> {
  return fetch(`${gateway.url}/admin/keys/${name}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function cli(argv: string[]): Promise<number> {
  const io: CliIo = { out: () => undefined, err: () => undefined, readStdin: async () => '', env };
  return runCli([...argv, '--config', configFile], io);
}

/** Waits, when the current UTC minute is nearly over, for the next one: the rpm counts per calendar minute. */
async function earlyInMinute(): Promise<void> {
  const seconds = new Date().getUTCSeconds();
  if (seconds > 45) await new Promise((resolve) => setTimeout(resolve, (61 - seconds) * 1000));
}

describe('virtual keys on three gateways sharing PostgreSQL and Redis', () => {
  it('keeps keys in PostgreSQL, the secret as its SHA-256 only', async () => {
    const secret = await createKey(gateways[0]!.url, { name: 'stored' });
    const rows = await query<{ name: string; hash: string; prefix: string }>(
      env.DATABASE_URL!,
      'SELECT name, hash, prefix FROM llm_gateway_keys WHERE name = $1',
      ['stored'],
    );
    const { createHash } = await import('node:crypto');
    expect(rows).toEqual([{ name: 'stored', hash: createHash('sha256').update(secret).digest('hex'), prefix: secret.slice(0, 12) }]);
  });

  it('sees a change made on one gateway or by the CLI on every gateway at once', async () => {
    const secret = await createKey(gateways[0]!.url, { name: 'shared' });
    // Created on the first, it answers on all three (each caches it for a minute from now).
    expect(await statuses(secret)).toEqual([200, 200, 200]);
    expect((await patch(gateways[1]!, 'shared', { disabled: true })).status).toBe(200);
    expect(await statuses(secret)).toEqual([401, 401, 401]);
    // The CLI writes PostgreSQL and announces the change on Redis: no gateway involved.
    expect(await cli(['keys', 'update', 'shared', '--enable'])).toBe(0);
    expect(await statuses(secret)).toEqual([200, 200, 200]);
    expect(await cli(['keys', 'revoke', 'shared'])).toBe(0);
    expect(await statuses(secret)).toEqual([401, 401, 401]);
  });

  it('admits exactly rpm of many concurrent requests spread over the three gateways', async () => {
    const secret = await createKey(gateways[2]!.url, { name: 'rpm-shared', rpm: 20 });
    await earlyInMinute();
    const replies = await Promise.all(Array.from({ length: 90 }, (_, i) => ask(gateways[i % 3]!, secret)));
    const counts = new Map<number, number>();
    for (const reply of replies) counts.set(reply.status, (counts.get(reply.status) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({ 200: 20, 429: 70 });
    const refused = replies.find((reply) => reply.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('keeps a budget within its bound under concurrent requests: below the budget plus one reservation', async () => {
    const budgetUsd = 0.002;
    const key = await createKey(gateways[0]!.url, { name: 'budget-shared', budget: { usd: budgetUsd, period: 'total' } });
    const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => ask(gateways[i % 3]!, key, 50)));
    const admitted = replies.filter((reply) => reply.status === 200).length;
    expect(replies.filter((reply) => reply.status !== 200).map((reply) => reply.status)).toEqual(new Array(60 - admitted).fill(402));
    // One request's reservation: 50 output tokens at $15/M and its body's bytes / 4 at $3/M.
    const bodyBytes = JSON.stringify({ model: MODEL, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).length;
    const reservation = (50 * 15 + Math.ceil(bodyBytes / 4) * 3) / 1e6;
    const limiter = await openLimiter({ redis: env.REDIS_URL!, logger: createLogger('silent') });
    try {
      const { spentUsd } = await limiter.usage('budget-shared', { budget: { usd: budgetUsd, period: 'total' } });
      expect(spentUsd).toBeGreaterThan(0);
      expect(spentUsd).toBeLessThan(budgetUsd + reservation);
      expect(admitted).toBeGreaterThan(0);
      expect(admitted).toBeLessThan(60);
    } finally {
      await limiter.close();
    }
  });
});

describe('virtual keys while PostgreSQL is down', () => {
  it('keeps serving config keys and keys read within the TTL; an unseen secret gets 503 in the client protocol', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-pg-down-'));
    const postgres = await startPostgres(dir);
    const config = parseConfig(
      JSON.stringify({
        keys: [{ name: 'file-key', key: 'client-key' }],
        adminKey: ADMIN_KEY,
        metrics: false,
        maxRetries: 0,
        virtualKeys: { cacheTtlMs: 60_000 },
        upstreams: { claude: { protocol: 'claude', baseUrl: claude.baseUrl, apiKey: 'k' } },
        routes: [{ match: '*', upstream: 'claude' }],
        store: { postgres: postgres.url, spool: join(dir, 'spool.jsonl') },
      }),
      {},
      'config',
      { baseDir: dir },
    );
    const gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
    let up = true;
    try {
      const seen = await createKey(gateway.url, { name: 'seen', rpm: 100 });
      const unseen = await createKey(gateway.url, { name: 'unseen' });
      expect((await ask(gateway, seen)).status).toBe(200);
      postgres.stop();
      up = false;
      expect((await ask(gateway, 'client-key')).status).toBe(200);
      expect((await ask(gateway, seen)).status).toBe(200);
      const refused = await ask(gateway, unseen);
      expect({ status: refused.status, body: await refused.json() }).toEqual({
        status: 503,
        body: { type: 'error', error: { type: 'api_error', message: 'the gateway cannot check keys now (its key store is unreachable)' } },
      });
    } finally {
      await gateway.close();
      if (up) postgres.stop();
    }
  });
});
