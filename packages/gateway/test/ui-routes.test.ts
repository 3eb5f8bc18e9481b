import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type Gateway, startGateway } from '../src/server/start.js';
import { UI_CSP } from '../src/ui/ui-routes.js';

// Issue 22, dashboard: /ui behind the admin key (a 401 sign-in page without it), the sign-in
// cookie, the static files with a strict CSP, nothing inline.
const ADMIN_KEY = 'admin-key-0123456789';
const assetsDir = join(import.meta.dirname, '../src/ui/assets');
const asset = (file: string) => readFileSync(join(assetsDir, file), 'utf8');

let gateway: Gateway;
beforeAll(async () => {
  const config = parseConfig(
    JSON.stringify({
      adminKey: ADMIN_KEY,
      keys: [{ name: 'ci', key: 'client-key' }],
      ledger: false,
      metrics: false,
      upstreams: { openai: { protocol: 'openai-chat', baseUrl: 'http://127.0.0.1:9', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'openai' }],
    }),
  );
  gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
});
afterAll(() => gateway.close());

const PAGE_HEADERS = {
  'content-security-policy': UI_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const headersOf = (reply: Response, names: string[]) => Object.fromEntries(names.map((name) => [name, reply.headers.get(name)]));

describe('/ui', () => {
  it('answers the sign-in page with 401 without the admin key, and the dashboard with it', async () => {
    const anonymous = await fetch(`${gateway.url}/ui`);
    expect(anonymous.status).toBe(401);
    expect(headersOf(anonymous, ['content-type', ...Object.keys(PAGE_HEADERS)])).toEqual({ 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS });
    expect(await anonymous.text()).toBe(asset('sign-in.html'));

    const wrongCookie = await fetch(`${gateway.url}/ui`, { headers: { cookie: 'llm_gateway_admin=client-key' } });
    expect(wrongCookie.status).toBe(401);
    expect(await wrongCookie.text()).toBe(asset('sign-in.html'));

    const signedIn = await fetch(`${gateway.url}/ui`, { headers: { cookie: `other=1; llm_gateway_admin=${ADMIN_KEY}` } });
    expect(signedIn.status).toBe(200);
    expect(headersOf(signedIn, ['content-type', ...Object.keys(PAGE_HEADERS)])).toEqual({ 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS });
    expect(await signedIn.text()).toBe(asset('dashboard.html'));
  });

  it('signs in with the admin key only: an HttpOnly, SameSite=Strict cookie the admin API accepts', async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${gateway.url}/ui/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const wrong = await post(JSON.stringify({ key: 'client-key' }));
    expect([wrong.status, wrong.headers.get('set-cookie'), await wrong.json()]).toEqual([
      401,
      null,
      { error: { type: 'authentication_error', message: 'invalid admin key' } },
    ]);
    const missing = await post('{}');
    expect([missing.status, await missing.json()]).toEqual([
      400,
      { error: { type: 'invalid_request_error', message: 'key: the admin key is required', param: 'key' } },
    ]);
    const notJson = await post('key=x');
    expect(notJson.status).toBe(400);

    const right = await post(JSON.stringify({ key: ADMIN_KEY }));
    expect(right.status).toBe(204);
    const cookie = right.headers.get('set-cookie');
    expect(cookie).toBe(`llm_gateway_admin=${ADMIN_KEY}; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200`);
    const behindTls = await post(JSON.stringify({ key: ADMIN_KEY }), { 'x-forwarded-proto': 'https' });
    expect(behindTls.headers.get('set-cookie')).toBe(`llm_gateway_admin=${ADMIN_KEY}; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200; Secure`);

    const status = await fetch(`${gateway.url}/admin/status`, { headers: { cookie: cookie!.split(';')[0]! } });
    expect(status.status).toBe(200);

    const signOut = await fetch(`${gateway.url}/ui/sign-out`, { method: 'POST' });
    expect([signOut.status, signOut.headers.get('set-cookie')]).toEqual([204, 'llm_gateway_admin=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0']);
  });

  it('serves its script, styles and Chart.js (pinned, from the gateway), and nothing else', async () => {
    const chartFile = join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js');
    for (const [file, type, text] of [
      ['dashboard.js', 'text/javascript; charset=utf-8', asset('dashboard.js')],
      ['dashboard.css', 'text/css; charset=utf-8', asset('dashboard.css')],
      ['chart.umd.min.js', 'text/javascript; charset=utf-8', readFileSync(chartFile, 'utf8')],
    ] as const) {
      const reply = await fetch(`${gateway.url}/ui/assets/${file}`);
      expect([reply.status, reply.headers.get('content-type'), reply.headers.get('content-security-policy'), reply.headers.get('cache-control')]).toEqual([
        200,
        type,
        UI_CSP,
        'no-cache',
      ]);
      expect(await reply.text()).toBe(text);
    }
    expect(readFileSync(chartFile, 'utf8').startsWith('/*!\n * Chart.js v4.6.1\n')).toBe(true);
    for (const file of ['dashboard.html', 'sign-in.html', '..%2Fui-routes.ts', 'toString', 'nothing.js']) {
      const reply = await fetch(`${gateway.url}/ui/assets/${file}`);
      expect([reply.status, await reply.json()]).toEqual([
        404,
        { error: { type: 'not_found_error', message: `no dashboard file ${decodeURIComponent(file)}` } },
      ]);
    }
  });

  it('has no inline script or style and loads nothing from another origin', () => {
    for (const file of ['dashboard.html', 'sign-in.html']) {
      const html = asset(file);
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attributes, body] of scripts) {
        expect(body).toBe('');
        expect(attributes).toMatch(/src="\/ui\/assets\/[a-z.]+\.js"/);
      }
      expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=|https?:\/\//);
    }
    expect(asset('dashboard.js')).not.toMatch(/https?:\/\/|innerHTML|eval\(|new Function/);
  });
});
