#!/usr/bin/env node
// The whole check, as README's test command runs it: code lint and format check (biome, see
// biome.json), build, typecheck, package lint (publint + attw), then every package's tests. Ends with a plain `N passed, N failed` line summed from the
// vitest JSON reports, because turbo prints its own summary last and would hide vitest's.
//
// Every suite runs even when another fails (turbo --continue; a package with two vitest runs
// starts the second regardless). What could not be counted is reported apart from failed tests,
// on the line before the closing one: a suite (one vitest config of a package) that wrote no
// report, a test file that failed to load, and a code check (lint, format) with findings. Each
// makes the script exit non-zero.
//
// Options: --force (ignore turbo's cache, e.g. on a second Node version), --label <name> (shown in
// the summary line and used to name the summary file in reports/). LLM_TEST_CONCURRENCY sets how
// many turbo tasks run at once (default: the machine's core count, at least 1): each vitest run
// starts its own worker threads, so more processes than cores only makes tests wait on each other.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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

/**
 * The suites a package runs: one per vitest config file, whose JSON report is named after it by
 * convention (`vitest.config.ts` -> reports/vitest.json, `vitest.edge.config.ts` ->
 * reports/vitest-edge.json; see vitest.shared.ts). Packages without a `test` script run none.
 */
function expectedSuites(dir) {
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) return [];
  const scripts = JSON.parse(readFileSync(manifest, 'utf8')).scripts ?? {};
  if (typeof scripts.test !== 'string') return [];
  return readdirSync(dir)
    .map((name) => /^vitest(?:\.([\w-]+))?\.config\.[cm]?[jt]s$/.exec(name))
    .filter((match) => match !== null)
    .map((match) => join(dir, 'reports', match[1] ? `vitest-${match[1]}.json` : 'vitest.json'));
}

const suites = workspaceDirs.flatMap(expectedSuites);
// Stale reports would be counted again; turbo restores the current ones on cache hits.
for (const path of suites) rmSync(path, { force: true });

const concurrency = Math.max(1, Number(process.env.LLM_TEST_CONCURRENCY) || availableParallelism());
const turboArgs = ['run', 'build', 'typecheck', 'lint', 'test', '--continue', '--output-logs=new-only', `--concurrency=${concurrency}`];
if (force) turboArgs.push('--force');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', FORCE_COLOR: '0' };
// The local binary, so the script also works outside `pnpm run` (no .bin on PATH there).
const turboBin = join(root, 'node_modules', '.bin', 'turbo');
if (!existsSync(turboBin)) {
  console.error(`${label}: ${turboBin} is missing: run \`npm run setup\` (pnpm install) first`);
}
const codeChecks = [runCodeCheck('biome lint', ['lint', '--error-on-warnings', '.']), runCodeCheck('biome format', ['format', '.'])];

const turbo = spawnSync(turboBin, turboArgs, { cwd: root, stdio: 'inherit', env });
if (turbo.error) console.error(`${label}: could not run turbo: ${turbo.error.message}`);

let passed = 0;
let failed = 0;
let skipped = 0;
const suitesNotRun = [];
const filesNotLoaded = [];
const perSuite = [];
for (const path of suites) {
  const where = `${dirname(dirname(path)).slice(root.length + 1)} (${path.split('/').pop()})`;
  if (!existsSync(path)) {
    suitesNotRun.push(where);
    perSuite.push(`${where}: did not run (no report)`);
    continue;
  }
  const report = JSON.parse(readFileSync(path, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A file that failed with no test result of its own did not load (syntax, import, top-level throw).
  for (const file of report.testResults ?? []) {
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) filesNotLoaded.push(file.name.slice(root.length + 1));
  }
  perSuite.push(`${where}: ${report.numPassedTests ?? 0} passed, ${report.numFailedTests ?? 0} failed`);
}

for (const check of codeChecks) perSuite.push(`${check.name}: ${check.summary}`);
const failedChecks = codeChecks.filter((check) => !check.ok);

const summaryDir = join(root, 'reports');
mkdirSync(summaryDir, { recursive: true });
writeFileSync(
  join(summaryDir, `summary-${label}.json`),
  JSON.stringify({
    label,
    passed,
    failed,
    skipped,
    suitesNotRun,
    filesNotLoaded,
    codeChecksFailed: failedChecks.map((check) => check.name),
    turboStatus: turbo.status,
  }),
);

console.log('');
for (const line of perSuite) console.log(`  ${line}`);
for (const file of filesNotLoaded) console.log(`  could not load: ${file}`);
const problems = [];
if (turbo.status !== 0) problems.push(`turbo exited with ${turbo.status ?? turbo.signal}`);
if (suitesNotRun.length > 0) problems.push(`${suitesNotRun.length} suite(s) did not run`);
if (filesNotLoaded.length > 0) problems.push(`${filesNotLoaded.length} test file(s) could not load`);
if (failedChecks.length > 0) problems.push(`${failedChecks.map((check) => check.name).join(' and ')} found problems`);
if (passed + failed === 0) problems.push('no test ran');
if (problems.length > 0) console.log(`${label}: ${problems.join('; ')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(problems.length > 0 || failed > 0 ? 1 : 0);

/**
 * Runs biome over the repository (its files, rules and ignores are in biome.json). The findings
 * are printed when a check fails; the summary line keeps biome's own count
 * ("Found 3 errors.").
 */
function runCodeCheck(name, biomeArgs) {
  const biomeBin = join(root, 'node_modules', '.bin', 'biome');
  const run = spawnSync(biomeBin, [...biomeArgs, '--max-diagnostics=50', '--colors=off'], { cwd: root, encoding: 'utf8', env });
  if (run.error) return { name, ok: false, summary: `could not run biome: ${run.error.message}` };
  const output = `${run.stdout}${run.stderr}`;
  if (run.status === 0) return { name, ok: true, summary: 'no findings' };
  process.stdout.write(output);
  const counts = [...output.matchAll(/^Found (\d+ (?:errors?|warnings?|infos?))\.$/gm)].map((match) => match[1]);
  return { name, ok: false, summary: counts.length > 0 ? counts.join(', ') : `biome exited with ${run.status ?? run.signal}` };
}
