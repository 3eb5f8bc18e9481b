// `serve --workers 2` against `--workers 1`: requests per second of one gateway config, the two
// started side by side and loaded in turn (rounds interleaved, order rotated).
//
//   node scripts/pnpm.mjs --filter @llm/bench run workers -- [--rig=node|wrk] [--rounds=5] [--duration=4] [--conc=N] [--out=DIR]
//     --rig=node (default): the peers' Node mock upstream and `--clients=2` autocannon processes
//       (load/client.mjs), c=128 in all; nothing pinned.
//     --rig=wrk: Debian's nginx as the upstream and wrk as the load (load/wrk-rig.mjs: installed
//       when missing), c=64 on `--threads=1`; `--pin-rig=CPUS` pins both (taskset), else nothing is.
//     --ledger=off: the same config with `ledger: false` (a diagnostic: what the shared SQLite file costs).
//
// What two cores allow: with one worker the gateway has one core to itself; with two, the
// workers share both cores with the rig. From the CPU per request measured in the same rounds
// (gateway g, rig r), the best ratio is 2·g1 / (g2 + r2). Beside it, each gateway process's main
// (JavaScript) thread's share of a core while loaded, to tell whether one worker is saturated.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../../scripts/services.mjs';
import { HERE, PEERS_SCRIPTS, REPO, arg } from './args.mjs';
import { clientBodyOf } from './client.mjs';
import { answerText, loadPeerPayloads } from './payloads.mjs';
import { machineTicks, procStat, sampler, sleep, stop, treePids, waitPort } from './proc.mjs';
import { MODEL, gatewayConfig } from './targets.mjs';
import { boundsOf, reportOf } from './workers-report.mjs';
import { runWrk, startNginx } from './wrk-rig.mjs';

const OUT = resolve(arg('out', mkdtempSync(join(tmpdir(), 'llm-workers-'))));
const RIG = arg('rig', 'node');
const DURATION = Number(arg('duration', 4));
const ROUNDS = Math.max(1, Number(arg('rounds', 5)));
const CLIENTS = Math.max(1, Number(arg('clients', 2)));
const CONC = Number(arg('conc', RIG === 'wrk' ? 64 : 128));
const THREADS = Number(arg('threads', 1));
const PIN_RIG = arg('pin-rig', undefined);
const LEDGER = arg('ledger', 'on') !== 'off';
const CLI = join(REPO, 'packages/gateway/dist/cli.js');
if (RIG !== 'node' && RIG !== 'wrk') throw new Error(`--rig: node or wrk, not ${RIG}`);
mkdirSync(OUT, { recursive: true });

const peer = await loadPeerPayloads(PEERS_SCRIPTS);
const started = [];
/** Starts a Node process logging to `<OUT>/<name>.log`. */
const run = (args, name) => {
  const log = openSync(join(OUT, `${name}.log`), 'a');
  const child = spawn(process.execPath, args, { stdio: ['ignore', log, log] });
  started.push(child);
  console.log(`started ${name} (pid ${child.pid})`);
  return child;
};
const sum = (values) => values.reduce((s, v) => s + v, 0);

/**
 * The peers' Node mock and autocannon clients, each running `CONC / CLIENTS` connections in its
 * own process: `load(port, body)` gives req/s, requests, errors and the rig's CPU seconds.
 */
async function nodeRig() {
  const port = await freePort();
  const mock = run([join(PEERS_SCRIPTS, 'mock-upstream.mjs'), `--port=${port}`], 'mock');
  await waitPort(port);
  const client = (url, body) =>
    new Promise((done, fail) => {
      const options = { url, body, connections: Math.ceil(CONC / CLIENTS), duration: DURATION };
      const child = spawn(process.execPath, [join(HERE, 'client.mjs'), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
      });
      child.on('exit', (code) => (code === 0 ? done(JSON.parse(out)) : fail(new Error(`client exited ${code}`))));
    });
  return {
    describe: `the peers' Node mock upstream and ${CLIENTS} autocannon client processes, nothing pinned`,
    upstream: `http://127.0.0.1:${port}`,
    async load(port, body) {
      const mockBefore = procStat(mock.pid).ticks;
      const loads = await Promise.all(Array.from({ length: CLIENTS }, () => client(`http://127.0.0.1:${port}/v1/chat/completions`, body)));
      const mockSec = (procStat(mock.pid).ticks - mockBefore) / 100;
      const clientSec = sum(loads.map((r) => r.cpuSec));
      return {
        rps: sum(loads.map((r) => r.rps)),
        requests: sum(loads.map((r) => r.requests)),
        errors: sum(loads.map((r) => r.errors)),
        rigSec: { mock: mockSec, clients: clientSec },
      };
    },
    stop: () => {},
  };
}

