import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { startListening } from './helpers/listening-process.js';
import { slowClaudeStream } from './helpers/slow-claude.js';

/** Temp folders this file made, removed once its tests are over. */
const tempDirs: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `serve` run from the sources (tsx), as a test needs no build for it. */
function serveFromSource(config: string): string[] {
  return [join(packageDir, 'node_modules/tsx/dist/cli.mjs'), '--conditions=@llm/source', 'src/cli.ts', 'serve', '--config', config, '--port', '0'];
}

it('serve prints its address, answers /health, writes its buffered logs and exits 0 on SIGTERM', async () => {
  const dir = tempDir('serve-');
  const config = join(dir, 'gateway.yaml');
  writeFileSync(
    config,
    'keys: ["${KEY}"]\nupstreams: { a: { protocol: claude, baseUrl: "http://127.0.0.1:9", apiKey: "${KEY}" } }\nroutes: [{ match: "*", upstream: a }]\nledger: false\nlog: { level: info }\n',
  );
  const { url, child, exited, stdout, stderr } = await startListening(serveFromSource(config), { cwd: packageDir, env: { ...process.env, KEY: 'k-123' } });
  const health = await fetch(`${url}/health`);
  expect(health.status).toBe(200);
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(stderr()).not.toContain('k-123');
  const entries = stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  // Then the shutdown's lines (issue 20): nothing was in flight, nothing cut.
  expect(entries.map((entry) => entry.msg)).toEqual(['listening', 'request', 'draining', 'closed']);
  expect(entries[2]).toMatchObject({ requests: 0, drainMs: 10_000 });
  expect(entries[1]).toMatchObject({ method: 'GET', path: '/health', status: 200 });
  expect(stdout()).not.toContain('k-123');
}, 20_000);

it('on SIGINT, drains an in-flight stream to its end before exiting 0, and refuses new connections', async () => {
  const { serveNode } = await import('../src/server/node-adapter.js');
  // A slow Claude upstream: one text delta every 40 ms, 15 of them.
  const upstream = await serveNode(async () => slowClaudeStream({ deltas: 15, everyMs: 40, usage: { input_tokens: 3, output_tokens: 1 } }));
  const dir = tempDir('serve-');
  const config = join(dir, 'gateway.yaml');
  writeFileSync(
    config,
    `upstreams: { a: { protocol: claude, baseUrl: "${upstream.url}", apiKey: x } }\nroutes: [{ match: "*", upstream: a }]\nledger: false\nlog: { level: warn }\n`,
  );
  const { url, child, exited } = await startListening(serveFromSource(config), { cwd: packageDir });
  try {
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-x', stream: true, messages: [{ role: 'user', content: 'count' }] }),
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value, { stream: true });
    child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
    const deltas = text
      .split('\n\n')
      .filter((block) => block.startsWith('data: {'))
      .map((block) => JSON.parse(block.slice(6)) as { choices: { delta: { content?: string } }[] })
      .map((chunk) => chunk.choices[0]?.delta.content ?? '')
      .join('');
    expect(deltas).toBe(Array.from({ length: 15 }, (_, i) => `${i + 1} `).join(''));
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(await exited).toBe(0);
  } finally {
    child.kill('SIGKILL');
    await upstream.close();
  }
}, 30_000);

it('serve --drain-ms overrides the config drainMs: a held stream is cut when it passes, with its error event', async () => {
  const { serveNode } = await import('../src/server/node-adapter.js');
  const { gatedClaudeStream } = await import('./helpers/gated-claude.js');
  const { sseFrames } = await import('./helpers/sse-frames.js');
  // Never released: only the drain's end stops it.
  const held = gatedClaudeStream();
  const upstream = await serveNode(async () => held.response);
  const dir = tempDir('serve-');
  const config = join(dir, 'gateway.yaml');
  writeFileSync(
    config,
    `upstreams: { a: { protocol: claude, baseUrl: "${upstream.url}", apiKey: x } }\nroutes: [{ match: "*", upstream: a }]\nledger: false\nmetrics: false\ndrainMs: 600000\nlog: { level: info }\n`,
  );
  const { url, child, exited, stdout } = await startListening([...serveFromSource(config), '--drain-ms', '300'], { cwd: packageDir });
  try {
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-x', stream: true, messages: [{ role: 'user', content: 'count' }] }),
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('held ')) text += decoder.decode((await reader.read()).value, { stream: true });
    child.kill('SIGTERM');
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
    const message = 'the gateway is shutting down: its drain time of 300 ms passed';
    expect(sseFrames(text).at(-1)).toEqual({ data: { error: { message, type: 'server_error', param: null, code: null } } });
    expect(await exited).toBe(0);
    const lifecycle = stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => ['draining', 'cut', 'closed'].includes(entry.msg as string))
      .map(({ msg, requests, drainMs }) => ({ msg, requests, drainMs }));
    expect(lifecycle).toEqual([
      { msg: 'draining', requests: 1, drainMs: 300 },
      { msg: 'cut', requests: 1, drainMs: undefined },
      { msg: 'closed', requests: undefined, drainMs: undefined },
    ]);
  } finally {
    child.kill('SIGKILL');
    held.release();
    await upstream.close();
  }
}, 30_000);
