// Virtual keys under `serve --workers 2` (issue 22): the processes share the keys' SQLite file;
// a key the CLI creates answers on every worker, its rpm counted once for all of them (the
// limits file beside the ledger), and once revoked is refused by every worker within the TTL.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../src/cli/run.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { startListening } from './helpers/listening-process.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('virtual keys with serve --workers 2', () => {
  let claude: MockUpstream;
  beforeAll(async () => {
    claude = await startMockUpstream({ protocol: 'claude' });
  });
  afterAll(async () => claude.close());

  it('shares the keys file between the workers and the CLI', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-workers-'));
    const config = join(dir, 'gateway.yaml');
    writeFileSync(
      config,
      `upstreams: { claude: { protocol: claude, baseUrl: "${claude.baseUrl}", apiKey: k } }\nroutes: [{ match: "*", upstream: claude }]\nledger: { path: usage.db }\nmetrics: false\nvirtualKeys: { cacheTtlMs: 300 }\nlog: { level: warn }\n`,
    );
    const out: string[] = [];
    const io: CliIo = { out: (text) => out.push(text), err: () => undefined, readStdin: async () => '', env: {} };
    // Made before the start: both workers require keys from their first request.
    expect(await runCli(['keys', 'create', '--name', 'ci', '--rpm', '30', '--config', config, '--json'], io)).toBe(0);
    const secret = JSON.parse(out[0]!).secret as string;
    const args = [
      join(packageDir, 'node_modules/tsx/dist/cli.mjs'),
      '--conditions=@llm/source',
      'src/cli.ts',
      'serve',
      '--config',
      config,
      '--port',
      '0',
      '--workers',
      '2',
    ];
    const { url, child, exited, stderr } = await startListening(args, { cwd: packageDir });
    try {
      await expect.poll(() => stderr().match(/listening on/g)?.length, { timeout: 15_000 }).toBe(2);
      // Concurrent requests open several connections, which the primary hands to both workers in turn.
      const burst = (key: string | undefined) =>
        Promise.all(
          Array.from({ length: 20 }, () =>
            fetch(`${url}/v1/messages`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...(key && { 'x-api-key': key }) },
              body: JSON.stringify({ model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
            }).then((reply) => reply.status),
          ),
        );
      // The rpm counts per UTC minute: both bursts within one.
      const seconds = new Date().getUTCSeconds();
      if (seconds > 50) await new Promise((resolve) => setTimeout(resolve, (61 - seconds) * 1000));
      expect(await burst(secret)).toEqual(Array(20).fill(200));
      expect((await burst(secret)).sort()).toEqual([...Array(10).fill(200), ...Array(10).fill(429)]);
      expect(await burst(undefined)).toEqual(Array(20).fill(401));
      expect(await runCli(['keys', 'revoke', 'ci', '--config', config], io)).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await burst(secret)).toEqual(Array(20).fill(401));
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 30_000);
});
