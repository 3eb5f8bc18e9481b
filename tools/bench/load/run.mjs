// Load benchmark on loopback: the gateway side by side with the yardstick Node proxies and the peer
// gateways, in one run, against the same mock upstream. Not a test; run by hand:
//
//   bash ../shared/peers/install-peers.sh /tmp/peers        # once: peers into a temp folder
//   node scripts/pnpm.mjs --filter @llm/bench run load [-- --duration=8 --targets=a,b --out=DIR]
//
// Layout on a 2-core machine: each target is pinned to CPU 0; this process (autocannon, the
// probes) and the mock upstream share CPU 1. CPU per request is the target's utime+stime over a
// run divided by the requests completed; RSS is VmRSS over its process tree, sampled every 100 ms.
// Every process is started here and stopped here by PID.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkRoundTrip, clientBodyOf, loadOnce } from './client.mjs';
import { loadPeerPayloads } from './payloads.mjs';
import { exited, procStat, sampler, sleep, startPinned, stop, waitPort } from './proc.mjs';
import { markdown } from './report.mjs';
import { startSharedStores } from './stores.mjs';
import { OTLP_SINK_PORT, targets as allTargets } from './targets.mjs';
import { HERE, PEERS_SCRIPTS, REPO, arg } from './args.mjs';

const PEERS_DIR = arg('peers-dir', '/tmp/peers');
const OUT = arg('out', mkdtempSync(join(tmpdir(), 'llm-load-')));
const DURATION = Number(arg('duration', 8));
// Runs per scenario: the reported run is the median by CPU per request, with the others' range
// beside it (a shared machine moves one run by 10-15%).
const REPEAT = Math.max(1, Number(arg('repeat', 1)));
const CONC = Number(arg('conc', 64));
const TTFB_N = Number(arg('ttfb-requests', 200));
const OPEN_STREAMS = Number(arg('open-streams', 1000));
const ONLY = arg('targets', '');
const TARGET_CPU = '0';
const RIG_CPU = '1';
const MOCK_PORT = 9100;
const UPSTREAM = `http://127.0.0.1:${MOCK_PORT}`;

mkdirSync(OUT, { recursive: true });
// This process generates the load: keep it (all its threads) off the target's CPU.
execFileSync('taskset', ['-a', '-cp', RIG_CPU, String(process.pid)], { stdio: 'ignore' });

const cli = join(REPO, 'packages/gateway/dist/cli.js');
if (!existsSync(cli)) throw new Error(`${cli} missing: build first (the "load" script runs turbo build)`);
const peer = await loadPeerPayloads(PEERS_SCRIPTS);
const MAIN_CLI = arg('main-cli', '');
/** PostgreSQL and Redis URLs, once started (targets that need them read these at their start). */
const services = {};
const defs = allTargets({
  repo: REPO,
  peersScripts: PEERS_SCRIPTS,
  peersDir: PEERS_DIR,
  work: OUT,
  upstream: UPSTREAM,
  mainCli: MAIN_CLI || undefined,
  services,
}).filter((t) => !ONLY || ONLY.split(',').includes(t.name));

const started = new Set();
const start = (def, cpu, name) => {
  const child = startPinned(def, cpu, OUT, name);
  started.add(child);
  return child;
};
const mockStats = async () => {
  try {
    return Object.values(await (await fetch(`${UPSTREAM}/__stats`)).json()).reduce((a, b) => a + b, 0);
  } catch {
    return 0;
  }
};

const bodyOf = (t, size, stream) => clientBodyOf(peer, t, size, stream);
const roundTrip = (t) => checkRoundTrip(peer, t, UPSTREAM);

/** The run with the median CPU per request, with every run's CPU per request and peak RSS. */
function medianRun(runs) {
  const sorted = [...runs].sort((a, b) => (a.cpuUsPerReq ?? Infinity) - (b.cpuUsPerReq ?? Infinity));
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  return { ...median, cpuUsPerReqRuns: runs.map((r) => r.cpuUsPerReq), peakRssMbRuns: runs.map((r) => r.peakRssMb) };
}

function load(t, body, connections, duration) {
  return loadOnce({ url: `http://127.0.0.1:${t.port}${t.path}`, headers: t.headers, body, connections, duration });
}

