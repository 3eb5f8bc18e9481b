#!/usr/bin/env node
// Runs the pinned pnpm without a global install: a fresh machine has only Node and npm.
// npx caches the package after the first call, so later calls start in well under a second.
import { spawnSync } from 'node:child_process';

const PNPM = 'pnpm@10.34.9';
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };
const result = spawnSync('npx', ['--yes', PNPM, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env,
  shell: process.platform === 'win32',
});
if (result.error) {
  console.error(`could not start ${PNPM} through npx: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
