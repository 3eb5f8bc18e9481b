#!/usr/bin/env node
// The llm-gateway CLI from this clone, runnable from any directory with paths relative to where
// it was called (`alias llm-gateway="node /path/to/clone/scripts/llm-gateway.mjs"`). Rebuilds the
// bundled bin first, quietly, when a source is newer than it; turbo's output is shown only when
// that build fails, so stdout carries the CLI's output alone.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'packages/gateway/dist/cli.js');

/** The newest modification time of the files below `path` (node_modules and builds skipped). */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) {
    if (entry !== 'node_modules' && entry !== 'dist' && !entry.startsWith('.')) latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

function sourcesNewerThanBin() {
  if (!existsSync(bin)) return true;
  const built = statSync(bin).mtimeMs;
  const packages = join(root, 'packages');
  return readdirSync(packages).some((name) => ['src', 'package.json', 'tsup.config.ts'].some((part) => newest(join(packages, name, part)) > built));
}

if (sourcesNewerThanBin()) {
  const build = spawnSync(
    process.execPath,
    [join(root, 'scripts/pnpm.mjs'), 'exec', 'turbo', 'run', 'build', '--filter=@llm/gateway...', '--output-logs=errors-only'],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
    },
  );
  if (build.status !== 0) {
    process.stderr.write(`llm-gateway: building the gateway failed\n${build.stdout}${build.stderr}`);
    process.exit(1);
  }
  // A build turbo replays from its cache may leave the bin's time as it was: mark it current, so
  // the next call does not ask turbo again.
  const now = new Date();
  utimesSync(bin, now, now);
}

// Run as a package script (`pnpm llm-gateway ...`), the package manager moved to the repository
// root: go back to where it was called, so relative paths mean what the caller meant.
if (process.env.npm_lifecycle_event === 'llm-gateway' && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
await import(pathToFileURL(bin).href);
