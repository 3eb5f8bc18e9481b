// The virtual keys' admin API (issue 22): exact bodies, validation naming the JSON path, the
// secret shown once, a created key answering at once and a revoked one refused (401).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { usageReport } from '../src/ledger/report.js';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { type Gateway, startGateway } from '../src/server/start.js';
import { ADMIN_KEY, keysGatewayConfig } from './helpers/keys-gateway.js';

const admin = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let upstream: MockUpstream;
let gateway: Gateway | undefined;
beforeAll(async () => {
  upstream = await startMockUpstream({ protocol: 'openai-chat', port: 0 });
});
afterAll(async () => upstream.close());
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

async function start(extra: Record<string, unknown> = {}): Promise<Gateway> {
  const config = keysGatewayConfig({
    upstreams: { openai: { protocol: 'openai-chat', baseUrl: upstream.baseUrl, apiKey: 'k' } },
    routes: [{ match: '*', upstream: 'openai' }],
    ...extra,
  });
  // Every model priced: a budgeted key may use it (the price book's own rules are tested with it).
  const prices = { priceOf: () => ({ input: 1, output: 1 }) };
  gateway = await startGateway(config, { port: 0, logger: createLogger('silent'), prices });
  return gateway;
}

async function adminCall(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const reply = await fetch(`${gateway!.url}${path}`, { method, headers: admin, ...(body !== undefined && { body: JSON.stringify(body) }) });
  return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
}

