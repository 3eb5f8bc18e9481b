// `llm-gateway keys ...` (issue 22): writes the store the config names with no gateway running;
// clear errors and exit codes; a running gateway sees the CLI's changes within the cache TTL.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../src/cli/run.js';
import { loadConfigFile } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { startMockUpstream } from '../src/mock/server.js';
import { startGateway } from '../src/server/start.js';

function io(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => stdout.push(t), err: (t) => stderr.push(t), readStdin: async () => '', env: {} };
}

/** A config with a file key named `file-key` and its keys in a fresh folder; `${UNSET}` upstream key: the CLI must not need it. */
function configFile(extra = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'keys-cli-'));
  const file = join(dir, 'gateway.yaml');
  writeFileSync(
    file,
    `keys: [{ name: file-key, key: "\${FILE_KEY}" }]\nledger: false\nmetrics: false\nupstreams: { u: { protocol: openai-chat, baseUrl: "\${BASE_URL}", apiKey: "\${UNSET_KEY}" } }\nroutes: [{ match: "*", upstream: u }]\n${extra}`,
  );
  return file;
}

async function run(argv: string[]): Promise<{ code: number; stdout: string[]; stderr: string[] }> {
  const out = io();
  const code = await runCli(argv, out);
  return { code, stdout: out.stdout, stderr: out.stderr };
}

