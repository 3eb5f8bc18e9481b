// Runs every suite in src/suites/ (or those named on the command line) and prints one table.
// Usage: pnpm --filter @llm/bench bench [suite-name ...]
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, printTable, type BenchCase, type BenchResult } from './harness.js';

const suitesDir = join(dirname(fileURLToPath(import.meta.url)), 'suites');
const wanted = process.argv.slice(2);
const results: BenchResult[] = [];
for (const file of readdirSync(suitesDir)
  .filter((name) => name.endsWith('.ts'))
  .sort()) {
  const name = file.replace(/\.ts$/, '');
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const suite = (await import(join(suitesDir, file))) as { cases(): BenchCase[] | Promise<BenchCase[]> };
  for (const benchCase of await suite.cases()) {
    const result = measure(benchCase);
    results.push(result);
    console.error(`${result.name}: ${result.ratio.toFixed(2)}x`);
  }
}
printTable(results);
