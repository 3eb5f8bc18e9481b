import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeExamples, runExample } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const examples = readmeExamples(join(packageDir, 'README.md'));

describe('README examples', () => {
  it('has examples', () => {
    expect(examples.length).toBe(4);
  });
  it.each(examples.map((code, index) => [index + 1, code] as const))('example %i runs and its assertions hold', async (index, code) => {
    await runExample(code, packageDir, `bedrock-converse-${index}`);
  });
});