/** Debian's nginx as the upstream and wrk as the load (load/wrk-rig.mjs), pinned to `PIN_RIG` if given. */
async function wrkRig() {
  const nginx = await startNginx(OUT, JSON.stringify(peer.openaiChatResponse(MODEL['openai-chat'])), PIN_RIG);
  console.log(`started nginx (pid ${nginx.pid}) at ${nginx.url}`);
  let bodyFile;
  return {
    describe: `nginx (one process) and wrk (${THREADS} thread${THREADS > 1 ? 's' : ''}), ${PIN_RIG ? `both pinned to CPU ${PIN_RIG}, the gateway not pinned` : 'nothing pinned'}`,
    upstream: nginx.url,
    async load(port, body) {
      if (!bodyFile) writeFileSync((bodyFile = join(OUT, 'body.json')), body);
      const nginxBefore = procStat(nginx.pid).ticks;
      const load = await runWrk({
        url: `http://127.0.0.1:${port}/v1/chat/completions`,
        bodyFile,
        connections: CONC,
        threads: THREADS,
        duration: DURATION,
        cpus: PIN_RIG,
      });
      const nginxSec = (procStat(nginx.pid).ticks - nginxBefore) / 100;
      return { rps: load.rps, requests: load.requests, errors: load.errors, errorsByKind: load.errorsByKind, rigSec: { nginx: nginxSec, wrk: load.cpuSec } };
    },
    stop: () => nginx.stop(),
  };
}

/** One request through the gateway on `port`: status 200 and the fixed answer's text, or throws. */
async function checkAnswer(port, body) {
  const res = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const text = await res.text();
  if (res.status !== 200 || answerText('openai-chat', text, false) !== peer.ANSWER_TEXT) {
    throw new Error(`the gateway on port ${port} answered ${res.status}, not the fixed answer: ${text.slice(0, 300)}`);
  }
}

/** Each process of the gateway's tree (the primary and its workers, or one gateway): its own CPU ticks and its main thread's, by pid. */
const threadTicks = (pid) => {
  const [root, ...children] = treePids(pid).map((p) => ({ pid: p, ...procStat(p) }));
  const own = (key) => root[key] - sum(children.map((c) => c[key]));
  return Object.fromEntries([
    [root.pid, { ticks: own('ticks'), mainTicks: own('mainTicks'), mainSleeps: own('mainSleeps') }],
    ...children.map((c) => [c.pid, c]),
  ]);
};

