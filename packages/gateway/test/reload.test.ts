import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
import { gatedClaudeStream } from './helpers/gated-claude.js';
import { startListening } from './helpers/listening-process.js';
import { slowClaudeStream } from './helpers/slow-claude.js';
import { sseFrames } from './helpers/sse-frames.js';

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
    const dir = tempDir('reload-');
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
    const dir = tempDir('watch-');
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
    const dir = tempDir('sighup-');
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

  it('under load in the built bin: no request fails, the held stream ends on its old upstream, later requests take the new route and policy', async () => {
    const held = gatedClaudeStream();
    const gated = await serveNode(async () => held.response);
    const dir = tempDir('sighup-load-');
    const file = join(dir, 'gateway.json');
    const common = { ledger: false, metrics: false, log: { level: 'info' } };
    writeFileSync(
      file,
      JSON.stringify({
        ...common,
        upstreams: { chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl }, gated: { protocol: 'claude', baseUrl: gated.url } },
        routes: [
          { match: 'slow', upstream: 'gated' },
          { match: '*', upstream: 'chat' },
        ],
      }),
    );
    const { url, child, exited, stdout } = await startListening(['dist/cli.js', 'serve', '--config', file, '--port', '0'], { cwd: packageDir });
    const entries = () =>
      stdout()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    try {
      // The stream, held open by its upstream across the reload.
      const streamRes = await fetch(`${url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-request-id': 'held-stream' },
        body: JSON.stringify({ model: 'slow', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'count' }] }),
      });
      expect(streamRes.status).toBe(200);
      const reader = streamRes.body!.getReader();
      const decoder = new TextDecoder();
      let streamText = '';
      while (!streamText.includes('held ')) streamText += decoder.decode((await reader.read()).value, { stream: true });

      // Each asks with a reminder block the new policy strips; the mock upstreams echo the last user text.
      const REMINDER = '<system-reminder>note</system-reminder>';
      type Answer = { n: number; status: number; text: string | undefined; afterReload: boolean };
      const answers: Answer[] = [];
      let reloadSeen = false;
      let asked = 0;
      const askOnce = async (): Promise<Answer> => {
        const n = asked++;
        const afterReload = reloadSeen;
        const res = await fetch(`${url}/v1/chat/completions`, {
          method: 'POST',
          body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: `${REMINDER}ping-${n}` }] }),
        });
        const body = (await res.json()) as { choices?: { message: { content: string } }[] };
        return { n, status: res.status, text: body.choices?.[0]?.message.content, afterReload };
      };
      // Four clients in a loop, each until it has had three answers it asked for after the reload was logged.
      const clients = Array.from({ length: 4 }, async () => {
        let after = 0;
        while (after < 3) {
          const answer = await askOnce();
          answers.push(answer);
          if (answer.afterReload) after++;
        }
      });
      await expect.poll(() => answers.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(8);
      writeFileSync(
        file,
        JSON.stringify({
          ...common,
          upstreams: { claude: { protocol: 'claude', baseUrl: claude.baseUrl } },
          routes: [{ match: '*', upstream: 'claude', model: 'claude-sonnet-4-5' }],
          policies: { stripSystemReminders: true },
        }),
      );
      const sentAt = answers.length;
      child.kill('SIGHUP');
      await expect.poll(() => entries().some((entry) => entry.msg === 'config reloaded'), { timeout: 10_000 }).toBe(true);
      reloadSeen = true;
      await Promise.all(clients);

      expect(answers.filter(({ status }) => status !== 200)).toEqual([]);
      const oldText = (n: number) => `Mock openai-chat says: ${REMINDER}ping-${n}`;
      const newText = (n: number) => `Mock claude says: ping-${n}`;
      // Answered before the signal: the old route, no policy. Asked after the reload was logged: the new route and policy.
      expect(answers.slice(0, sentAt).filter(({ n, text }) => text !== oldText(n))).toEqual([]);
      const later = answers.filter(({ afterReload }) => afterReload);
      expect(later).toHaveLength(12);
      expect(later.filter(({ n, text }) => text !== newText(n))).toEqual([]);
      // Those in flight at the signal got one config or the other, whole.
      expect(answers.filter(({ n, text }) => text !== oldText(n) && text !== newText(n))).toEqual([]);

      // The stream began under the old config: released now, it ends normally on the upstream the new one dropped.
      held.release();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) streamText += decoder.decode(chunk.value, { stream: true });
      const frames = sseFrames(streamText);
      expect(frames.at(-1)).toEqual({ event: 'message_stop', data: { type: 'message_stop' } });
      expect(
        frames
          .filter((frame) => frame.event === 'content_block_delta')
          .map((frame) => (frame.data as { delta: { text: string } }).delta.text)
          .join(''),
      ).toBe('held done');
      await expect.poll(() => entries().filter((entry) => entry.requestId === 'held-stream' && entry.msg === 'request').length).toBe(1);
      const streamLine = entries().find((entry) => entry.requestId === 'held-stream' && entry.msg === 'request');
      expect([streamLine?.upstream, streamLine?.status, streamLine?.errorKind]).toEqual(['gated', 200, undefined]);
      const reloadLine = entries().find((entry) => entry.msg === 'config reloaded');
      expect(reloadLine).toMatchObject({ upstreams: ['claude'], routes: 1 });
      expect(reloadLine).not.toHaveProperty('needRestart');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      // Every request's line: one per answer and the stream, each a 200, none a failure.
      const requests = entries().filter((entry) => entry.msg === 'request');
      expect(requests).toHaveLength(answers.length + 1);
      expect(requests.filter((entry) => entry.status !== 200 || entry.errorKind !== undefined)).toEqual([]);
      expect(entries().filter((entry) => (entry.level as number) >= 40)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      held.release();
      await gated.close();
    }
  }, 60_000);
});
