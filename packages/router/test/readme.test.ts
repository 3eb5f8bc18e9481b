import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeExamples, runExample } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
// The examples that state their results (node:assert) run offline; the others call real
// providers (complete.test.ts runs the first one against a mock upstream instead).
const examples = readmeExamples(join(packageDir, 'README.md')).filter((code) => code.includes("from 'node:assert"));

describe('README examples', () => {
  it('has offline examples', () => {
    expect(examples.length).toBe(2);
  });
  it.each(examples.map((code, index) => [index + 1, code] as const))('example %i runs and its assertions hold', async (index, code) => {
    await runExample(code, packageDir, `router-${index}`);
  });
});
