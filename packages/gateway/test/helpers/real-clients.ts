import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Real agent clients, pinned to the versions ../shared/CLIENTS.md describes. */
export const CLIENTS = {
  'claude-code': { package: '@anthropic-ai/claude-code', version: '2.1.330', bin: 'claude' },
  'gemini-cli': { package: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  codex: { package: '@openai/codex', version: '0.169.0', bin: 'codex' },
} as const;

/**
 * The client's binary, installed from the npm registry into a folder outside the repository on
 * first use (the npm cache makes later installs fast). Never committed, never global.
 */
export async function installClient(name: keyof typeof CLIENTS): Promise<string> {
  const client = CLIENTS[name];
  const dir = join(tmpdir(), 'llm-gateway-real-clients', `${name}-${client.version}`);
  const bin = join(dir, 'node_modules', '.bin', client.bin);
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  await run('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', `${client.package}@${client.version}`], { timeout: 600_000 });
  return bin;
}

/** Gemini CLI settings for an API-key run with updates and telemetry off (CLIENTS.md). */
export function writeGeminiSettings(home: string): void {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
  };
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(settings));
}

/** Codex CLI config: the gateway as a Responses provider, no retries, no update check (CLIENTS.md). */
export function writeCodexConfig(home: string, gatewayUrl: string): string {
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  const toml = [
    'model_provider = "gateway"',
    'check_for_update_on_startup = false',
    '[model_providers.gateway]',
    'name = "Gateway"',
    `base_url = "${gatewayUrl}/v1"`,
    'env_key = "UPSTREAM_KEY"',
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    'stream_idle_timeout_ms = 60000',
    '[analytics]',
    'enabled = false',
    '',
  ].join('\n');
  writeFileSync(join(codexHome, 'config.toml'), toml);
  return codexHome;
}

/** A scratch working folder holding a README with a marker line, and a fresh HOME. */
export function scratch(marker: string): { cwd: string; home: string } {
  const root = mkdtempSync(join(tmpdir(), 'llm-gateway-client-'));
  const cwd = join(root, 'work');
  const home = join(root, 'home');
  mkdirSync(cwd);
  mkdirSync(home);
  writeFileSync(join(cwd, 'README.md'), `# Demo project\n\nMARKER: ${marker}\n`);
  writeFileSync(join(cwd, 'NOTES.md'), 'Nothing here.\n');
  return { cwd, home };
}

/** The clean environment CLIENTS.md prescribes, plus the client's own variables. */
export function cleanEnv(home: string, extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TERM: 'dumb', LANG: 'C.UTF-8', NO_COLOR: '1', TZ: 'UTC', ...extra };
}

/** Runs a client to completion with stdin closed; resolves with its stdout. */
export async function runClient(bin: string, args: string[], cwd: string, env: Record<string, string>): Promise<string> {
  const running = run(bin, args, { cwd, env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
  // Closed stdin, as CLIENTS.md runs them: Codex `exec` otherwise waits for more prompt on it.
  running.child.stdin?.end();
  const { stdout } = await running;
  return stdout;
}