const targets = [1, 2].map((workers) => ({ name: `workers-${workers}`, workers }));
const results = {
  machine: { node: process.version, rig: RIG, duration: DURATION, rounds: ROUNDS, conc: CONC, ledger: LEDGER, loadavg: [] },
  rounds: [],
};
if (RIG === 'node') results.machine.clients = CLIENTS;
else Object.assign(results.machine, { threads: THREADS, pinRig: PIN_RIG ?? null });
let rig;
try {
  rig = RIG === 'wrk' ? await wrkRig() : await nodeRig();
  results.machine.rigDescription = rig.describe;
  for (const t of targets) {
    t.port = await freePort();
    const config = gatewayConfig(OUT, t.name, 'openai-chat', rig.upstream, false, t.port, LEDGER ? {} : { ledger: false });
    t.child = run([CLI, 'serve', '--config', config, '--workers', String(t.workers)], t.name);
    await waitPort(t.port);
  }
  await sleep(1500);
  const body = clientBodyOf(peer, { client: 'openai-chat', model: 'client-gpt-4o-mini' }, '2k', false);
  for (const t of targets) await checkAnswer(t.port, body);
  for (const t of targets) await rig.load(t.port, body); // warm-up: JIT, pools, every worker
  for (let round = 0; round < ROUNDS; round++) {
    const figures = {};
    for (const t of round % 2 ? [...targets].reverse() : targets) {
      await sleep(500);
      const gateway = sampler(t.child.pid);
      const threadsBefore = threadTicks(t.child.pid);
      const machineBefore = machineTicks();
      const wallStart = performance.now();
      const load = await rig.load(t.port, body);
      const wallSec = (performance.now() - wallStart) / 1000;
      const machineAfter = machineTicks();
      const busySec = (machineAfter.busy - machineBefore.busy) / 100;
      const threadsAfter = threadTicks(t.child.pid);
      const { cpuSec, userSec, sysSec, mainSec } = gateway();
      const perReq = (sec) => (sec * 1e6) / load.requests;
      // Per process: the main thread's share of a core and the whole process's, while loaded.
      const processes = Object.keys(threadsAfter)
        .filter((pid) => threadsBefore[pid])
        .map((pid) => ({
          pid: Number(pid),
          role: Number(pid) === t.child.pid && t.workers > 1 ? 'primary' : 'worker',
          mainCore: (threadsAfter[pid].mainTicks - threadsBefore[pid].mainTicks) / 100 / wallSec,
          processCores: (threadsAfter[pid].ticks - threadsBefore[pid].ticks) / 100 / wallSec,
          mainSleeps: threadsAfter[pid].mainSleeps - threadsBefore[pid].mainSleeps,
        }));
      const workerSleeps = sum(processes.filter((p) => p.role === 'worker').map((p) => p.mainSleeps));
      figures[t.name] = {
        rps: load.rps,
        requests: load.requests,
        errors: load.errors,
        ...(load.errorsByKind && { errorsByKind: load.errorsByKind }),
        gatewayUsPerReq: perReq(cpuSec),
        gatewayUserUsPerReq: perReq(userSec),
        gatewaySysUsPerReq: perReq(sysSec),
        gatewayMainUsPerReq: perReq(mainSec),
        gatewayCores: cpuSec / wallSec,
        // Requests served per time a worker's event loop went to sleep (more: more work per turn).
        requestsPerSleep: load.requests / Math.max(1, workerSleeps),
        processes,
        rigUsPerReq: perReq(sum(Object.values(load.rigSec))),
        rigPartsUsPerReq: Object.fromEntries(Object.entries(load.rigSec).map(([part, sec]) => [part, perReq(sec)])),
        // Cores the rest of the machine (other jobs, this script) kept busy meanwhile.
        otherCores: (busySec - cpuSec - sum(Object.values(load.rigSec))) / wallSec,
        // Cores' worth of time the host did not run this machine's virtual CPUs.
        stealCores: (machineAfter.steal - machineBefore.steal) / 100 / wallSec,
      };
    }
    const one = figures['workers-1'];
    const two = figures['workers-2'];
    Object.assign(figures, boundsOf(one, two));
    results.rounds.push(figures);
    results.machine.loadavg.push(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]));
    const mains = (f) =>
      f.processes
        .filter((p) => p.role === 'worker')
        .map((p) => `${Math.round(p.mainCore * 100)}%`)
        .join('+');
    console.log(
      `round ${round + 1}: 1 worker ${one.rps.toFixed(0)} req/s (gateway ${one.gatewayUsPerReq.toFixed(0)} µs/req, main thread ${mains(one)}, rig ${one.rigUsPerReq.toFixed(0)}, others ${one.otherCores.toFixed(2)} cores), 2 workers ${two.rps.toFixed(0)} req/s (gateway ${two.gatewayUsPerReq.toFixed(0)}, main threads ${mains(two)}, rig ${two.rigUsPerReq.toFixed(0)}, others ${two.otherCores.toFixed(2)} cores): ${figures.ratio.toFixed(2)}x, ceiling ${figures.ceiling.toFixed(2)}x (from the rate ${figures.ceilingFromRate.toFixed(2)}x, main-thread bound ${figures.ceilingMain.toFixed(2)}x)`,
    );
    writeFileSync(join(OUT, 'results.json'), JSON.stringify(results, null, 2));
    const errors = one.errors + two.errors;
    if (errors > 0) throw new Error(`round ${round + 1}: ${errors} failed requests (non-2xx or socket errors); see ${OUT}`);
  }
} finally {
  for (const child of started.reverse()) await stop(child);
  await rig?.stop();
}
const lines = reportOf(results);
writeFileSync(join(OUT, 'results.md'), `${lines.join('\n')}\n`);
console.log(`\n${lines.join('\n')}\n\nresults in ${join(OUT, 'results.json')} and results.md`);
