#!/usr/bin/env node
// Sums the per-run summaries written by scripts/test-all.mjs into CI's closing line.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', 'reports');
const files = existsSync(dir) ? readdirSync(dir).filter((name) => /^summary-.*\.json$/.test(name)) : [];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of files.sort()) {
  const summary = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  console.log(`  ${summary.label}: ${summary.passed} passed, ${summary.failed} failed`);
  passed += summary.passed;
  failed += summary.failed;
  skipped += summary.skipped;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(files.length === 0 || passed === 0 ? 1 : 0);
