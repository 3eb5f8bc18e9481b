// Interleaved A/B load run: every target named runs at once (each on its own port, all pinned to
// the target CPU, idle while another is loaded), and each round loads every target in turn, the
// order rotated per round. CPU per request of each target is then compared with the first
// target's in the same round, so a machine whose load drifts (other jobs) moves both sides alike.
//
//   node scripts/pnpm.mjs --filter @llm/bench run ab -- --targets=gateway-chat-chat,gateway-shared-chat-chat \
//     [--scenarios=json-2k,stream-2k] [--rounds=5] [--duration=3] [--main-cli=PATH] [--out=ABSOLUTE DIR]
//     [--pairs=REF:OTHER,...]   (also the median of OTHER's per-round ratios to REF, for targets
//                                whose fair reference is not the first one)
//
// Reported per target and scenario: the median of its rounds' CPU µs per request, the median of
// its per-round ratios to the first target, and every round's figures (results.json / results.md).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { checkRoundTrip, clientBodyOf, loadOnce } from './client.mjs';
import { loadPeerPayloads } from './payloads.mjs';
import { exited, sampler, sleep, startPinned, stop, waitPort } from './proc.mjs';
import { startSharedStores } from './stores.mjs';
import { OTLP_SINK_PORT, commandLineTargets } from './targets.mjs';
import { HERE, PEERS_SCRIPTS, arg } from './args.mjs';

const OUT = resolve(arg('out', mkdtempSync(join(tmpdir(), 'llm-ab-'))));
const DURATION = Number(arg('duration', 3));
const ROUNDS = Math.max(1, Number(arg('rounds', 5)));
const CONC = Number(arg('conc', 64));
const NAMES = arg('targets', '').split(',').filter(Boolean);
const SCENARIOS = { 'json-2k': ['2k', false], 'json-50k': ['50k', false], 'stream-2k': ['2k', true] };
const WANTED = arg('scenarios', 'json-2k,stream-2k').split(',');
const TARGET_CPU = '0';
const RIG_CPU = '1';
const MOCK_PORT = 9100;
const UPSTREAM = `http://127.0.0.1:${MOCK_PORT}`;
if (NAMES.length < 2) throw new Error('--targets=a,b[,c...]: at least two, the first is the reference');
const PAIRS = arg('pairs', '')
  .split(',')
  .filter(Boolean)
  .map((pair) => pair.split(':'));
for (const pair of PAIRS)
  if (pair.length !== 2 || !pair.every((name) => NAMES.includes(name))) throw new Error(`--pairs: expected REF:OTHER of named targets, got ${pair.join(':')}`);

mkdirSync(OUT, { recursive: true });
execFileSync('taskset', ['-a', '-cp', RIG_CPU, String(process.pid)], { stdio: 'ignore' });
const peer = await loadPeerPayloads(PEERS_SCRIPTS);
const services = {};
const every = commandLineTargets({ work: OUT, upstream: UPSTREAM, services, distinctPorts: true });
const defs = NAMES.map((name) => {
  const found = every.find((t) => t.name === name);
  if (!found) throw new Error(`unknown target ${name} (known: ${every.map((t) => t.name).join(', ')})`);
  return found;
});

