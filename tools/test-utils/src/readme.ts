// Runs the ```ts examples of a package README, so documentation cannot rot (msgpack's
// test/readme.test.ts does the same). Examples state their results with node:assert.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The ```ts code blocks of a Markdown file, in order. */
export function readmeExamples(readmePath: string): string[] {
  const text = readFileSync(readmePath, 'utf8');
  const blocks: string[] = [];
  const fence = /```ts\n([\s\S]*?)```/g;
  for (let match = fence.exec(text); match; match = fence.exec(text)) blocks.push(match[1] ?? '');
  return blocks;
}

/**
 * Writes `code` into a scratch folder inside `packageDir` (so bare imports resolve as they would
 * for the package's tests) and imports it. Rejects with whatever the example throws.
 */
export async function runExample(code: string, packageDir: string, name: string): Promise<void> {
  const dir = join(packageDir, 'test', '.readme-examples');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.ts`);
  writeFileSync(file, code);
  try {
    await import(/* @vite-ignore */ pathToFileURL(file).href);
  } finally {
    rmSync(file, { force: true });
  }
}