/** Sequential streaming requests on one keep-alive socket: ms to response headers and to the first answer token. */
async function ttfbProbe(t, n) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const payload = bodyOf(t, '2k', true);
  const headersMs = [];
  const tokenMs = [];
  for (let i = 0; i < n; i++) {
    await new Promise((done) => {
      const t0 = process.hrtime.bigint();
      const since = () => Number(process.hrtime.bigint() - t0) / 1e6;
      let buf = '';
      let seen = false;
      const req = http.request(
        {
          host: '127.0.0.1',
          port: t.port,
          path: t.path,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...t.headers },
        },
        (res) => {
          headersMs.push(since());
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            if (seen) return;
            buf += chunk;
            if (buf.includes('token0')) {
              seen = true;
              tokenMs.push(since());
            }
          });
          res.on('end', done);
          res.on('error', done);
        },
      );
      req.setTimeout(15_000, () => req.destroy());
      req.on('error', done);
      req.end(payload);
    });
  }
  agent.destroy();
  const q = (a, p) => {
    const s = [...a].sort((x, y) => x - y);
    return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : null;
  };
  return { n: tokenMs.length, headersP50: q(headersMs, 0.5), tokenP50: q(tokenMs, 0.5), tokenP99: q(tokenMs, 0.99) };
}

/** Opens `n` streams at once against a slow upstream and measures RSS while they are all open. */
async function openStreams(t, child, n) {
  const payload = bodyOf(t, '2k', true);
  let firstBytes = 0;
  let completed = 0;
  let failed = 0;
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, procStat(child.pid).rssKb);
  }, 100);
  let allOpenRssMb = null;
  const all = Array.from(
    { length: n },
    () =>
      new Promise((done) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: t.port,
            path: t.path,
            method: 'POST',
            agent: false,
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...t.headers },
          },
          (res) => {
            let first = true;
            res.on('data', () => {
              if (!first) return;
              first = false;
              firstBytes += 1;
              if (firstBytes === n) allOpenRssMb = procStat(child.pid).rssKb / 1024;
            });
            res.on('end', () => {
              if (res.statusCode === 200) completed += 1;
              else failed += 1;
              done();
            });
            res.on('error', () => {
              failed += 1;
              done();
            });
          },
        );
        req.setTimeout(60_000, () => req.destroy());
        req.on('error', () => {
          failed += 1;
          done();
        });
        req.end(payload);
      }),
  );
  await Promise.all(all);
  clearInterval(timer);
  return { streams: n, gotFirstByte: firstBytes, completed, failed, allOpenRssMb, peakRssMb: Math.max(peak, procStat(child.pid).rssKb) / 1024 };
}

const results = { machine: { cpus: 2, node: process.version, duration: DURATION, conc: CONC, repeat: REPEAT }, targets: [], openStreams: [] };
const save = () => writeFileSync(join(OUT, 'results.json'), JSON.stringify(results, null, 2));
const available = (t) => !t.requires || existsSync(t.requires);

let mock = start({ cmd: process.execPath, args: [join(PEERS_SCRIPTS, 'mock-upstream.mjs'), `--port=${MOCK_PORT}`] }, RIG_CPU, 'mock');
// The traced targets' collector, on the rig's CPU like the mock.
const sink = defs.some((t) => t.otlpSink)
  ? start({ cmd: process.execPath, args: [join(HERE, 'otlp-sink.mjs'), `--port=${OTLP_SINK_PORT}`] }, RIG_CPU, 'otlp-sink')
  : undefined;