describe('llm-gateway keys', () => {
  it('creates, lists, shows, updates and revokes keys in the config folder, with no gateway running', async () => {
    const config = configFile();
    const created = await run([
      'keys',
      'create',
      '--config',
      config,
      '--name',
      'ci',
      '--budget',
      '50/day',
      '--rpm',
      '60',
      '--tpm',
      '9000',
      '--models',
      'claude-*, gpt-*',
      '--expires',
      '2027-01-01',
      '--meta',
      'team=infra',
      '--meta',
      'owner=ana',
      '--json',
    ]);
    expect(created.code).toBe(0);
    const view = JSON.parse(created.stdout[0]!);
    expect(view).toEqual({
      name: 'ci',
      prefix: view.secret.slice(0, 12),
      models: ['claude-*', 'gpt-*'],
      expiresAt: '2027-01-01T00:00:00.000Z',
      budget: { usd: 50, period: 'day' },
      rpm: 60,
      tpm: 9000,
      metadata: { team: 'infra', owner: 'ana' },
      disabled: false,
      status: 'active',
      createdAt: view.createdAt,
      updatedAt: view.createdAt,
      revokedAt: null,
      secret: expect.stringMatching(/^sk-gw-[0-9A-Za-z]{40}$/),
    });

    const human = await run(['keys', 'create', '--config', config, '--name', 'nightly', '--budget', '5', '--expires', '30d']);
    expect(human.code).toBe(0);
    expect(human.stdout[0]).toMatch(
      /^name: {5}nightly\nsecret: {3}sk-gw-[0-9A-Za-z]{40}\nprefix: {3}sk-gw-\w{6}\nstatus: {3}active\nmodels: {3}any\nbudget: {3}\$5\/total\n/,
    );
    expect(human.stderr).toEqual(['The secret is shown this once: the gateway keeps only its hash.']);

    const list = await run(['keys', 'list', '--config', config]);
    expect(list.code).toBe(0);
    const rows = list.stdout[0]!.split('\n');
    expect(rows[0]).toMatch(/^NAME +PREFIX +STATUS +MODELS +BUDGET +RPM +TPM +EXPIRES$/);
    expect(rows[1]).toMatch(/^ci +sk-gw-\w{6} +active +claude-\*,gpt-\* +\$50\/day +60 +9000 +2027-01-01T00:00:00\.000Z$/);
    expect(rows[2]).toMatch(/^nightly +sk-gw-\w{6} +active +any +\$5\/total +- +- +20\d\d-/);

    const updated = await run(['keys', 'update', 'ci', '--config', config, '--rpm', 'none', '--budget', 'none', '--models', '*', '--disable', '--json']);
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout[0]!)).toMatchObject({ rpm: null, budget: null, models: [], disabled: true, status: 'disabled', tpm: 9000 });

    const revoked = await run(['keys', 'revoke', 'ci', '--config', config, '--json']);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout[0]!)).toMatchObject({ name: 'ci', status: 'revoked' });
    const shown = await run(['keys', 'show', 'ci', '--config', config, '--json']);
    expect(JSON.parse(shown.stdout[0]!)).toMatchObject({ name: 'ci', status: 'revoked', revokedAt: expect.any(String) });
    expect(JSON.stringify(shown.stdout)).not.toContain('hash');
    const listed = await run(['keys', 'list', '--config', config, '--json']);
    expect(JSON.parse(listed.stdout[0]!).map((key: { name: string; status: string }) => [key.name, key.status])).toEqual([
      ['ci', 'revoked'],
      ['nightly', 'active'],
    ]);
  });

  const errors: [string[], number, string][] = [
    [['keys', 'create', '--name', 'x'], 2, 'llm-gateway keys: --config <file> is required'],
    [['keys', 'rotate'], 2, 'llm-gateway keys: expected create, list, show, update or revoke, got "rotate"'],
    [['keys', 'create', '--name', 'x', '--colour', 'red', '@config'], 2, "llm-gateway keys: Unknown option '--colour'"],
    [['keys', 'list', '--rpm', '5', '@config'], 2, "llm-gateway keys: Unknown option '--rpm'"],
    [['keys', 'show', '@config'], 2, 'llm-gateway keys: show takes one key name'],
    [['keys', 'create', 'ci', '@config'], 2, 'llm-gateway keys: create takes no name argument (use --name)'],
    [
      ['keys', 'create', '--name', 'x', '--expires', '30 days', '@config'],
      2,
      'llm-gateway keys: --expires: expected a duration (30d, 12h, 2w, 90m), a date (2027-01-01) or never, got "30 days"',
    ],
    [
      ['keys', 'create', '--name', 'x', '--budget', '$5', '@config'],
      2,
      'llm-gateway keys: --budget: expected USD[/day|/week|/month|/total] such as 50/month, got "$5"',
    ],
    [['keys', 'create', '--name', 'x', '--budget', '5/year', '@config'], 2, 'llm-gateway keys: --budget: must be one of day, week, month, total'],
    [['keys', 'create', '--name', 'x', '--rpm', 'lots', '@config'], 2, 'llm-gateway keys: --rpm: expected a whole number (or none), got "lots"'],
    [['keys', 'create', '--name', 'x', '--rpm', '0', '@config'], 2, 'llm-gateway keys: --rpm: must be a whole number from 1 to 1000000000'],
    [['keys', 'create', '--name', 'x', '--meta', 'novalue', '@config'], 2, 'llm-gateway keys: --meta: expected name=value, got "novalue"'],
    [
      ['keys', 'create', '--name', 'x', '--expires', '9999999999d', '@config'],
      2,
      'llm-gateway keys: --expires: "9999999999d" is further ahead than a date can be',
    ],
    [
      ['keys', 'create', '--name', 'a b', '@config'],
      2,
      'llm-gateway keys: --name: must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
    ],
    [['keys', 'create', '--name', 'file-key', '@config'], 1, "llm-gateway keys: a key named file-key is in the config file's keys"],
    [['keys', 'show', 'nobody', '@config'], 1, 'llm-gateway keys: no key named nobody'],
    [['keys', 'revoke', 'nobody', '@config'], 1, 'llm-gateway keys: no key named nobody'],
  ];
  it('keeps --meta __proto__=... as an entry, and the last of a repeated name', async () => {
    const config = configFile();
    const created = await run([
      'keys',
      'create',
      '--config',
      config,
      '--name',
      'proto',
      '--meta',
      '__proto__=x',
      '--meta',
      'team=a',
      '--meta',
      'team=b',
      '--json',
    ]);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout[0]!).metadata).toEqual(JSON.parse('{"__proto__": "x", "team": "b"}'));
  });

  // `@config`: the config file's flag and path.
  for (const [argv, code, message] of errors) {
    it(`answers ${argv.join(' ')} with one clear line and exit code ${code}`, async () => {
      const config = configFile();
      const result = await run(argv.flatMap((arg) => (arg === '@config' ? ['--config', config] : [arg])));
      expect(result.code).toBe(code);
      expect(result.stderr).toEqual([message]);
    });
  }

  it('writes the key when the configured Redis is down, warning that gateways see it within their TTL', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const config = configFile(`store: { redis: "redis://127.0.0.1:${port}" }\n`);
    const created = await run(['keys', 'create', '--name', 'offline', '--config', config, '--json']);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout[0]!)).toMatchObject({ name: 'offline', status: 'active' });
    expect(created.stderr).toEqual([
      `llm-gateway keys: warning: store.redis: cannot reach redis://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}; running gateways see this change within their key cache's TTL (virtualKeys.cacheTtlMs)`,
    ]);
    expect((await run(['keys', 'list', '--config', config, '--json'])).stdout).toHaveLength(1);
  });

  it('lets a gateway with no file keys serve a non-loopback address once a virtual key exists', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-relay-'));
    const config = join(dir, 'gateway.yaml');
    writeFileSync(config, 'upstreams: { a: { protocol: claude, baseUrl: "http://127.0.0.1:1" } }\nroutes: [{ match: "*", upstream: a }]\nledger: false\n');
    const start = () => startGateway(loadConfigFile(config, {}), { host: '0.0.0.0', port: 0, logger: createLogger('silent') });
    await expect(start()).rejects.toThrow('listen.host: 0.0.0.0 is reachable from other machines and no client keys are set');
    expect((await run(['keys', 'create', '--name', 'only', '--config', config])).code).toBe(0);
    const gateway = await start();
    try {
      const refused = await fetch(`http://127.0.0.1:${gateway.port}/v1/messages`, { method: 'POST', body: '{}' });
      expect(refused.status).toBe(401);
    } finally {
      await gateway.close();
    }
  });

  it('is seen by a running gateway: a key created by the CLI answers; revoked, it is refused within the cache TTL', async () => {
    const upstream = await startMockUpstream({ protocol: 'openai-chat', port: 0 });
    const config = configFile('virtualKeys: { cacheTtlMs: 200 }\n');
    const env = { FILE_KEY: 'client-key', BASE_URL: upstream.baseUrl, UNSET_KEY: 'k' };
    const gateway = await startGateway(loadConfigFile(config, env), { port: 0, logger: createLogger('silent') });
    const chat = (key: string) =>
      fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      });
    try {
      const created = await run(['keys', 'create', '--config', config, '--name', 'cli-made', '--json']);
      const secret = JSON.parse(created.stdout[0]!).secret as string;
      expect((await chat(secret)).status).toBe(200);
      expect((await run(['keys', 'revoke', 'cli-made', '--config', config])).code).toBe(0);
      const revokedAt = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - revokedAt < 2_000) {
        status = (await chat(secret)).status;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status).toBe(401);
      // Refused within the TTL (200 ms) and the polling step.
      expect(Date.now() - revokedAt).toBeLessThan(200 + 250);
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });
});
