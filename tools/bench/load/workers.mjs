// `serve --workers 2` against `--workers 1`: requests per second of one gateway config, the two
// started side by side and loaded in turn (rounds interleaved, order rotated). Nothing is pinned:
// the workers, the mock upstream and the load clients share the machine's cores, and the clients
// run as their own processes (load/client.mjs) so that one client process is not the bottleneck.
//
//   node scripts/pnpm.mjs --filter @llm/bench run workers -- [--rounds=5] [--duration=4] [--clients=2] [--conc=128] [--out=DIR]
//
// What two cores allow: with one worker the gateway has one core to itself; with two, the
// workers share both cores with the mock and the clients. From the CPU per request measured in
// the same rounds (gateway g, rig r = mock + clients), the best ratio is 2·g1 / (g2 + r2).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { clientBodyOf } from './client.mjs';
import { loadPeerPayloads } from './payloads.mjs';
import { procStat, sampler, sleep, stop, waitPort } from './proc.mjs';
import { gatewayConfig } from './targets.mjs';
import { HERE, PEERS_SCRIPTS, REPO, arg } from './args.mjs';

const OUT = resolve(arg('out', mkdtempSync(join(tmpdir(), 'llm-workers-'))));
const DURATION = Number(arg('duration', 4));
const ROUNDS = Math.max(1, Number(arg('rounds', 5)));
const CLIENTS = Math.max(1, Number(arg('clients', 2)));
const CONC = Number(arg('conc', 128));
const MOCK_PORT = 9100;
const UPSTREAM = `http://127.0.0.1:${MOCK_PORT}`;
const CLI = join(REPO, 'packages/gateway/dist/cli.js');
mkdirSync(OUT, { recursive: true });

const peer = await loadPeerPayloads(PEERS_SCRIPTS);
const started = [];
/** Starts a process logging to `<OUT>/<name>.log`. */
const run = (args, name) => {
  const log = openSync(join(OUT, `${name}.log`), 'a');
  const child = spawn(process.execPath, args, { stdio: ['ignore', log, log] });
  started.push(child);
  console.log(`started ${name} (pid ${child.pid})`);
  return child;
};
/** The load clients' figures: each runs `CONC / CLIENTS` connections in its own process. */
const clients = (target, body) =>
  Promise.all(
    Array.from(
      { length: CLIENTS },
      () =>
        new Promise((done, fail) => {
          const options = { url: `http://127.0.0.1:${target.port}/v1/chat/completions`, body, connections: Math.ceil(CONC / CLIENTS), duration: DURATION };
          const child = spawn(process.execPath, [join(HERE, 'client.mjs'), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
          let out = '';
          child.stdout.on('data', (chunk) => {
            out += chunk;
          });
          child.on('exit', (code) => (code === 0 ? done(JSON.parse(out)) : fail(new Error(`client exited ${code}`))));
        }),
    ),
  );
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

const targets = [1, 2].map((workers) => ({ name: `workers-${workers}`, workers, port: 9650 + workers }));
const results = { machine: { node: process.version, duration: DURATION, rounds: ROUNDS, clients: CLIENTS, conc: CONC, loadavg: [] }, rounds: [] };
try {
  const mock = run([join(PEERS_SCRIPTS, 'mock-upstream.mjs'), `--port=${MOCK_PORT}`], 'mock');
  await waitPort(MOCK_PORT);
  for (const t of targets) {
    const config = gatewayConfig(OUT, t.name, 'openai-chat', UPSTREAM, false, t.port);
    t.child = run([CLI, 'serve', '--config', config, '--workers', String(t.workers)], t.name);
    await waitPort(t.port);
  }
  await sleep(1500);
  const body = clientBodyOf(peer, { client: 'openai-chat', model: 'client-gpt-4o-mini' }, '2k', false);
  for (const t of targets) await clients(t, body); // warm-up: JIT, pools, every worker
  for (let round = 0; round < ROUNDS; round++) {
    const figures = {};
    for (const t of round % 2 ? [...targets].reverse() : targets) {
      await sleep(500);
      const gateway = sampler(t.child.pid);
      const mockBefore = procStat(mock.pid).ticks;
      const loads = await clients(t, body);
      const { cpuSec } = gateway();
      const requests = loads.reduce((sum, r) => sum + r.requests, 0);
      const rigSec = (procStat(mock.pid).ticks - mockBefore) / 100 + loads.reduce((sum, r) => sum + r.cpuSec, 0);
      figures[t.name] = {
        rps: loads.reduce((sum, r) => sum + r.rps, 0),
        errors: loads.reduce((sum, r) => sum + r.errors, 0),
        gatewayUsPerReq: (cpuSec * 1e6) / requests,
        rigUsPerReq: (rigSec * 1e6) / requests,
      };
    }
    const one = figures['workers-1'];
    const two = figures['workers-2'];
    figures.ratio = two.rps / one.rps;
    figures.ceiling = (2 * one.gatewayUsPerReq) / (two.gatewayUsPerReq + two.rigUsPerReq);
    results.rounds.push(figures);
    results.machine.loadavg.push(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]));
    console.log(
      `round ${round + 1}: 1 worker ${one.rps.toFixed(0)} req/s (gateway ${one.gatewayUsPerReq.toFixed(0)} µs/req, rig ${one.rigUsPerReq.toFixed(0)}), 2 workers ${two.rps.toFixed(0)} req/s (gateway ${two.gatewayUsPerReq.toFixed(0)}, rig ${two.rigUsPerReq.toFixed(0)}): ${figures.ratio.toFixed(2)}x, ceiling ${figures.ceiling.toFixed(2)}x`,
    );
    writeFileSync(join(OUT, 'results.json'), JSON.stringify(results, null, 2));
  }
} finally {
  for (const child of started.reverse()) await stop(child);
}
const pick = (key) => median(results.rounds.map((r) => r[key]));
const pickOf = (target, key) => median(results.rounds.map((r) => r[target][key]));
const lines = [
  `serve --workers 2 vs 1, ${ROUNDS} interleaved rounds of ${DURATION} s, ${CLIENTS} client processes, c=${CONC}; load average ${Math.min(...results.machine.loadavg).toFixed(1)}-${Math.max(...results.machine.loadavg).toFixed(1)}`,
  '',
  '| | req/s (median) | gateway CPU µs/req | rig CPU µs/req (mock + clients) | errors |',
  '|---|--:|--:|--:|--:|',
  ...targets.map(
    (t) =>
      `| ${t.name} | ${pickOf(t.name, 'rps').toFixed(0)} | ${pickOf(t.name, 'gatewayUsPerReq').toFixed(0)} | ${pickOf(t.name, 'rigUsPerReq').toFixed(0)} | ${results.rounds.reduce((s, r) => s + r[t.name].errors, 0)} |`,
  ),
  '',
  `2 workers / 1 worker: ${pick('ratio').toFixed(2)}x (rounds: ${results.rounds.map((r) => r.ratio.toFixed(2)).join(' / ')}); what the two cores allow with this rig: ${pick('ceiling').toFixed(2)}x (rounds: ${results.rounds.map((r) => r.ceiling.toFixed(2)).join(' / ')})`,
];
writeFileSync(join(OUT, 'results.md'), `${lines.join('\n')}\n`);
console.log(`\n${lines.join('\n')}\n\nresults in ${join(OUT, 'results.json')} and results.md`);
