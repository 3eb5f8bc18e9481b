import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type Gateway, startGateway } from '../src/server/start.js';
import { DAY_TWO, FIXTURE_DAYS_BY_MODEL, FIXTURE_LINES, writeFixtureLedger } from './helpers/usage-fixture.js';

const ADMIN_KEY = 'admin-key-0123456789';
const auth = { authorization: `Bearer ${ADMIN_KEY}` };

async function gatewayOn(ledger: false | { path: string }): Promise<Gateway> {
  const config = parseConfig(
    JSON.stringify({
      adminKey: ADMIN_KEY,
      ledger,
      metrics: false,
      maxRetries: 0,
      upstreams: { openai: { protocol: 'openai-chat', baseUrl: 'http://127.0.0.1:9', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'openai' }],
    }),
  );
  return startGateway(config, { port: 0, logger: createLogger('silent') });
}

let gateway: Gateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

const get = async (query: string, headers: Record<string, string> = auth) => {
  const reply = await fetch(`${gateway!.url}/admin/usage${query}`, { headers });
  return { status: reply.status, body: await reply.json() };
};

describe('GET /admin/usage', () => {
  it('answers the lines of usage --json, by key, model, upstream and day, since a time', async () => {
    gateway = await gatewayOn({ path: writeFixtureLedger() });
    expect(await get('')).toEqual({ status: 200, body: { by: 'model', since: '1970-01-01T00:00:00.000Z', lines: FIXTURE_LINES.model } });
    for (const by of ['key', 'upstream', 'day'] as const) {
      expect(await get(`?by=${by}`)).toEqual({ status: 200, body: { by, since: '1970-01-01T00:00:00.000Z', lines: FIXTURE_LINES[by] } });
    }
    const since = new Date(DAY_TWO).toISOString();
    expect(await get(`?by=day&since=${since}`)).toEqual({ status: 200, body: { by: 'day', since, lines: [FIXTURE_LINES.day[1]] } });
  });

  it('adds the per-day series of each model for the dashboard (by=day&split=model)', async () => {
    gateway = await gatewayOn({ path: writeFixtureLedger() });
    expect(await get('?by=day&split=model')).toEqual({
      status: 200,
      body: { by: 'day', since: '1970-01-01T00:00:00.000Z', lines: FIXTURE_LINES.day, split: 'model', series: FIXTURE_DAYS_BY_MODEL },
    });
  });

  it('refuses bad parameters with 400 naming the parameter, and needs the admin key', async () => {
    gateway = await gatewayOn({ path: writeFixtureLedger() });
    const invalid = (message: string, param: string) => ({ status: 400, body: { error: { type: 'invalid_request_error', message, param } } });
    expect(await get('?by=colour')).toEqual(invalid('by: expected model, upstream, key or day, got "colour"', 'by'));
    expect(await get('?by=day&split=day')).toEqual(invalid('split: expected model, upstream, key or day other than by, got "day"', 'split'));
    expect(await get('?since=yesterday-ish')).toEqual(invalid('since: expected a duration like 24h or a date, got "yesterday-ish"', 'since'));
    expect(await get('', {})).toEqual({ status: 401, body: { error: { type: 'authentication_error', message: 'missing admin key' } } });
  });

  it('counts the requests this gateway served a moment ago, and reports an empty ledger as no lines', async () => {
    gateway = await gatewayOn({ path: join(mkdtempSync(join(tmpdir(), 'admin-usage-')), 'usage.db') });
    expect(await get('?by=key')).toEqual({ status: 200, body: { by: 'key', since: '1970-01-01T00:00:00.000Z', lines: [] } });
    // A client request the upstream (port 9) cannot answer: a 502, queued in the ledger.
    const failed = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(failed.status).toBe(502);
    const { body } = await get('?by=model');
    expect(body.lines).toEqual([
      {
        group: 'm',
        requests: 1,
        errors: 1,
        inputTokens: 0,
        cachedTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
        outputTokens: 0,
        avgMs: expect.any(Number),
        costUsd: 0,
        unpricedRequests: 0,
      },
    ]);
  });

  it('is 404 when the ledger is off', async () => {
    gateway = await gatewayOn(false);
    expect(await get('')).toEqual({ status: 404, body: { error: { type: 'not_found_error', message: 'the usage ledger is off (ledger: false)' } } });
  });
});
