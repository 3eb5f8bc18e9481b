import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run.js';
import { sqliteUsageRows, toUsageSeries, usageReport } from '../src/ledger/report.js';
import { writeFirstSchemaLedger } from './helpers/first-ledger-schema.js';
import { DAY_TWO, FIXTURE_DAYS_BY_MODEL, FIXTURE_LINES, line, writeFixtureLedger } from './helpers/usage-fixture.js';

const io = () => {
  const run = { stdout: [] as string[], stderr: [] as string[] };
  return { ...run, out: (text: string) => run.stdout.push(text), err: (text: string) => run.stderr.push(text), env: {}, readStdin: async () => '' };
};

describe('usage report: cost per group', () => {
  it('sums cost and unpriced requests by key, model, upstream and UTC day', () => {
    const path = writeFixtureLedger();
    for (const by of ['day', 'key', 'model', 'upstream'] as const) expect(usageReport(path, by)).toEqual(FIXTURE_LINES[by]);
    expect(usageReport(path, 'day', DAY_TWO)).toEqual([FIXTURE_LINES.day[1]]);
  });

  it('splits each group (a model per series, its days in order)', () => {
    expect(toUsageSeries(sqliteUsageRows(writeFixtureLedger(), { by: 'day', split: 'model', since: 0 }))).toEqual(FIXTURE_DAYS_BY_MODEL);
  });

  it('reports a ledger file of an older version (no cost columns yet) at no cost', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'usage-report-')), 'old.db');
    writeFirstSchemaLedger(path);
    expect(usageReport(path, 'model')).toEqual([{ ...line('-', 1, 0, 0, 0, 0, 0), avgMs: 1 }]);
  });

  it('llm-gateway usage --by day: the table, and --json the lines', async () => {
    const path = writeFixtureLedger();
    const table = io();
    expect(await runCli(['usage', '--db', path, '--by', 'day'], table)).toBe(0);
    expect(table.stdout[0]!.split('\n')).toEqual([
      'day         requests  errors  input  cached  cache_write  reasoning  output  avg_ms  cost_usd  unpriced',
      '2026-11-23         2       0   1010       0            0          0     110      10  0.003500         1',
      '2026-11-24         3       1  50200       0            0          0    6100      10  0.251500         0',
    ]);
    const json = io();
    expect(await runCli(['usage', '--db', path, '--by', 'key', '--json'], json)).toBe(0);
    expect(JSON.parse(json.stdout[0]!)).toEqual(FIXTURE_LINES.key);
  });
});
