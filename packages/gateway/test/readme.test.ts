import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
const examples = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
const entry = pathToFileURL(join(packageDir, 'src', 'index.ts')).href;

describe('README examples', () => {
  it('has examples', () => {
    expect(examples.length).toBe(3);
  });
  it.each(examples.map((code, index) => [index + 1, code] as const))('example %i runs and its checks hold', async (index, code) => {
    const dir = join(packageDir, 'test', '.readme-examples');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `gateway-${index}.ts`);
    writeFileSync(file, code.replaceAll("from '@llm/gateway'", `from '${entry}'`));
    try {
      await import(/* @vite-ignore */ pathToFileURL(file).href);
    } finally {
      rmSync(file, { force: true });
    }
  });
});
