// The report of a workers run (load/workers.mjs): each round's ratios and bounds, and the
// markdown summary of a results.json. As a command it writes DIR/results.md again from
// DIR/results.json (a run recorded before a figure was added gets it from the same rounds):
//
//   node tools/bench/load/workers-report.mjs DIR
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TARGETS = ['workers-1', 'workers-2'];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const sum = (values) => values.reduce((s, v) => s + v, 0);

/** One round's figures for `--workers 1` (`one`) and 2 (`two`): the ratios and what two cores allow. */
export function boundsOf(one, two) {
  return {
    ratio: two.rps / one.rps,
    cpuRatio: two.gatewayUsPerReq / one.gatewayUsPerReq,
    // One worker uses one core: at best 2·g1 / (g2 + r2).
    ceiling: (2 * one.gatewayUsPerReq) / (two.gatewayUsPerReq + two.rigUsPerReq),
    // The same bound from the one worker's measured rate instead of "one worker uses one core":
    // a worker whose main thread is the bottleneck gets more than 1e6 / g1 requests per second
    // when its other threads (GC, libuv) and the rig run on the second core.
    ceilingFromRate: 2e6 / (two.gatewayUsPerReq + two.rigUsPerReq) / one.rps,
    // And from CPU accounting alone, which other jobs on the machine disturb far less than rates:
    // one worker bound by its main thread serves 1e6 / m1 per second (m1: its main thread's µs
    // per request), two on two cores at most 2e6 / (g2 + r2).
    ceilingMain: (2 * one.gatewayMainUsPerReq) / (two.gatewayUsPerReq + two.rigUsPerReq),
  };
}

/** The markdown lines of a run's results (`results.json`). */
export function reportOf(results) {
  const { machine } = results;
  const rounds = results.rounds.map((r) => ({ ...r, ...boundsOf(r['workers-1'], r['workers-2']) }));
  const pick = (key) => median(rounds.map((r) => r[key]));
  const pickOf = (target, key) => median(rounds.map((r) => r[target][key]));
  const fixed = (value, digits) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits));
  const rigParts = Object.keys(rounds[0]['workers-1'].rigPartsUsPerReq);
  const partsOf = (target) => rigParts.map((part) => median(rounds.map((r) => r[target].rigPartsUsPerReq[part])).toFixed(0)).join(' + ');
  /** Median over rounds of the workers' main threads' share of a core (each worker's, highest first) and the primary's whole process. */
  const processesOf = (target) => {
    const workers = rounds.map((r) =>
      r[target].processes
        .filter((p) => p.role === 'worker')
        .map((p) => p.mainCore)
        .sort((a, b) => b - a),
    );
    const mains = workers[0].map((_, i) => `${(median(workers.map((w) => w[i] ?? 0)) * 100).toFixed(0)} %`).join(' / ');
    const primary = rounds.map((r) => r[target].processes.find((p) => p.role === 'primary')?.processCores).filter((v) => v !== undefined);
    return primary.length ? `${mains} (primary ${(median(primary) * 100).toFixed(0)} %)` : mains;
  };
  const us = (target, key) => pickOf(target, key).toFixed(0);
  const list = (key) => rounds.map((r) => r[key].toFixed(2)).join(' / ');
  const rig = machine.rigDescription ?? `${machine.rig} rig`;
  const lines = [
    `serve --workers 2 vs 1, ${rounds.length} interleaved rounds of ${machine.duration} s, rig: ${rig}, c=${machine.conc}, ledger ${machine.ledger === false ? 'off' : 'on (SQLite file)'}; load average ${Math.min(...machine.loadavg).toFixed(1)}-${Math.max(...machine.loadavg).toFixed(1)}`,
    '',
    `| | req/s (median) | gateway CPU µs/req (user + sys) | of it main threads | gateway cores busy | main thread of each worker, share of a core | requests per event-loop sleep | rig CPU µs/req (${rigParts.join(' + ')}) | other processes, cores busy | host steal, cores | errors |`,
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...TARGETS.map(
      (t) =>
        `| ${t} | ${us(t, 'rps')} | ${us(t, 'gatewayUsPerReq')} (${us(t, 'gatewayUserUsPerReq')} + ${us(t, 'gatewaySysUsPerReq')}) | ${us(t, 'gatewayMainUsPerReq')} | ${pickOf(t, 'gatewayCores').toFixed(2)} | ${processesOf(t)} | ${fixed(pickOf(t, 'requestsPerSleep'), 1)} | ${us(t, 'rigUsPerReq')} (${partsOf(t)}) | ${pickOf(t, 'otherCores').toFixed(2)} | ${fixed(pickOf(t, 'stealCores'), 2)} | ${sum(rounds.map((r) => r[t].errors))} |`,
    ),
    '',
    `Gateway CPU per request, 2 workers / 1 worker: ${pick('cpuRatio').toFixed(2)}x (rounds: ${list('cpuRatio')})`,
    '',
    `2 workers / 1 worker: ${pick('ratio').toFixed(2)}x (rounds: ${list('ratio')}); what the two cores allow with this rig, 2·g1 / (g2 + r2): ${pick('ceiling').toFixed(2)}x (rounds: ${list('ceiling')}); from the one worker's rate, 2 cores / (g2 + r2) / rps1: ${pick('ceilingFromRate').toFixed(2)}x (rounds: ${list('ceilingFromRate')}); bound by one worker's main thread, 2·m1 / (g2 + r2): ${pick('ceilingMain').toFixed(2)}x (rounds: ${list('ceilingMain')})`,
  ];
  // On a machine other jobs share: the rounds in which they kept less than a quarter of a core busy during both runs.
  const quiet = rounds.filter((r) => TARGETS.every((t) => r[t].otherCores < 0.25));
  const quietMedian = (key) => median(quiet.map((r) => r[key])).toFixed(2);
  lines.push(
    '',
    quiet.length
      ? `Rounds in which other processes kept under 0.25 cores busy during both runs: ${quiet.length} of ${rounds.length}, ratio ${quietMedian('ratio')}x (${quiet.map((r) => r.ratio.toFixed(2)).join(' / ')}), ceiling ${quietMedian('ceiling')}x, from the rate ${quietMedian('ceilingFromRate')}x, main-thread bound ${quietMedian('ceilingMain')}x`
      : 'No round in which other processes kept under 0.25 cores busy during both runs.',
  );
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  const lines = reportOf(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
  writeFileSync(join(dir, 'results.md'), `${lines.join('\n')}\n`);
  console.log(lines.join('\n'));
}
