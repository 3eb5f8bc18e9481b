import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWorkers } from '../src/cli/workers.js';
import { usageReport } from '../src/ledger/report.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { startListening } from './helpers/listening-process.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('--workers', () => {
  it('takes a count from 1 or auto (the cores), and nothing else', () => {
    expect([undefined, '1', '3', 'auto'].map((value) => parseWorkers(value, 8))).toEqual([1, 1, 3, 8]);
    expect(['0', '-1', '1.5', 'two', ''].map((value) => parseWorkers(value, 8))).toEqual([undefined, undefined, undefined, undefined, undefined]);
    // What `Number` would take: an exponent, hex, padding. Digits only, at most 1024.
    expect(['1e2', '0x10', ' 4', '4 ', '1025'].map((value) => parseWorkers(value, 8))).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(parseWorkers('1024', 8)).toBe(1024);
  });

  describe('serve --workers 2', () => {
    let claude: MockUpstream;
    beforeAll(async () => {
      claude = await startMockUpstream({ protocol: 'claude' });
    });
    afterAll(async () => {
      await claude.close();
    });

    it('runs two processes on one port writing one ledger, and stops both on SIGTERM', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'workers-'));
      const config = join(dir, 'gateway.yaml');
      writeFileSync(
        config,
        `upstreams: { claude: { protocol: claude, baseUrl: "${claude.baseUrl}", apiKey: k } }\nroutes: [{ match: "*", upstream: claude }]\nledger: { path: usage.db }\nlog: { level: warn }\n`,
      );
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
      // Both workers listen (each prints its banner) on the one port.
      await expect.poll(() => stderr().match(/listening on/g)?.length, { timeout: 15_000 }).toBe(2);
      expect(new Set([...stderr().matchAll(/listening on (\S+)/g)].map((match) => match[1]))).toEqual(new Set([url]));
      // tsx runs the CLI in a child: that one is the primary, and the workers are its children.
      // (Only those running the CLI: tsx also starts an esbuild service.)
      const childrenOf = (pid: number | string | undefined) =>
        execFileSync('pgrep', ['-P', String(pid), '-f', 'src/cli.ts'])
          .toString()
          .trim()
          .split('\n');
      const [primary] = childrenOf(child.pid);
      const workers = childrenOf(primary);
      expect(workers).toHaveLength(2);

      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          fetch(`${url}/v1/messages`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
            body: JSON.stringify({ model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: `hi ${index}` }] }),
          }).then((res) => res.status),
        ),
      );
      expect(answers).toEqual(Array(20).fill(200));
      // Both processes' batches land in the one SQLite file (within the 250 ms batch interval).
      const report = () => usageReport(join(dir, 'usage.db'), 'model').map((line) => [line.group, line.requests]);
      await expect.poll(report).toEqual([['claude-x', 20]]);

      // A worker that dies (SIGKILL: its unwritten batch, none here, would be lost) is replaced
      // (after 1 s); the other keeps the port answering (a kept-alive
      // connection to the dead one fails once, as with any server that dies).
      process.kill(Number(workers[0]), 'SIGKILL');
      await expect.poll(async () => (await fetch(`${url}/health`)).status).toBe(200);
      await expect.poll(() => childrenOf(primary).filter((pid) => pid !== workers[0]).length, { timeout: 10_000, interval: 100 }).toBe(2);
      expect(stderr()).toContain(`llm-gateway worker ${workers[0]} exited (SIGKILL); starting another`);
      const replaced = childrenOf(primary);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      for (const pid of replaced) expect(() => process.kill(Number(pid), 0)).toThrow();
      // Every request once.
      expect(report()).toEqual([['claude-x', 20]]);
    }, 30_000);
  });
});
