import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVE_V8_FLAGS, WASM_TIER_UP_ENV, tuneServeProcess } from '../src/cli/runtime-tuning.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs the probe in a fresh Node process (V8 flags are per process) and reads its verdict. */
function probe(mode: 'default' | 'tuned', ms: number): { liftoff: boolean; calls: number } {
  const out = execFileSync(
    process.execPath,
    ['--allow-natives-syntax', '--conditions=@llm/source', '--import', 'tsx/esm', 'test/helpers/wasm-tier-probe.ts', mode, String(ms)],
    { cwd: packageDir, encoding: 'utf8', timeout: 30_000 },
  );
  return JSON.parse(out) as { liftoff: boolean; calls: number };
}

describe('serve process tuning', () => {
  it('turns WebAssembly tier-up off unless the environment keeps the default tiering', () => {
    const applied: string[] = [];
    expect(tuneServeProcess({}, (flag) => applied.push(flag))).toEqual(['--no-wasm-dynamic-tiering', '--no-wasm-tier-up']);
    expect(applied).toEqual([...SERVE_V8_FLAGS]);
    applied.length = 0;
    expect(tuneServeProcess({ [WASM_TIER_UP_ENV]: '1' }, (flag) => applied.push(flag))).toEqual([]);
    expect(applied).toEqual([]);
  });

  it("keeps hot WebAssembly (undici's llhttp) on Liftoff, where V8 otherwise recompiles it with TurboFan", () => {
    // The control shows the probe can tell: without the tuning, V8 tiers the hot function up.
    expect(probe('default', 10_000).liftoff).toBe(false);
    const tuned = probe('tuned', 1_500);
    expect(tuned.liftoff).toBe(true);
    expect(tuned.calls).toBeGreaterThan(1_000_000);
  }, 40_000);
});
