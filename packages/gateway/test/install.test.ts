import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '../src/ledger/ledger.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(packageDir, '../..');
const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };

/** Runs `serve --mock` with `command`, sends one chat request, stops it: the answer's text. */
async function mockAnswer(command: string[], cwd: string): Promise<string> {
  const child = spawn(command[0]!, [...command.slice(1), 'serve', '--mock', '--port', '0'], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  let stderr = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = /mock upstreams at (http:\/\/\S+) /.exec(stderr)?.[1];
        if (found) resolve(found);
      });
      void exited.then((code) => reject(new Error(`exited (${code}):\n${stderr}`)));
    });
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] }),
    });
    return ((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

describe('the standalone tarball', () => {
  let prefix: string;
  let elsewhere: string;
  beforeAll(() => {
    if (!existsSync(join(packageDir, 'dist/cli.js'))) throw new Error('dist/cli.js is missing: build the package first (turbo runs build before test)');
    const dir = mkdtempSync(join(tmpdir(), 'standalone-'));
    const tarball = execFileSync(process.execPath, [join(packageDir, 'scripts/pack-standalone.mjs'), '--out', dir], { cwd: dir, encoding: 'utf8' }).trim();
    expect(tarball).toBe(join(dir, `llm-gateway-standalone-${version}.tgz`));
    prefix = join(dir, 'prefix');
    elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    // Offline and without the optional SQLite addon: nothing comes from a registry.
    execFileSync('npm', ['install', '--global', '--prefix', prefix, '--offline', '--omit=optional', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
      cwd: elsewhere,
      encoding: 'utf8',
    });
  }, 60_000);

  it('installs the llm-gateway command with its license and example config', () => {
    const installed = join(prefix, 'lib/node_modules/@llm/gateway');
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toBe(readFileSync(join(packageDir, 'LICENSE'), 'utf8'));
    expect(existsSync(join(installed, 'gateway.example.yaml'))).toBe(true);
    expect(execFileSync(join(prefix, 'bin/llm-gateway'), ['--version'], { cwd: elsewhere, encoding: 'utf8' })).toBe(`${version}\n`);
  });

  it("carries the dashboard's files (page, script, styles, Chart.js and its license)", () => {
    const ui = join(prefix, 'lib/node_modules/@llm/gateway/dist/ui');
    for (const file of ['dashboard.html', 'sign-in.html', 'dashboard.js', 'dashboard.css', 'chart.umd.min.js', 'chart.js.LICENSE.md']) {
      expect(readFileSync(join(ui, file), 'utf8')).toBe(readFileSync(join(packageDir, 'dist/ui', file), 'utf8'));
    }
  });

  it('serves a mock request from a directory outside the repository', async () => {
    expect(await mockAnswer([join(prefix, 'bin/llm-gateway')], elsewhere)).toBe('Mock openai-chat says: hi');
  }, 30_000);
});

describe('the clone runner (scripts/llm-gateway.mjs)', () => {
  let elsewhere: string;
  beforeAll(() => {
    elsewhere = mkdtempSync(join(tmpdir(), 'runner-'));
  });

  it('runs from any directory, printing only the CLI output (no build banner)', () => {
    const out = execFileSync(process.execPath, [join(repoRoot, 'scripts/llm-gateway.mjs'), '--version'], {
      cwd: elsewhere,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out).toBe(`${version}\n`);
  });

  it('resolves paths against the directory it was called from', () => {
    mkdirSync(join(elsewhere, 'data'));
    const ledger = openLedger(join(elsewhere, 'data/u.db'));
    ledger.record({
      time: Date.now(),
      keyId: 'ci',
      record: { requestId: 'a', clientProtocol: 'claude', status: 200, stream: false, totalMs: 4, warnings: [] },
    });
    ledger.close();
    writeFileSync(join(elsewhere, 'gateway.yaml'), 'ledger: { path: data/u.db }\n');
    const run = (args: string[]) =>
      JSON.parse(
        execFileSync(process.execPath, [join(repoRoot, 'scripts/llm-gateway.mjs'), 'usage', ...args, '--by', 'key', '--json'], {
          cwd: elsewhere,
          encoding: 'utf8',
        }),
      ) as { group: string }[];
    expect(run(['--db', 'data/u.db']).map((line) => line.group)).toEqual(['ci']);
    expect(run(['--config', 'gateway.yaml']).map((line) => line.group)).toEqual(['ci']);
  });

  it('serves a mock request', async () => {
    expect(await mockAnswer([process.execPath, join(repoRoot, 'scripts/llm-gateway.mjs')], elsewhere)).toBe('Mock openai-chat says: hi');
  }, 30_000);
});
