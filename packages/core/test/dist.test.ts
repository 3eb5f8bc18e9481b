// Imports the built package the way users will (h3's test/dist.test.ts: a source-only test suite
// once shipped a broken bundle). Turbo builds the package before its tests.
import { describe, expect, it } from 'vitest';

describe('dist', () => {
  it('exports exactly what src/index.ts exports', async () => {
    const dist = await import('../dist/index.js');
    const source = await import('../src/index.js');
    expect(Object.keys(dist).sort()).toEqual(Object.keys(source).sort());
    expect(Object.keys(dist)).toContain('LlmStreamAccumulator');
  });

  it('exports exactly what src/kit/index.ts exports from the ./kit subpath', async () => {
    const dist = await import('../dist/kit/index.js');
    const source = await import('../src/kit/index.js');
    expect(Object.keys(dist).sort()).toEqual(Object.keys(source).sort());
    expect(Object.keys(dist)).toContain('wireReader');
  });

  it('runs: an LlmError from dist is recognised by the marker', async () => {
    const dist = await import('../dist/index.js');
    const error = new dist.LlmError({ kind: 'rate_limit', message: 'x' });
    expect(dist.LlmError.isInstance(error)).toBe(true);
    expect(error.status).toBe(429);
  });
});
