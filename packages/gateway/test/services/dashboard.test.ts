import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfigFile, parseConfig } from '../../src/config/load.js';
import { openLedger } from '../../src/ledger/ledger.js';
import { type PriceBook, createPriceBook } from '../../src/pricing/index.js';
import type { RequestRecord } from '../../src/router-contract.js';
import { createLogger } from '../../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../../src/mock/server.js';
import { type Gateway, startGateway } from '../../src/server/start.js';

// Issue 22, dashboard, in a real browser (Debian's Chromium, driven by playwright-core): /ui
// answers 401 and a sign-in form without the admin key; signed in, it shows the exact totals of a
// ledger written here; it creates a key (its secret shown once), uses it, changes its limits and
// revokes it. No
// request leaves the gateway's origin, no call fails unexpectedly, and the page logs no error (a
// CSP violation would be one).
// Screenshots go to reports/ui/ (gitignored; CI keeps them as artifacts).
const ADMIN_KEY = 'admin-key-0123456789';
const SCREENSHOTS = join(import.meta.dirname, '../../reports/ui');
/** Generous: the machine running this may be a loaded 2-core CI runner. */
const ACTION_TIMEOUT_MS = 30_000;

let mock: MockUpstream;
let gateway: Gateway;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
const foreignRequests: string[] = [];

const HOUR = 3_600_000;

