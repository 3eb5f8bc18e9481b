import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openLimiter } from '../../src/limits/index.js';
import { createLogger } from '../../src/logger.js';

const run = promisify(execFile);
const now = Date.parse('2026-11-25T12:00:30Z');
const dir = mkdtempSync(join(tmpdir(), 'limits-processes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 200 admissions from three processes on one SQLite file (67 + 67 + 66), started together; the allowed count of each. */
async function burst(path: string, limits: object, reserveUsd: number): Promise<number[]> {
  const startAt = Date.now() + 1_500;
  const counts = [67, 67, 66];
  const outputs = await Promise.all(
    counts.map((count) =>
      run(process.execPath, [
        '--conditions=@llm/source',
        '--import',
        'tsx',
        'test/helpers/limits-burst.ts',
        path,
        'k',
        String(count),
        JSON.stringify(limits),
        String(reserveUsd),
        String(startAt),
        String(now),
      ]),
    ),
  );
  return outputs.map((output) => Number(output.stdout));
}

describe('limits shared by three processes through one SQLite file', () => {
  it('admits exactly rpm of 200 concurrent requests, and exactly budget / reservation reservations', async () => {
    const rpmFile = join(dir, 'rpm.sqlite');
    const allowed = await burst(rpmFile, { rpm: 50 }, 0);
    expect(allowed.reduce((a, b) => a + b, 0)).toBe(50);
    const budgetFile = join(dir, 'budget.sqlite');
    expect((await burst(budgetFile, { budget: { usd: 1, period: 'total' } }, 0.1)).reduce((a, b) => a + b, 0)).toBe(10);
    const limiter = await openLimiter({ logger: createLogger('silent'), sqlitePath: rpmFile });
    expect((await limiter.usage('k', {}, now)).requests).toBe(50);
    await limiter.close();
  }, 30_000);
});
