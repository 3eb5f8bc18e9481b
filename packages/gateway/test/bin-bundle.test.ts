import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startForwardProxy } from './helpers/forward-proxy.js';
import { type ListeningProcess, startListening } from './helpers/listening-process.js';

// The published bin (dist/cli.js, built before the tests run) is one bundled file. Copied into a
// folder whose node_modules holds only better-sqlite3 (its compiled addon cannot be bundled) and
// yaml (loaded for YAML configs), it must still serve, translate, record and report.
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const builtBin = join(packageDir, 'dist/cli.js');
const packageFolder = (name: string) => realpathSync(dirname(createRequire(join(packageDir, 'package.json')).resolve(`${name}/package.json`)));

let dir: string;
let bin: string;
const started: ListeningProcess[] = [];

/** Starts the copied bin; resolves once it listens. */
async function startBin(args: string[], env?: NodeJS.ProcessEnv): Promise<ListeningProcess> {
  const running = await startListening([bin, ...args], { cwd: dir, env });
  started.push(running);
  return running;
}

beforeAll(() => {
  if (!existsSync(builtBin)) throw new Error('dist/cli.js is missing: build the package first (turbo runs build before test)');
  dir = mkdtempSync(join(tmpdir(), 'bin-bundle-'));
  mkdirSync(join(dir, 'dist'));
  mkdirSync(join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  bin = join(dir, 'dist/cli.js');
  copyFileSync(builtBin, bin);
  // The dashboard's files, which the build writes beside the bin (the standalone tarball carries them).
  cpSync(join(packageDir, 'dist/ui'), join(dir, 'dist/ui'), { recursive: true });
  for (const name of ['better-sqlite3', 'yaml']) symlinkSync(packageFolder(name), join(dir, 'node_modules', name), 'dir');
});

afterAll(() => {
  for (const running of started) running.child.kill('SIGKILL');
});

describe('the bundled bin', () => {
  it('prints the package version', () => {
    const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
    expect(execFileSync(process.execPath, [bin, '--version'], { cwd: dir, encoding: 'utf8' })).toBe(`${version}\n`);
  });

  it('serves a translated request with its ledger on, and reports it, needing no other package', async () => {
    const mock = await startBin(['mock', '--protocol', 'claude', '--port', '0']);
    const config = join(dir, 'gateway.yaml');
    const ledger = join(dir, 'usage.db');
    writeFileSync(
      config,
      `upstreams:\n  anthropic: { protocol: claude, baseUrl: "${mock.url}", apiKey: mock }\nroutes:\n  - { match: "*", upstream: anthropic, model: claude-sonnet-4-5 }\nledger: { path: "${ledger}" }\nlog: { level: warn }\n`,
    );
    const gateway = await startBin(['serve', '--config', config, '--port', '0']);
    const before = Math.floor(Date.now() / 1000);
    const res = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Say hello.' }] }),
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { created: number };
    // Claude answers carry no time: the Chat answer is stamped when the gateway writes it.
    expect(answer.created).toBeGreaterThanOrEqual(before);
    expect(answer.created).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(answer).toEqual({
      id: 'msg_mock_1',
      object: 'chat.completion',
      created: answer.created,
      model: 'claude-sonnet-4-5',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Mock claude says: Say hello.', refusal: null }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
    });
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
    mock.child.kill('SIGTERM');

    const report = JSON.parse(execFileSync(process.execPath, [bin, 'usage', '--config', config, '--json'], { cwd: dir, encoding: 'utf8' })) as unknown[];
    expect(report).toEqual([
      {
        group: 'gpt-4.1',
        requests: 1,
        errors: 0,
        inputTokens: 3,
        cachedTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
        outputTokens: 5,
        avgMs: expect.any(Number),
        // claude-sonnet-4-5 at $3 / $15 per million: 3 x 3 + 5 x 15.
        costUsd: 0.000084,
        unpricedRequests: 0,
      },
    ]);
  }, 30_000);

  it('calls its upstream through the proxy HTTP_PROXY names (its undici proxy modules are bundled)', async () => {
    const mock = await startBin(['mock', '--protocol', 'openai-chat', '--port', '0']);
    const proxy = await startForwardProxy();
    try {
      const config = join(dir, 'proxied.yaml');
      writeFileSync(
        config,
        `upstreams:\n  openai: { protocol: openai-chat, baseUrl: "${mock.url}/v1", apiKey: mock }\nroutes:\n  - { match: "*", upstream: openai }\nlog: { level: warn }\n`,
      );
      const env = { ...process.env, HTTP_PROXY: proxy.url, http_proxy: '', NO_PROXY: '', no_proxy: '' };
      const gateway = await startBin(['serve', '--config', config, '--port', '0'], env);
      const res = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Say hello.' }] }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content).toBe(
        'Mock openai-chat says: Say hello.',
      );
      expect(proxy.tunnels).toEqual([`CONNECT ${new URL(mock.url).host}`]);
      gateway.child.kill('SIGTERM');
      expect(await gateway.exited).toBe(0);
    } finally {
      mock.child.kill('SIGTERM');
      await proxy.close();
    }
  }, 30_000);

  it('serves the dashboard (page, script, Chart.js) from the files beside it', async () => {
    const config = join(dir, 'dashboard.yaml');
    writeFileSync(
      config,
      'adminKey: admin-key-0123456789\nupstreams:\n  openai: { protocol: openai-chat, baseUrl: "http://127.0.0.1:9/v1", apiKey: k }\nroutes:\n  - { match: "*", upstream: openai }\nledger: false\nlog: { level: warn }\n',
    );
    const gateway = await startBin(['serve', '--config', config, '--port', '0']);
    const signIn = await fetch(`${gateway.url}/ui`);
    expect([signIn.status, await signIn.text()]).toEqual([401, readFileSync(join(packageDir, 'src/ui/assets/sign-in.html'), 'utf8')]);
    const page = await fetch(`${gateway.url}/ui`, { headers: { cookie: 'llm_gateway_admin=admin-key-0123456789' } });
    expect([page.status, await page.text()]).toEqual([200, readFileSync(join(packageDir, 'src/ui/assets/dashboard.html'), 'utf8')]);
    const chart = await fetch(`${gateway.url}/ui/assets/chart.umd.min.js`);
    expect([chart.status, await chart.text()]).toEqual([200, readFileSync(join(packageDir, 'node_modules/chart.js/dist/chart.umd.min.js'), 'utf8')]);
    expect(readFileSync(join(dir, 'dist/ui/chart.js.LICENSE.md'), 'utf8')).toContain('Chart.js Contributors');
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
  }, 30_000);

  it('ships the licenses of the packages bundled into it', () => {
    const notices = readFileSync(join(packageDir, 'dist/cli.licenses.txt'), 'utf8');
    for (const name of ['undici', 'pino', 'valibot', 'eventsource-parser']) {
      expect(notices).toMatch(new RegExp(`^== ${name} \\d+\\.\\d+\\.\\d+ \\(MIT\\)\\n\\n.*(MIT|Permission is hereby granted)`, 'ms'));
    }
    // Loaded from their own packages at run time, not bundled: yaml for a YAML config,
    // better-sqlite3 for a ledger on a Node without node:sqlite.
    expect(notices).not.toContain('== yaml ');
    expect(notices).not.toContain('== better-sqlite3 ');
  });
});