/** The known ledger: 5 requests of 2 keys over 3 days, 1 failed, 1 on a model with no price. */
function writeLedger(path: string, prices: PriceBook): void {
  const now = Date.now();
  const ledger = openLedger(path);
  const row = (hoursAgo: number, keyId: string, model: string, upstream: string, status: number, usage?: { inputTokens: number; outputTokens: number }) => {
    const record: RequestRecord = {
      requestId: `r-${hoursAgo}`,
      clientKeyId: keyId,
      clientProtocol: 'openai-chat',
      upstream,
      upstreamProtocol: 'openai-chat',
      clientModel: model,
      upstreamModel: model,
      status,
      stream: false,
      totalMs: 100,
      ...(usage && { usage }),
      ...(status >= 400 && { errorKind: 'overloaded' }),
      warnings: [],
    };
    // Costed as the gateway costs a request, by the config's prices.
    ledger.record({ time: now - hoursAgo * HOUR, keyId, record, cost: prices.costOf(record) });
  };
  row(1, 'ci', 'priced-a', 'openai', 200, { inputTokens: 1_000, outputTokens: 200 });
  row(2, 'ci', 'priced-a', 'openai', 200, { inputTokens: 2_500, outputTokens: 300 });
  row(26, 'batch', 'priced-b', 'anthropic', 200, { inputTokens: 4_000, outputTokens: 1_000 });
  row(27, 'batch', 'priced-b', 'anthropic', 529);
  row(50, 'ci', 'no-price-model', 'openai', 200, { inputTokens: 100, outputTokens: 10 });
  ledger.close();
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  mock = await startMockUpstream({ protocol: 'openai-chat' });
  const dir = mkdtempSync(join(tmpdir(), 'dashboard-'));
  const configFile = join(dir, 'gateway.yaml');
  writeFileSync(
    configFile,
    `adminKey: ${ADMIN_KEY}
keys: [{ name: ci, key: client-key }]
upstreams: { openai: { protocol: openai-chat, baseUrl: "${mock.baseUrl}", apiKey: k } }
routes: [{ match: "*", upstream: openai }]
ledger: { path: usage.db }
metrics: false
prices:
  priced-a: { input: 2, output: 8 }
  priced-b: { input: 3, output: 15 }
`,
  );
  const config = loadConfigFile(configFile);
  writeLedger(join(dir, 'usage.db'), createPriceBook(config));
  gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
  browser = await chromium.launch({ executablePath: inject('chromiumPath'), timeout: 60_000 });
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  page = await context.newPage();
  // Answers the test expects to fail are checked where they happen; any other is a failure here.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) pageErrors.push(message.text());
  });
  page.on('response', (response) => {
    const expected = response.status() === 401 && ['/ui', '/ui/sign-in'].includes(new URL(response.url()).pathname);
    if (response.status() >= 400 && !expected) pageErrors.push(`${response.status()} from ${response.url()}`);
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('request', (request) => {
    if (!request.url().startsWith(`${gateway.url}/`)) foreignRequests.push(request.url());
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await mock?.close();
});

const text = async (selector: string) => (await page.locator(selector).textContent()) ?? '';
/** The text of each cell of each row `selector` finds. */
const cells = (selector: string) =>
  page.locator(selector).evaluateAll((rows) => rows.map((row) => [...(row as HTMLTableRowElement).cells].map((cell) => cell.textContent)));

describe('the dashboard in Chromium', () => {
  it('answers 401 with a sign-in form without the admin key, and refuses a wrong key', async () => {
    const response = await page.goto(`${gateway.url}/ui`);
    expect(response?.status()).toBe(401);
    await page.locator('#sign-in-form').waitFor();
    await page.fill('#admin-key', 'client-key');
    await page.click('#sign-in-form button[type=submit]');
    // The refusal comes back from the sign-in call: wait for the page to show it.
    await page.locator('#sign-in-error:not(:empty)').waitFor();
    expect(await text('#sign-in-error')).toBe('That is not the admin key.');
    await page.screenshot({ path: join(SCREENSHOTS, '1-sign-in.png'), fullPage: true });
  }, 120_000);

  it('signs in and shows the known ledger: totals, groups, charts, upstreams', async () => {
    await page.fill('#admin-key', ADMIN_KEY);
    await page.click('#sign-in-form button[type=submit]');
    await page.locator('body[data-loaded]').waitFor();
    expect(await text('#load-error').catch(() => '')).toBe('');
    const totals = await page.locator('#totals dd').allTextContents();
    // 5 requests, 1 failed; tokens summed; spend: priced-a 3,500 in x $2/M + 500 out x $8/M = $0.011,
    // priced-b 4,000 x $3/M + 1,000 x $15/M = $0.027; the unpriced model's request counted apart.
    expect(totals).toEqual(['5', '1', '20%', '7,600', '1,510', '$0.038', '1']);
    expect(await cells('#groups tbody tr')).toEqual([
      ['ci', '3', '0', '3,600', '510', '$0.011', '1'],
      ['batch', '2', '1', '4,000', '1,000', '$0.027', '0'],
    ]);
    expect(await cells('#upstreams tbody tr')).toEqual([['openai', 'openai-chat', 'closed', '0', '–', '0', '–']]);
    // Three charts drawn by Chart.js on their canvases.
    expect(
      await page.evaluate(() =>
        ['chart-spend', 'chart-tokens', 'chart-requests'].map((id) =>
          Boolean((globalThis as { Chart?: { getChart(id: string): unknown } }).Chart?.getChart(id)),
        ),
      ),
    ).toEqual([true, true, true]);
    await page.screenshot({ path: join(SCREENSHOTS, '2-dashboard.png'), fullPage: true });
  }, 120_000);

  it('creates a key with limits, shows its secret once, changes its limits and revokes it', async () => {
    await page.fill('#key-create input[name=name]', 'browser-test');
    await page.fill('#key-create input[name=budget]', '5');
    await page.selectOption('#key-create select[name=period]', 'day');
    await page.fill('#key-create input[name=rpm]', '30');
    await page.click('#key-create button[type=submit]');
    await page.locator('#key-secret').waitFor();
    const secret = await text('#key-secret-value');
    expect(secret).toMatch(/^sk-gw-[0-9A-Za-z]{40}$/);
    await page.locator('#keys tr[data-key="browser-test"]').waitFor();
    expect((await cells('#keys tr[data-key="browser-test"]'))[0]!.slice(0, 8)).toEqual([
      'browser-test',
      secret.slice(0, 12),
      'all',
      '$5.00 / day',
      '30',
      '–',
      'never',
      'active',
    ]);
    await page.screenshot({ path: join(SCREENSHOTS, '3-key-created.png'), fullPage: true });

    // The secret works at once, as a client key.
    const ask = () =>
      fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
        body: JSON.stringify({ model: 'priced-a', messages: [{ role: 'user', content: 'hi' }] }),
      });
    expect((await ask()).status).toBe(200);

    // Dismissed, the secret leaves the page; a reload never shows it again.
    await page.click('#key-secret-dismiss');
    expect(await page.locator('#key-secret').isHidden()).toBe(true);
    await page.reload();
    await page.locator('body[data-loaded]').waitFor();
    expect(await page.content()).not.toContain(secret);
    // Its request is the newest recent one, under its name, costed by the config's prices
    // (the mock's 1 input and 4 output tokens: 1 x $2/M + 4 x $8/M).
    const [newest] = await cells('#requests tbody tr');
    expect([...newest!.slice(1, 5), ...newest!.slice(6)]).toEqual(['browser-test', 'priced-a', 'openai', '200', '1 / 4', '$0.000034', '']);

    // Its limits change in place.
    await page.locator('#keys tr[data-key="browser-test"] button[data-action=edit]').click();
    await page.fill('#keys tr.key-editor input[name=rpm]', '60');
    await page.click('#keys tr.key-editor button[type=submit]');
    await page.locator('#keys tr[data-key="browser-test"] td:nth-child(5):text-is("60")').waitFor();
    expect((await cells('#keys tr[data-key="browser-test"]'))[0]!.slice(3, 6)).toEqual(['$5.00 / day', '60', '–']);

    await page.locator('#keys tr[data-key="browser-test"] button[data-action=revoke]').click();
    expect(await text('#keys tr[data-key="browser-test"] button[data-action=revoke]')).toBe('Confirm revoke');
    await page.locator('#keys tr[data-key="browser-test"] button[data-action=revoke]').click();
    await page.locator('#keys tr[data-key="browser-test"] td[data-state=revoked]').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, '4-key-revoked.png'), fullPage: true });
    expect((await ask()).status).toBe(401);
  }, 120_000);

  it('says Not available, with the reason, where the gateway keeps no ledger', async () => {
    const config = parseConfig(
      JSON.stringify({
        adminKey: ADMIN_KEY,
        upstreams: { openai: { protocol: 'openai-chat', baseUrl: mock.baseUrl, apiKey: 'k' } },
        routes: [{ match: '*', upstream: 'openai' }],
        ledger: false,
        metrics: false,
      }),
    );
    const noLedger = await startGateway(config, { port: 0, logger: createLogger('silent') });
    const context = await browser.newContext();
    try {
      context.setDefaultTimeout(ACTION_TIMEOUT_MS);
      const other = await context.newPage();
      await other.goto(`${noLedger.url}/ui`);
      await other.fill('#admin-key', ADMIN_KEY);
      await other.click('#sign-in-form button[type=submit]');
      await other.locator('body[data-loaded]').waitFor();
      expect(await other.locator('#usage-unavailable').textContent()).toBe('Not available: the usage ledger is off (ledger: false).');
      expect(await other.locator('#usage').isHidden()).toBe(true);
      expect(await other.locator('#load-error').isHidden()).toBe(true);
      await other.screenshot({ path: join(SCREENSHOTS, '5-no-ledger.png'), fullPage: true });
    } finally {
      await context.close();
      await noLedger.close();
    }
  }, 120_000);

  it('stayed on its own origin and logged no error', () => {
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
