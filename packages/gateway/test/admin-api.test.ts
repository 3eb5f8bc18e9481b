import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { type Gateway, startGateway } from '../src/server/start.js';
import { createLogger } from '../src/logger.js';

const silentLogger = () => createLogger('silent');

const ADMIN_KEY = 'admin-key-0123456789';

function config(extra: Record<string, unknown> = {}) {
  return parseConfig(
    JSON.stringify({
      keys: [{ name: 'ci', key: 'client-key' }],
      ledger: false,
      metrics: false,
      upstreams: { openai: { protocol: 'openai-chat', baseUrl: 'http://127.0.0.1:9', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'openai' }],
      ...extra,
    }),
  );
}

let gateway: Gateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

describe('admin API', () => {
  it('answers with the admin key only, and never to a client key', async () => {
    gateway = await startGateway(config({ adminKey: ADMIN_KEY }), { port: 0, logger: silentLogger() });
    const status = await fetch(`${gateway.url}/admin/status`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({ version: expect.any(String), upstreams: ['openai'], store: { postgres: false, redis: false, ledger: false } });
    const byHeader = await fetch(`${gateway.url}/admin/status`, { headers: { 'x-api-key': ADMIN_KEY } });
    expect(byHeader.status).toBe(200);

    const client = await fetch(`${gateway.url}/admin/status`, { headers: { authorization: 'Bearer client-key' } });
    expect(client.status).toBe(401);
    expect(await client.json()).toEqual({ error: { type: 'authentication_error', message: 'invalid admin key' } });
    const none = await fetch(`${gateway.url}/admin/status`);
    expect(await none.json()).toEqual({ error: { type: 'authentication_error', message: 'missing admin key' } });
  });

  it('answers 404 and 405 for unknown paths and methods, after the key check', async () => {
    gateway = await startGateway(config({ adminKey: ADMIN_KEY }), { port: 0, logger: silentLogger() });
    const auth = { authorization: `Bearer ${ADMIN_KEY}` };
    const missing = await fetch(`${gateway.url}/admin/nothing`, { headers: auth });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { type: 'not_found_error', message: 'no admin route /admin/nothing' } });
    const wrongMethod = await fetch(`${gateway.url}/admin/status`, { method: 'DELETE', headers: auth });
    expect(wrongMethod.status).toBe(405);
    expect(await wrongMethod.json()).toEqual({ error: { type: 'invalid_request_error', message: 'DELETE is not allowed on /admin/status' } });
    const unauthenticated = await fetch(`${gateway.url}/admin/nothing`);
    expect(unauthenticated.status).toBe(401);
  });

  it('is off (404) without an adminKey, whatever the caller presents', async () => {
    gateway = await startGateway(config(), { port: 0, logger: silentLogger() });
    const reply = await fetch(`${gateway.url}/admin/status`, { headers: { authorization: 'Bearer client-key' } });
    expect(reply.status).toBe(404);
    expect(await reply.json()).toEqual({ error: { type: 'not_found_error', message: 'the admin API is off: set adminKey in the gateway config' } });
  });

  it('refuses an adminKey shorter than 16 characters', () => {
    expect(() => config({ adminKey: 'short' })).toThrow(/adminKey: must be at least 16 characters/);
  });
});