let stopServices;
try {
  if (defs.some((t) => t.services)) stopServices = await startSharedStores(services, RIG_CPU);
  await waitPort(MOCK_PORT);
  if (sink) await waitPort(OTLP_SINK_PORT);
  console.log(`load run: ${DURATION} s per run, c=${CONC}; logs and results in ${OUT}`);
  for (const t of defs) {
    if (!available(t)) {
      console.log(`== ${t.name}: not installed under ${PEERS_DIR} (run install-peers.sh), skipped`);
      continue;
    }
    console.log(`== ${t.name} (${t.pair})`);
    const row = { name: t.name, kind: t.kind, pair: t.pair, runs: {} };
    results.targets.push(row);
    const child = start(t.start(), TARGET_CPU, t.name);
    try {
      await waitPort(t.port);
      await sleep(300);
      row.roundTrip = await roundTrip(t);
      await sleep(1000);
      row.idleRssMb = procStat(child.pid).rssKb / 1024;
      const scenarios = [
        ['json-2k', '2k', false],
        ['json-50k', '50k', false],
        ['stream-2k', '2k', true],
      ];
      for (const [label, size, stream] of scenarios) {
        const body = bodyOf(t, size, stream);
        await load(t, body, 16, 2); // warm-up: JIT, pools
        const runs = [];
        for (let i = 0; i < REPEAT; i++) {
          await sleep(1000);
          if (exited(child)) throw new Error(`target exited before ${label}`);
          const calls = await mockStats();
          const stopSampling = sampler(child.pid);
          const r = await load(t, body, CONC, DURATION);
          const proc = stopSampling();
          const upstreamCalls = (await mockStats()) - calls;
          runs.push({ ...r, ...proc, cpuUsPerReq: r.requests ? (proc.cpuSec * 1e6) / r.requests : null, upstreamCalls });
        }
        const r = medianRun(runs);
        row.runs[label] = r;
        console.log(
          `  ${label} c${CONC}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.cpuUsPerReq?.toFixed(0)} µs CPU/req (runs: ${r.cpuUsPerReqRuns.map((v) => v?.toFixed(0)).join(' / ')}), peak RSS ${r.peakRssMb.toFixed(0)} MB, errors ${r.errors}`,
        );
      }
      await sleep(1000);
      row.ttfb = await ttfbProbe(t, TTFB_N);
      row.hwmMb = procStat(child.pid).hwmKb / 1024;
      console.log(
        `  TTFB (c1, stream): headers p50 ${row.ttfb.headersP50?.toFixed(2)} ms, first token p50 ${row.ttfb.tokenP50?.toFixed(2)} ms, p99 ${row.ttfb.tokenP99?.toFixed(2)} ms; RSS idle ${row.idleRssMb.toFixed(0)} MB, high-water ${row.hwmMb.toFixed(0)} MB`,
      );
    } catch (error) {
      row.error = String(error?.message ?? error);
      console.log(`  ERROR ${row.error}`);
    } finally {
      await stop(child);
      started.delete(child);
    }
    save();
  }

  // Open streams: the mock now paces its 50 frames 100 ms apart, so each stream stays open ~5 s.
  if (OPEN_STREAMS > 0) {
    await stop(mock);
    started.delete(mock);
    mock = start(
      { cmd: process.execPath, args: [join(PEERS_SCRIPTS, 'mock-upstream.mjs'), `--port=${MOCK_PORT}`, '--chunk-delay-ms=100'] },
      RIG_CPU,
      'mock-slow',
    );
    await waitPort(MOCK_PORT);
    for (const t of defs.filter((d) => d.kind !== 'direct' && !d.name.includes('lean') && d.name !== 'yardstick-oa2an')) {
      if (!available(t)) continue;
      const child = start(t.start(), TARGET_CPU, `${t.name}-open`);
      try {
        await waitPort(t.port);
        await sleep(1000);
        const idleRssMb = procStat(child.pid).rssKb / 1024;
        const r = await openStreams(t, child, OPEN_STREAMS);
        results.openStreams.push({ name: t.name, pair: t.pair, idleRssMb, ...r });
        console.log(
          `== ${t.name}: ${OPEN_STREAMS} open streams: RSS ${r.allOpenRssMb?.toFixed(0) ?? 'n/a'} MB with all open, peak ${r.peakRssMb.toFixed(0)} MB; ${r.gotFirstByte} got a first byte, ${r.completed} completed, ${r.failed} failed`,
        );
      } catch (error) {
        results.openStreams.push({ name: t.name, pair: t.pair, error: String(error?.message ?? error) });
        console.log(`== ${t.name}: open streams ERROR ${error?.message ?? error}`);
      } finally {
        await stop(child);
        started.delete(child);
      }
      save();
    }
  }
} finally {
  for (const child of started) await stop(child);
  stopServices?.();
}
save();
writeFileSync(join(OUT, 'results.md'), markdown(results));
console.log(`\n${markdown(results)}\nresults in ${join(OUT, 'results.json')} and results.md`);
