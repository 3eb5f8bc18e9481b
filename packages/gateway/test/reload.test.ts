import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCH_SETTLE_MS, reloadOnSignal } from '../src/cli/config-reload.js';
import { loadConfigFile, parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { type NodeServer, serveNode } from '../src/server/node-adapter.js';
import { startGateway } from '../src/server/start.js';
import { startListening } from './helpers/listening-process.js';
import { slowClaudeStream } from './helpers/slow-claude.js';
import { sseFrames } from './helpers/sse-frames.js';

// Issue 20: a reload (SIGHUP) swaps keys, upstreams and routes without dropping a request in
// flight; an invalid config is logged and the running one kept.
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
let chat: MockUpstream;
let claude: MockUpstream;
let slow: NodeServer;

beforeAll(async () => {
  [chat, claude] = await Promise.all([startMockUpstream({ protocol: 'openai-chat' }), startMockUpstream({ protocol: 'claude' })]);
  // Ten deltas 50 ms apart: a stream that outlives the reload.
  slow = await serveNode(async () => slowClaudeStream({ deltas: 10, everyMs: 50, usage: { input_tokens: 3, output_tokens: 1 } }));
});
afterAll(async () => {
  await Promise.all([chat.close(), claude.close(), slow.close()]);
});

const before = () => ({
  keys: ['old-key'],
  upstreams: { chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl }, slow: { protocol: 'claude', baseUrl: slow.url } },
  routes: [
    { match: 'slow', upstream: 'slow' },
    { match: '*', upstream: 'chat' },
  ],
  ledger: false,
  metrics: false,
});
const after = () => ({
  keys: ['old-key', 'new-key'],
  upstreams: { claude: { protocol: 'claude', baseUrl: claude.baseUrl } },
  routes: [{ match: '*', upstream: 'claude', model: 'claude-sonnet-4-5' }],
  ledger: false,
  metrics: false,
});

/** A Chat completion through the gateway: its status and the answer's text. */
async function ask(url: string, key = 'old-key'): Promise<[number, string | undefined]> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'ping' }] }),
  });
  const body = (await res.json()) as { choices?: { message: { content: string } }[] };
  return [res.status, body.choices?.[0]?.message.content];
}

describe('config reload', () => {
  it('swaps routes, upstreams and keys under load with no failed request; a stream in flight finishes on its old upstream', async () => {
    const lines: Record<string, unknown>[] = [];
    const gateway = await startGateway(parseConfig(JSON.stringify(before())), {
      port: 0,
      logger: createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }),
    });
    try {
      const streaming = fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': 'old-key' },
        body: JSON.stringify({ model: 'slow', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'count' }] }),
      }).then(async (res) => [res.status, sseFrames(await res.text()).at(-1)] as const);
      const answers: [number, string | undefined][] = [];
      let reloaded = false;
      // Four clients asking in a loop until well after the reload.
      const load = Array.from({ length: 4 }, async () => {
        const until = performance.now() + 400;
        while (performance.now() < until) answers.push(await ask(gateway.url));
      });
      await new Promise((resolve) => setTimeout(resolve, 150));
      reloaded = gateway.reload(() => parseConfig(JSON.stringify(after())));
      await Promise.all(load);
      expect(reloaded).toBe(true);
      expect(answers.filter(([status]) => status !== 200)).toEqual([]);
      const texts = new Set(answers.map(([, text]) => text));
      expect(texts).toEqual(new Set(['Mock openai-chat says: ping', 'Mock claude says: ping']));
      expect(answers.at(-1)).toEqual([200, 'Mock claude says: ping']);
      // The stream began under the old config: its upstream is gone from the new one, and it ends normally.
      expect(await streaming).toEqual([200, { event: 'message_stop', data: { type: 'message_stop' } }]);
      expect(await ask(gateway.url, 'new-key')).toEqual([200, 'Mock claude says: ping']);
      const reloadLine = lines.find((line) => line.msg === 'config reloaded');
      expect(reloadLine).toMatchObject({ level: 30, upstreams: ['claude'], routes: 1 });
      expect(reloadLine).not.toHaveProperty('needRestart');
    } finally {
      await gateway.close();
    }
  });

  it('keeps serving under the running config when the new one is invalid, and names what needs a restart', async () => {
    const lines: Record<string, unknown>[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'reload-'));
    const file = join(dir, 'gateway.json');
    const gateway = await startGateway(parseConfig(JSON.stringify(before())), {
      port: 0,
      logger: createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }),
    });
    try {
      writeFileSync(file, JSON.stringify({ ...before(), routes: [{ match: '*', upstream: 'nowhere' }], warningHeader: true }));
      expect(gateway.reload(() => loadConfigFile(file, {}))).toBe(false);
      const failed = lines.find((line) => line.msg === 'config reload failed; the running config is kept');
      expect(failed?.level).toBe(50);
      expect(failed?.err).toContain('warningHeader');
      expect(await ask(gateway.url)).toEqual([200, 'Mock openai-chat says: ping']);
      expect(gateway.reload(() => parseConfig(JSON.stringify({ ...after(), listen: { port: 1 }, maxBodyBytes: 10 })))).toBe(true);
      expect(lines.find((line) => line.msg === 'config reloaded')?.needRestart).toEqual(['listen', 'maxBodyBytes']);
      expect(await ask(gateway.url, 'new-key')).toEqual([200, 'Mock claude says: ping']);
    } finally {
      await gateway.close();
    }
  });
});