const started = [];
const start = (def, cpu, name) => {
  const child = startPinned(def, cpu, OUT, name);
  started.push(child);
  return child;
};
const median = (values) => {
  const sorted = values.filter((v) => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : null;
};

const results = { machine: { cpus: 2, node: process.version, duration: DURATION, rounds: ROUNDS, conc: CONC, loadavg: [] }, scenarios: {} };
let stopServices;
try {
  if (defs.some((t) => t.services)) stopServices = await startSharedStores(services, RIG_CPU);
  start({ cmd: process.execPath, args: [join(PEERS_SCRIPTS, 'mock-upstream.mjs'), `--port=${MOCK_PORT}`] }, RIG_CPU, 'mock');
  if (defs.some((t) => t.otlpSink)) start({ cmd: process.execPath, args: [join(HERE, 'otlp-sink.mjs'), `--port=${OTLP_SINK_PORT}`] }, RIG_CPU, 'otlp-sink');
  await waitPort(MOCK_PORT);
  const children = new Map();
  for (const t of defs) {
    const child = start(t.start(), TARGET_CPU, t.name);
    children.set(t.name, child);
    await waitPort(t.port);
    await sleep(300);
    console.log(`== ${t.name} on :${t.port}: ${await checkRoundTrip(peer, t, UPSTREAM)}`);
  }
  for (const label of WANTED) {
    const [size, stream] = SCENARIOS[label];
    const bodies = new Map(defs.map((t) => [t.name, clientBodyOf(peer, t, size, stream)]));
    const load = (t, connections, duration) =>
      loadOnce({ url: `http://127.0.0.1:${t.port}${t.path}`, headers: t.headers, body: bodies.get(t.name), connections, duration });
    // Warm-up, a round's worth each: the first loaded round read 1.5-3x the later ones with less.
    for (const t of defs) await load(t, CONC, DURATION);
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = defs.map((_, i) => defs[(i + round) % defs.length]);
      const figures = {};
      for (const t of order) {
        const child = children.get(t.name);
        if (exited(child)) throw new Error(`${t.name} exited`);
        await sleep(500);
        const stopSampling = sampler(child.pid);
        const r = await load(t, CONC, DURATION);
        const { cpuSec, mainSec } = stopSampling();
        const perReq = (sec) => (r.requests ? (sec * 1e6) / r.requests : null);
        figures[t.name] = { rps: r.rps, errors: r.errors, cpuUsPerReq: perReq(cpuSec), mainUsPerReq: perReq(mainSec) };
      }
      rounds.push(figures);
      results.machine.loadavg.push(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]));
      console.log(`  ${label} round ${round + 1}: ${defs.map((t) => `${t.name} ${figures[t.name].cpuUsPerReq?.toFixed(0)} µs`).join(', ')}`);
    }
    const reference = defs[0].name;
    results.scenarios[label] = defs.map((t) => ({
      name: t.name,
      cpuUsPerReq: median(rounds.map((r) => r[t.name].cpuUsPerReq)),
      ratioToFirst: median(rounds.map((r) => r[t.name].cpuUsPerReq / r[reference].cpuUsPerReq)),
      cpuUsPerReqRounds: rounds.map((r) => r[t.name].cpuUsPerReq),
      // The JavaScript thread's share: the rest is V8's helper threads (GC, compiling) and libuv's pool.
      mainUsPerReq: median(rounds.map((r) => r[t.name].mainUsPerReq)),
      mainRatioToFirst: median(rounds.map((r) => r[t.name].mainUsPerReq / r[reference].mainUsPerReq)),
      rpsRounds: rounds.map((r) => r[t.name].rps),
      // Cores the target kept busy (CPU per request x requests a second): per-request CPU compares
      // fairly only between saturated targets (~1.0); one the rig or other jobs starve handles
      // fewer requests per event-loop turn and pays more for each.
      busy: median(rounds.map((r) => (r[t.name].cpuUsPerReq * r[t.name].rps) / 1e6)),
      errors: rounds.reduce((sum, r) => sum + r[t.name].errors, 0),
    }));
    results.pairs ??= {};
    results.pairs[label] = PAIRS.map(([ref, other]) => {
      const ratios = rounds.map((r) => r[other].cpuUsPerReq / r[ref].cpuUsPerReq);
      return { reference: ref, target: other, ratio: median(ratios), ratioRounds: ratios };
    });
    writeFileSync(join(OUT, 'results.json'), JSON.stringify(results, null, 2));
  }
} finally {
  for (const child of started.reverse()) await stop(child);
  stopServices?.();
}

const fmt = (v, d = 0) => (v === null || v === undefined || !Number.isFinite(v) ? 'n/a' : v.toFixed(d));
const lines = [
  `Interleaved A/B, ${ROUNDS} rounds of ${DURATION} s at c=${CONC}, load average during the rounds ${fmt(Math.min(...results.machine.loadavg), 1)}-${fmt(Math.max(...results.machine.loadavg), 1)}`,
  '',
  `| scenario | target | CPU µs/req (median) | × ${defs[0].name} (median of rounds) | main thread µs/req | main thread × ${defs[0].name} | cores busy (median) | CPU µs/req, each round | errors |`,
  '|---|---|--:|--:|--:|--:|--:|---|--:|',
];
for (const [label, rows] of Object.entries(results.scenarios))
  for (const row of rows)
    lines.push(
      `| ${label} | ${row.name} | ${fmt(row.cpuUsPerReq)} | ${fmt(row.ratioToFirst, 3)} | ${fmt(row.mainUsPerReq)} | ${fmt(row.mainRatioToFirst, 3)} | ${fmt(row.busy, 2)} | ${row.cpuUsPerReqRounds.map((v) => fmt(v)).join(' / ')} | ${row.errors} |`,
    );
if (PAIRS.length > 0) {
  lines.push('', '| scenario | target | × reference (median of rounds) | reference | each round |', '|---|---|--:|---|---|');
  for (const [label, pairs] of Object.entries(results.pairs ?? {}))
    for (const pair of pairs)
      lines.push(`| ${label} | ${pair.target} | ${fmt(pair.ratio, 3)} | ${pair.reference} | ${pair.ratioRounds.map((v) => fmt(v, 3)).join(' / ')} |`);
}
writeFileSync(join(OUT, 'results.json'), JSON.stringify(results, null, 2));
writeFileSync(join(OUT, 'results.md'), `${lines.join('\n')}\n`);
console.log(`\n${lines.join('\n')}\n\nresults in ${join(OUT, 'results.json')} and results.md`);
