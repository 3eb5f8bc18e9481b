#!/usr/bin/env node
// Sums the per-run summaries written by scripts/test-all.mjs into CI's closing line. Suites that
// did not run, test files that could not load and code checks (lint, format) with findings are
// listed on the lines before it, apart from failed tests, and make the exit status non-zero.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', 'reports');
const files = existsSync(dir) ? readdirSync(dir).filter((name) => /^summary-.*\.json$/.test(name)) : [];
let passed = 0;
let failed = 0;
let skipped = 0;
let notRun = 0;
const checksFailed = [];
for (const file of files.sort()) {
  const summary = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const missing = (summary.suitesNotRun?.length ?? 0) + (summary.filesNotLoaded?.length ?? 0);
  console.log(`  ${summary.label}: ${summary.passed} passed, ${summary.failed} failed${missing ? ` (${missing} suite(s) or file(s) did not run)` : ''}`);
  passed += summary.passed;
  failed += summary.failed;
  skipped += summary.skipped;
  notRun += missing;
  for (const check of summary.codeChecksFailed ?? []) checksFailed.push(`${summary.label}: ${check}`);
}
if (notRun > 0) console.log(`did not run: ${notRun} suite(s) or test file(s)`);
if (checksFailed.length > 0) console.log(`code checks with findings: ${checksFailed.join(', ')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(files.length === 0 || passed === 0 || notRun > 0 || checksFailed.length > 0 ? 1 : 0);
