import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

it('serve prints its address, answers /health, and exits 0 on SIGTERM', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'serve-'));
  const config = join(dir, 'gateway.yaml');
  writeFileSync(config, 'keys: ["${KEY}"]\nupstreams: { a: { protocol: claude, baseUrl: "http://127.0.0.1:9", apiKey: "${KEY}" } }\nroutes: [{ match: "*", upstream: a }]\nledger: false\nlog: { level: warn }\n');
  const child = spawn(process.execPath, [join(packageDir, 'node_modules/tsx/dist/cli.mjs'), '--conditions=@llm/source', 'src/cli.ts', 'serve', '--config', config, '--port', '0'], {
    cwd: packageDir,
    env: { ...process.env, KEY: 'k-123' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await expect.poll(() => /listening on (http:\/\/\S+)/.exec(stdout)?.[1], { timeout: 15_000, interval: 50 }).toBeDefined();
  const url = /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
  const health = await fetch(`${url}/health`);
  expect(health.status).toBe(200);
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(stderr).not.toContain('k-123');
}, 20_000);
