#!/usr/bin/env node
// Refreshes the committed snapshot of the wire corpus (fixtures/) from the shared folder
// (`$LLM_SHARED_DIR`, else ../shared beside the repository). Files are copied unmodified, with
// their SOURCES.md attributions; review the diff and run the tests before committing it.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const shared = process.env.LLM_SHARED_DIR ?? resolve(repoRoot, '../shared');
const source = join(shared, 'fixtures');
if (!existsSync(source)) {
  console.error(`sync-fixtures: ${source} not found (set LLM_SHARED_DIR to the shared folder)`);
  process.exit(1);
}
const target = resolve(here, '../fixtures');
rmSync(target, { recursive: true, force: true });
cpSync(source, target, { recursive: true });
console.log(`sync-fixtures: ${source} -> ${target}`);