function chat(key: string): Promise<Response> {
  return fetch(`${gateway!.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
  });
}

describe('admin keys API', () => {
  it('creates a key whose secret answers at once, shows it without secret or hash, and refuses it once revoked', async () => {
    await start();
    const created = await adminCall('POST', '/admin/keys', {
      name: 'ci',
      models: ['gpt-*', 'claude-*'],
      budget: { usd: 50, period: 'month' },
      rpm: 60,
      tpm: 100000,
      expiresAt: '2099-01-01',
      metadata: { team: 'infra' },
    });
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^sk-gw-[0-9A-Za-z]{40}$/);
    const view = {
      name: 'ci',
      prefix: secret.slice(0, 12),
      models: ['gpt-*', 'claude-*'],
      expiresAt: '2099-01-01T00:00:00.000Z',
      budget: { usd: 50, period: 'month' },
      rpm: 60,
      tpm: 100000,
      metadata: { team: 'infra' },
      disabled: false,
      status: 'active',
      createdAt: expect.stringMatching(ISO),
      updatedAt: created.body.createdAt,
      revokedAt: null,
    };
    expect(created.body).toEqual({ ...view, secret });

    const answered = await chat(secret);
    expect(answered.status).toBe(200);

    expect(await adminCall('GET', '/admin/keys/ci')).toEqual({ status: 200, body: view });
    expect(await adminCall('GET', '/admin/keys')).toEqual({ status: 200, body: { data: [view] } });

    const revoked = await adminCall('DELETE', '/admin/keys/ci');
    expect(revoked).toEqual({
      status: 200,
      body: { ...view, status: 'revoked', updatedAt: expect.stringMatching(ISO), revokedAt: expect.stringMatching(ISO) },
    });
    const refused = await chat(secret);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: { message: 'the gateway key ci is revoked', type: 'invalid_request_error', param: null, code: null } });
    // Revoking twice is no error; the revoked key cannot change and its name stays taken.
    expect((await adminCall('DELETE', '/admin/keys/ci')).status).toBe(200);
    expect(await adminCall('PATCH', '/admin/keys/ci', { rpm: 5 })).toEqual({
      status: 409,
      body: { error: { type: 'conflict_error', message: 'the key ci is revoked' } },
    });
    expect(await adminCall('POST', '/admin/keys', { name: 'ci' })).toEqual({
      status: 409,
      body: { error: { type: 'conflict_error', message: 'a key named ci exists (revoked keys keep their names)' } },
    });
    // The file's keys keep working.
    expect((await chat('client-key')).status).toBe(200);
  });

  it('labels the ledger rows of a key, its refused requests too, by its name', async () => {
    const ledger = join(mkdtempSync(join(tmpdir(), 'keys-ledger-')), 'usage.db');
    await start({ ledger: { path: ledger } });
    const { body } = await adminCall('POST', '/admin/keys', { name: 'labelled' });
    expect((await chat(body.secret as string)).status).toBe(200);
    await adminCall('DELETE', '/admin/keys/labelled');
    expect((await chat(body.secret as string)).status).toBe(401);
    await gateway!.close();
    gateway = undefined;
    expect(usageReport(ledger, 'key').map((line) => [line.group, line.requests, line.errors])).toEqual([['labelled', 2, 1]]);
  });

  it('changes limits, models, expiry, metadata and the disabled flag; null clears', async () => {
    await start();
    await adminCall('POST', '/admin/keys', { name: 'team-a', rpm: 10, budget: { usd: 5, period: 'day' } });
    const changed = await adminCall('PATCH', '/admin/keys/team-a', {
      rpm: null,
      tpm: 500,
      models: ['claude-*'],
      metadata: { owner: 'ana' },
      disabled: true,
      budget: null,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      rpm: null,
      tpm: 500,
      models: ['claude-*'],
      metadata: { owner: 'ana' },
      disabled: true,
      status: 'disabled',
      budget: null,
    });
    const expired = await adminCall('PATCH', '/admin/keys/team-a', { disabled: false, expiresAt: '2001-01-01T00:00:00Z' });
    expect(expired.body).toMatchObject({ disabled: false, status: 'expired', expiresAt: '2001-01-01T00:00:00.000Z' });
    expect(await adminCall('GET', '/admin/keys/nobody')).toEqual({ status: 404, body: { error: { type: 'not_found_error', message: 'no key named nobody' } } });
    expect(await adminCall('PATCH', '/admin/keys/nobody', {})).toEqual({
      status: 404,
      body: { error: { type: 'not_found_error', message: 'no key named nobody' } },
    });
  });

  const invalid: [string, unknown, string, string | undefined][] = [
    ['POST', { models: [] }, 'name: required', 'name'],
    ['POST', { name: 'has space' }, 'name: must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit', 'name'],
    ['POST', { name: 'a', rpm: 0 }, 'rpm: must be a whole number from 1 to 1000000000', 'rpm'],
    ['POST', { name: 'a', tpm: 1.5 }, 'tpm: must be a whole number from 1 to 1000000000', 'tpm'],
    ['POST', { name: 'a', budget: { usd: -1, period: 'day' } }, 'budget.usd: must be a number of US dollars above 0 and at most 1000000000', 'budget.usd'],
    ['POST', { name: 'a', budget: { usd: 1, period: 'year' } }, 'budget.period: must be one of day, week, month, total', 'budget.period'],
    ['POST', { name: 'a', budget: { usd: 1, period: 'day', cap: 2 } }, 'budget.cap: unknown field (known: usd, period)', 'budget.cap'],
    ['POST', { name: 'a', models: ['gpt-*', 7] }, 'models[1]: must be a model name or glob of 1-200 characters', 'models[1]'],
    ['POST', { name: 'a', expiresAt: 'tomorrow' }, 'expiresAt: must be an ISO 8601 date or date-time, such as 2027-01-01 or 2027-01-01T00:00:00Z', 'expiresAt'],
    ['POST', { name: 'a', metadata: { team: 5 } }, 'metadata.team: must be a string of at most 512 characters', 'metadata.team'],
    ['POST', { name: 'a', secret: 'mine' }, 'secret: unknown field (known: name, models, expiresAt, budget, rpm, tpm, metadata, disabled)', 'secret'],
    ['POST', [1], 'the body must be a JSON object', undefined],
    ['PATCH', { disabled: 'yes' }, 'disabled: must be true or false', 'disabled'],
    ['PATCH', { name: 'b' }, 'name: unknown field (known: name, models, expiresAt, budget, rpm, tpm, metadata, disabled)', 'name'],
  ];
  it('answers 400 invalid_request_error naming the bad field', async () => {
    await start();
    await adminCall('POST', '/admin/keys', { name: 'existing' });
    for (const [method, body, message, param] of invalid) {
      const reply = await adminCall(method, method === 'POST' ? '/admin/keys' : '/admin/keys/existing', body);
      expect(reply).toEqual({ status: 400, body: { error: { type: 'invalid_request_error', message, ...(param !== undefined && { param }) } } });
    }
    expect(await adminCall('POST', '/admin/keys', { name: 'file-key' })).toEqual({
      status: 409,
      body: { error: { type: 'conflict_error', message: "a key named file-key is in the config file's keys" } },
    });
  });

  it('needs a key on every request once a virtual key exists, on a gateway with no file keys', async () => {
    await start({ keys: [] });
    expect((await chat('anything')).status).toBe(200);
    const { body } = await adminCall('POST', '/admin/keys', { name: 'first' });
    const missing = await fetch(`${gateway!.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: { message: 'missing gateway key', type: 'invalid_request_error', param: null, code: null } });
    expect((await chat('sk-gw-unknown')).status).toBe(401);
    expect((await chat(body.secret as string)).status).toBe(200);
  });

  it('refuses a virtual key whose name a reloaded config gives a file key (it would pass as that key, without its limits)', async () => {
    const fields = { upstreams: { openai: { protocol: 'openai-chat', baseUrl: upstream.baseUrl, apiKey: 'k' } }, routes: [{ match: '*', upstream: 'openai' }] };
    const config = keysGatewayConfig(fields);
    gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
    const { body } = await adminCall('POST', '/admin/keys', { name: 'late', models: ['gpt-4o-mini'] });
    expect((await chat(body.secret as string)).status).toBe(200);
    expect(gateway.reload(() => ({ ...config, keys: [...config.keys, { name: 'late', key: 'late-file-key' }] }))).toBe(true);
    const refused = await chat(body.secret as string);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      error: {
        message: "the gateway key late cannot be used: a key in the gateway's config has its name",
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
    expect((await chat('late-file-key')).status).toBe(200);
    expect((await adminCall('POST', '/admin/keys', { name: 'late' })).status).toBe(409);
    gateway.reload(() => config);
    expect((await chat(body.secret as string)).status).toBe(200);
    // The config's names are read anew after each reload (not once at start).
    gateway.reload(() => ({ ...config, keys: [...config.keys, { name: 'fresh', key: 'fresh-file-key' }] }));
    expect(await adminCall('POST', '/admin/keys', { name: 'fresh' })).toEqual({
      status: 409,
      body: { error: { type: 'conflict_error', message: "a key named fresh is in the config file's keys" } },
    });
    gateway.reload(() => config);
    expect((await adminCall('POST', '/admin/keys', { name: 'fresh' })).status).toBe(201);
  });

  it('keeps a metadata entry named __proto__ as an entry', async () => {
    await start();
    const created = await adminCall('POST', '/admin/keys', { name: 'proto', metadata: JSON.parse('{"__proto__": "x", "team": "a"}') });
    expect(created.body.metadata).toEqual(JSON.parse('{"__proto__": "x", "team": "a"}'));
    expect(Object.keys(created.body.metadata as object)).toEqual(['__proto__', 'team']);
    expect((await adminCall('GET', '/admin/keys/proto')).body.metadata).toEqual(created.body.metadata);
  });
});
