// Where a target's CPU goes under load: one target (by name, from targets.mjs) started with
// `node --cpu-prof`, pinned to the target CPU as in the load run, warmed up, loaded at c=64 for
// `--duration` seconds with one scenario, then stopped. The process's CPU per request over the
// loaded run (utime + stime, as the load run counts it) is split by the profile's self samples
// from the warm-up's second second on (startup's compiling left out): µs per request per function.
//
//   node scripts/pnpm.mjs --filter @llm/bench run profile -- --target=gateway-chat-claude \
//     [--scenario=stream-2k] [--duration=8] [--top=40] [--interval=100 (µs)] [--out=ABSOLUTE DIR] [--main-cli=PATH (for main-gateway-*)]
//
// Writes `<target>.cpuprofile` (open it in Chrome's DevTools) and `<target>.top.txt` in `--out`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HERE, PEERS_SCRIPTS, arg } from './args.mjs';
import { checkRoundTrip, clientBodyOf, loadOnce } from './client.mjs';
import { loadPeerPayloads } from './payloads.mjs';
import { sampler, sleep, startPinned, stop, waitPort } from './proc.mjs';
import { OTLP_SINK_PORT, commandLineTargets } from './targets.mjs';
import { selfTimeByFunction } from './profile-summary.mjs';

const OUT = resolve(arg('out', mkdtempSync(join(tmpdir(), 'llm-profile-'))));
const NAME = arg('target', 'gateway-chat-chat');
const SCENARIO = arg('scenario', 'stream-2k');
const DURATION = Number(arg('duration', 8));
const TOP = Number(arg('top', 40));
/** Sampling interval, µs: at the default 1 ms a 50-delta stream is a sample or two; finer costs more CPU (the figures stay shares). */
const INTERVAL = Number(arg('interval', 100));
const SCENARIOS = { 'json-2k': ['2k', false], 'json-50k': ['50k', false], 'stream-2k': ['2k', true] };
const MOCK_PORT = 9100;
const UPSTREAM = `http://127.0.0.1:${MOCK_PORT}`;

mkdirSync(OUT, { recursive: true });
execFileSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
const peer = await loadPeerPayloads(PEERS_SCRIPTS);
const every = commandLineTargets({ work: OUT, upstream: UPSTREAM, services: {} });
const target = every.find((t) => t.name === NAME);
if (!target) throw new Error(`unknown target ${NAME} (known: ${every.map((t) => t.name).join(', ')})`);
const [size, stream] = SCENARIOS[SCENARIO];

const profileDir = join(OUT, `${NAME}.prof`);
const started = [];
let loaded;
try {
  started.push(startPinned({ cmd: process.execPath, args: [join(PEERS_SCRIPTS, 'mock-upstream.mjs'), `--port=${MOCK_PORT}`] }, '1', OUT, 'mock'));
  // A traced target exports its spans to a stand-in collector, as in the load run.
  if (target.otlpSink)
    started.push(startPinned({ cmd: process.execPath, args: [join(HERE, 'otlp-sink.mjs'), `--port=${OTLP_SINK_PORT}`] }, '1', OUT, 'otlp-sink'));
  await waitPort(MOCK_PORT);
  if (target.otlpSink) await waitPort(OTLP_SINK_PORT);
  const def = target.start();
  const profiled = { ...def, args: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-interval=${INTERVAL}`, ...def.args] };
  const child = startPinned(profiled, '0', OUT, NAME);
  const spawnedAt = Date.now();
  started.push(child);
  await waitPort(target.port);
  console.log(`== ${NAME}: ${await checkRoundTrip(peer, target, UPSTREAM)}`);
  const body = clientBodyOf(peer, target, size, stream);
  const load = (duration) => loadOnce({ url: `http://127.0.0.1:${target.port}${target.path}`, headers: target.headers, body, connections: 64, duration });
  const skipMs = Date.now() - spawnedAt + 1000;
  await load(3);
  const stopSampling = sampler(child.pid);
  loaded = await load(DURATION);
  loaded.cpuUsPerReq = (stopSampling().cpuSec * 1e6) / loaded.requests;
  loaded.skipMs = skipMs;
  await sleep(300);
} finally {
  for (const child of started.reverse()) await stop(child);
}

const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no profile written in ${profileDir}`);
const profilePath = join(OUT, `${NAME}.cpuprofile`);
renameSync(join(profileDir, file), profilePath);
const rows = selfTimeByFunction(JSON.parse(readFileSync(profilePath, 'utf8')), loaded.skipMs);
const lines = [
  `${NAME}, ${SCENARIO}: ${loaded.requests} requests in ${DURATION} s (${loaded.errors} errors), ${loaded.cpuUsPerReq.toFixed(1)} µs CPU per request`,
  `(self time per function: its share of the busy samples x the CPU per request; ${rows.samples} busy samples)`,
  ...rows.top.slice(0, TOP).map((r) => `${(r.share * loaded.cpuUsPerReq).toFixed(2).padStart(8)} µs  ${(r.share * 100).toFixed(1).padStart(5)} %  ${r.name}`),
];
writeFileSync(join(OUT, `${NAME}.top.txt`), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
console.log(`\n${profilePath}`);