describe('--watch-config', () => {
  it('reloads once per burst of writes to the file, and not for other files in its folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'watch-'));
    const file = join(dir, 'gateway.json');
    writeFileSync(file, JSON.stringify(before()));
    const loaded: string[] = [];
    const reloadNow = (load: () => unknown): boolean => {
      load();
      return true;
    };
    const readConfig = () => {
      loaded.push('read');
      return parseConfig(JSON.stringify(before()));
    };
    const stop = reloadOnSignal({ reload: reloadNow }, readConfig, { watchFile: file });
    try {
      writeFileSync(join(dir, 'other.json'), '{}');
      await new Promise((resolve) => setTimeout(resolve, WATCH_SETTLE_MS * 2));
      expect(loaded).toEqual([]);
      // An editor's save: several writes in a row.
      writeFileSync(file, '{');
      writeFileSync(file, JSON.stringify(after()));
      await expect.poll(() => loaded, { timeout: 2_000 }).toEqual(['read']);
      await new Promise((resolve) => setTimeout(resolve, WATCH_SETTLE_MS * 2));
      expect(loaded).toEqual(['read']);
    } finally {
      stop();
    }
  });
});

describe('serve and SIGHUP', () => {
  it('reloads the file on SIGHUP, keeps running on an invalid one, and exits 0 on SIGTERM after draining', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sighup-'));
    const file = join(dir, 'gateway.json');
    writeFileSync(file, JSON.stringify({ ...before(), keys: [] }));
    // tsx as a loader in one process: its CLI runs a child and relays SIGINT and SIGTERM only.
    const args = ['--import', 'tsx', '--conditions=@llm/source', 'src/cli.ts', 'serve', '--config', file, '--port', '0'];
    const { url, child, exited, stdout } = await startListening(args, { cwd: packageDir });
    const logged = (msg: string) =>
      stdout()
        .split('\n')
        .filter((line) => line.startsWith('{') && (JSON.parse(line) as { msg: string }).msg === msg).length;
    expect(await ask(url)).toEqual([200, 'Mock openai-chat says: ping']);
    writeFileSync(file, '{"upstreams": {}}');
    child.kill('SIGHUP');
    await expect.poll(() => logged('config reload failed; the running config is kept'), { timeout: 5_000 }).toBe(1);
    expect(await ask(url)).toEqual([200, 'Mock openai-chat says: ping']);
    writeFileSync(file, JSON.stringify({ ...after(), keys: [] }));
    child.kill('SIGHUP');
    await expect.poll(() => logged('config reloaded'), { timeout: 5_000 }).toBe(1);
    expect(await ask(url)).toEqual([200, 'Mock claude says: ping']);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect([logged('draining'), logged('closed')]).toEqual([1, 1]);
  }, 20_000);
});
