import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../src/cli/run.js';
import { openLedger } from '../src/ledger/ledger.js';

function io(stdin = ''): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => stdout.push(t), err: (t) => stderr.push(t), readStdin: async () => stdin, env: {} };
}

describe('llm-gateway CLI', () => {
  it('prints its version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v', 'version']) {
      const run = io();
      expect(await runCli([flag], run)).toBe(0);
      expect(run.stdout).toEqual([version]);
    }
  });

  it('prints help for the main command and every subcommand', async () => {
    const main = io();
    expect(await runCli(['--help'], main)).toBe(0);
    expect(main.stdout[0]).toContain('Usage: llm-gateway <command> [options]');
    for (const command of ['serve', 'mock', 'translate', 'usage', 'keys']) {
      const each = io();
      expect(await runCli([command, '--help'], each)).toBe(0);
      expect(each.stdout[0]).toMatch(new RegExp(`^Usage: llm-gateway ${command}`));
    }
  });

  const DRAIN_MS_EXPECTED = '--drain-ms: expected a whole number of milliseconds from 0 to 2147483647';
  const errors: [string[], string][] = [
    [['frobnicate'], 'llm-gateway: unknown command "frobnicate" (try llm-gateway --help)'],
    [['serve'], 'llm-gateway serve: --config <file> (or --mock) is required'],
    [['serve', '--mock', '--config', 'g.yaml'], 'llm-gateway serve: --mock serves its own config: leave out --config'],
    [['serve', '--config', '/nope.yaml'], 'llm-gateway serve: cannot read config /nope.yaml: ENOENT'],
    [['serve', '--bogus'], "llm-gateway serve: Unknown option '--bogus'"],
    // Checked before the config is read: the file named does not exist.
    [['serve', '--config', '/nope.yaml', '--drain-ms', 'abc'], `llm-gateway serve: ${DRAIN_MS_EXPECTED}, got "abc"`],
    [['serve', '--config', '/nope.yaml', '--drain-ms=-5'], `llm-gateway serve: ${DRAIN_MS_EXPECTED}, got "-5"`],
    [['serve', '--config', '/nope.yaml', '--drain-ms', '-5'], "llm-gateway serve: Option '--drain-ms' argument is ambiguous."],
    [['serve', '--config', '/nope.yaml', '--drain-ms', ''], `llm-gateway serve: ${DRAIN_MS_EXPECTED}, got ""`],
    [['serve', '--config', '/nope.yaml', '--drain-ms', '1e3'], `llm-gateway serve: ${DRAIN_MS_EXPECTED}, got "1e3"`],
    // Past node's longest timer, which would fire at once.
    [['serve', '--config', '/nope.yaml', '--drain-ms', '2147483648'], `llm-gateway serve: ${DRAIN_MS_EXPECTED}, got "2147483648"`],
    [['serve', '--workers', '2', '--config', '/nope.yaml', '--drain-ms', 'abc'], `llm-gateway serve: ${DRAIN_MS_EXPECTED}, got "abc"`],
    [['mock', '--protocol', 'grpc'], 'llm-gateway mock: --protocol: unknown protocol "grpc" (openai-chat, openai-responses, claude, gemini)'],
    [['mock', '--protocol', 'claude', '--port', 'x'], 'llm-gateway mock: --port: expected a port number, got "x"'],
    // An empty --port is no port 0 (any free port), and only digits make a port; checked before the config is read.
    [['mock', '--protocol', 'claude', '--port', ''], 'llm-gateway mock: --port: expected a port number, got ""'],
    [['mock', '--protocol', 'claude', '--port='], 'llm-gateway mock: --port: expected a port number, got ""'],
    [['mock', '--protocol', 'claude', '--port', '65536'], 'llm-gateway mock: --port: expected a port number, got "65536"'],
    [['serve', '--config', '/nope.yaml', '--port', ''], 'llm-gateway serve: --port: expected a port number, got ""'],
    [['serve', '--config', '/nope.yaml', '--port='], 'llm-gateway serve: --port: expected a port number, got ""'],
    [['serve', '--config', '/nope.yaml', '--port', '65536'], 'llm-gateway serve: --port: expected a port number, got "65536"'],
    [['serve', '--config', '/nope.yaml', '--port=-1'], 'llm-gateway serve: --port: expected a port number, got "-1"'],
    [['serve', '--config', '/nope.yaml', '--port', '1e3'], 'llm-gateway serve: --port: expected a port number, got "1e3"'],
    [['serve', '--config', '/nope.yaml', '--port', '0x50'], 'llm-gateway serve: --port: expected a port number, got "0x50"'],
    [['serve', '--config', '/nope.yaml', '--port', ' 80'], 'llm-gateway serve: --port: expected a port number, got " 80"'],
    [['serve', '--mock', '--port', ''], 'llm-gateway serve: --port: expected a port number, got ""'],
    [['translate', '--from', 'claude'], 'llm-gateway translate: --to is required (openai-chat, openai-responses, claude, gemini, bedrock-converse)'],
    [['translate', '--from', 'claude', '--to', 'gemini', '--kind', 'blob'], 'llm-gateway translate: --kind: expected request, response or stream, got "blob"'],
    [['usage', '--by', 'color'], 'llm-gateway usage: --by: expected model, upstream, key or day, got "color"'],
    [['usage', '--db', '/nonexistent/usage.db'], 'llm-gateway usage: cannot read ledger /nonexistent/usage.db: no ledger file there'],
  ];
  for (const [argv, message] of errors) {
    it(`answers ${argv.join(' ')} with one clear line`, async () => {
      const run = io();
      expect(await runCli(argv, run)).toBe(2);
      expect(run.stderr).toEqual([message]);
    });
  }

  it('takes --port 0 and 65535 and --drain-ms 0 and 2147483647: it goes on to read the config', async () => {
    for (const flags of [
      ['--port', '0', '--drain-ms', '0'],
      ['--port', '65535', '--drain-ms', '2147483647'],
    ]) {
      const run = io();
      expect(await runCli(['serve', '--config', '/nope.yaml', ...flags], run)).toBe(2);
      expect(run.stderr).toEqual(['llm-gateway serve: cannot read config /nope.yaml: ENOENT']);
    }
  });

  it('prints every config problem, one line each, and exits 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    const file = join(dir, 'c.yaml');
    writeFileSync(file, 'upstreams: { g: { protocol: gemini, baseUrl: "${BASE}" } }\nroutes: [{ match: "*", upstream: h }]\nwarningHeader: true\n');
    const run = io();
    expect(await runCli(['serve', '--config', file], run)).toBe(2);
    expect(run.stderr).toEqual([
      `llm-gateway serve: ${file}: upstreams.g.baseUrl: environment variable BASE is not set`,
      `llm-gateway serve: ${file}: warningHeader: unknown field (did you mean warningsHeader?)`,
      `llm-gateway serve: ${file}: routes.0.upstream: names no upstream of upstreams`,
    ]);
  });

  it('reports usage from a ledger named by the config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    const db = join(dir, 'u.db');
    const ledger = openLedger(db);
    ledger.record({
      time: Date.now(),
      keyId: 'key-1',
      record: {
        requestId: 'a',
        clientProtocol: 'claude',
        upstream: 'g',
        clientModel: 'm1',
        status: 200,
        stream: false,
        usage: { inputTokens: 5, outputTokens: 6 },
        totalMs: 4,
        warnings: [],
      },
    });
    ledger.close();
    // The API key's variable is unset: usage reads the ledger path and nothing else.
    writeFileSync(
      join(dir, 'c.yaml'),
      `upstreams: { g: { protocol: gemini, baseUrl: "http://x", apiKey: "\${GEMINI_API_KEY}" } }\nroutes: [{ match: "*", upstream: g }]\nledger: { path: ${db} }\n`,
    );
    const run = io();
    expect(await runCli(['usage', '--config', join(dir, 'c.yaml'), '--by', 'key', '--since', '1h', '--json'], run)).toBe(0);
    expect(JSON.parse(run.stdout[0]!)).toEqual([
      {
        group: 'key-1',
        requests: 1,
        errors: 0,
        inputTokens: 5,
        cachedTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
        outputTokens: 6,
        avgMs: 4,
        costUsd: 0,
        unpricedRequests: 0,
      },
    ]);
  });

  it('runs the mock upstream until stopped', async () => {
    const run = io();
    let stop: (() => Promise<void>) | undefined;
    const done = runCli(['mock', '--protocol', 'openai-chat'], { ...run, onRunning: (s) => (stop = s) });
    await expect.poll(() => run.stdout.length).toBe(1);
    const base = /base URL (\S+)\)/.exec(run.stdout[0]!)![1]!;
    const res = await fetch(`${base}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'ping' }] }),
    });
    expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe('Mock openai-chat says: ping');
    await stop?.();
    expect(await done).toBe(0);
  });

  it('tunes the process for serve only, with its environment, before the gateway listens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    writeFileSync(
      join(dir, 'c.yaml'),
      'upstreams: { g: { protocol: gemini, baseUrl: "http://127.0.0.1:9" } }\nroutes: [{ match: "*", upstream: g }]\nledger: false\n',
    );
    const tuned: Array<[Record<string, string | undefined>, number]> = [];
    const run = { ...io(), env: { HOME: '/h' } };
    let stop: (() => Promise<void>) | undefined;
    const tuneServeProcess = (env: Record<string, string | undefined>) => tuned.push([env, run.stderr.length]);
    const done = runCli(['serve', '--config', join(dir, 'c.yaml'), '--port', '0'], { ...run, tuneServeProcess, onRunning: (s) => (stop = s) });
    // The banner goes to stderr: stdout carries JSON log lines only.
    await expect.poll(() => run.stderr.length).toBe(1);
    expect(run.stderr[0]).toMatch(/^llm-gateway listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(run.stdout).toEqual([]);
    await stop?.();
    expect(await done).toBe(0);
    // Once, before the address line.
    expect(tuned).toEqual([[{ HOME: '/h' }, 0]]);
    const other = io();
    const mock = runCli(['mock', '--protocol', 'claude'], { ...other, tuneServeProcess, onRunning: (s) => void s() });
    expect(await mock).toBe(0);
    expect(await runCli(['serve', '--help'], { ...io(), tuneServeProcess })).toBe(0);
    expect(tuned).toHaveLength(1);
  });
});
