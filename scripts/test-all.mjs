#!/usr/bin/env node
// The whole check, as README's test command runs it: build, typecheck, package lint (publint +
// attw), then every package's tests. Ends with a plain `N passed, N failed` line summed from the
// vitest JSON reports, because turbo prints its own summary last and would hide vitest's.
//
// Options: --force (ignore turbo's cache, e.g. on a second Node version), --label <name> (shown in
// the summary line and used to name the summary file in reports/).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const force = args.includes('--force');
const labelIndex = args.indexOf('--label');
const label = labelIndex >= 0 ? args[labelIndex + 1] : `node${process.versions.node.split('.')[0]}`;

const workspaceDirs = ['packages', 'tools'].flatMap((group) => {
  const dir = join(root, group);
  return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
});
const reportFiles = (dir) =>
  existsSync(join(dir, 'reports'))
    ? readdirSync(join(dir, 'reports'))
        .filter((name) => /^vitest.*\.json$/.test(name))
        .map((name) => join(dir, 'reports', name))
    : [];
// Stale reports would be counted again; turbo restores the current ones on cache hits.
for (const path of workspaceDirs.flatMap(reportFiles)) rmSync(path, { force: true });

const turboArgs = ['turbo', 'run', 'build', 'typecheck', 'lint', 'test', '--continue', '--output-logs=new-only'];
if (force) turboArgs.push('--force');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', FORCE_COLOR: '0' };
// The local binary, so the script also works outside `pnpm run` (no .bin on PATH there).
const turboBin = join(root, 'node_modules', '.bin', 'turbo');
if (!existsSync(turboBin)) {
  console.error(`${label}: ${turboBin} is missing: run \`npm run setup\` (pnpm install) first`);
}
const turbo = spawnSync(turboBin, turboArgs.slice(1), { cwd: root, stdio: 'inherit', env });
if (turbo.error) console.error(`${label}: could not run turbo: ${turbo.error.message}`);

let passed = 0;
let failed = 0;
let skipped = 0;
let suitesFailed = 0;
const perPackage = [];
for (const path of workspaceDirs.flatMap(reportFiles)) {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  suitesFailed += report.numFailedTestSuites ?? 0;
  const where = `${dirname(dirname(path)).slice(root.length + 1)} (${path.split('/').pop()})`;
  perPackage.push(`${where}: ${report.numPassedTests ?? 0} passed, ${report.numFailedTests ?? 0} failed`);
}

const summaryDir = join(root, 'reports');
mkdirSync(summaryDir, { recursive: true });
writeFileSync(join(summaryDir, `summary-${label}.json`), JSON.stringify({ label, passed, failed, skipped, suitesFailed, turboStatus: turbo.status }));

console.log('');
for (const line of perPackage) console.log(`  ${line}`);
const problems = [];
if (turbo.status !== 0) problems.push(`turbo exited with ${turbo.status ?? turbo.signal}`);
if (suitesFailed > 0) problems.push(`${suitesFailed} test file(s) failed to run`);
if (passed + failed === 0) problems.push('no test ran');
if (problems.length > 0) console.log(`${label}: ${problems.join('; ')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(problems.length > 0 || failed > 0 ? 1 : 0);
