// CPU profile of one load target under load: the target started with `node --cpu-prof` (pinned to
// CPU 0, the mock upstream, the OTLP sink and the load client on CPU 1, as in ab.mjs), a warm-up,
// a loaded run, then SIGTERM; the profile's self time is mapped through the bin's source map and
// summed per function and per package, as µs per request of the loaded run.
//
//   node tools/bench/load/profile.mjs --target=gateway-traced-chat-chat [--scenario=json-2k]
//     [--duration=10] [--top=40] [--main-cli=PATH] [--out=ABSOLUTE DIR]
//   node tools/bench/load/profile.mjs --target=NAME --profile=FILE.cpuprofile --requests=N   (summarise again)
//
// Self time includes the warm-up's (profiles cover the whole process); the warm-up's requests are
// counted in with the run's, so per-request figures are over both. A profiled process reads ~20 %
// above an unprofiled one: compare profiles with each other, not with ab.mjs.
import { readFileSync, readdirSync, writeFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { checkRoundTrip, clientBodyOf, loadOnce } from './client.mjs';
import { loadPeerPayloads } from './payloads.mjs';
import { sleep, startPinned, stop, waitPort } from './proc.mjs';
import { OTLP_SINK_PORT, targets as allTargets } from './targets.mjs';
import { HERE, PEERS_SCRIPTS, REPO, arg } from './args.mjs';

const OUT = resolve(arg('out', mkdtempSync(join(tmpdir(), 'llm-prof-'))));
const NAME = arg('target', 'gateway-traced-chat-chat');
const SCENARIO = arg('scenario', 'json-2k');
const DURATION = Number(arg('duration', 10));
const TOP = Number(arg('top', 40));
const CONC = 64;
const MOCK_PORT = 9100;
const UPSTREAM = `http://127.0.0.1:${MOCK_PORT}`;
const SCENARIOS = { 'json-2k': ['2k', false], 'json-50k': ['50k', false], 'stream-2k': ['2k', true] };

mkdirSync(OUT, { recursive: true });
execFileSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
const peer = await loadPeerPayloads(PEERS_SCRIPTS);
const every = allTargets({
  repo: REPO,
  peersScripts: PEERS_SCRIPTS,
  peersDir: '/tmp/peers',
  work: OUT,
  upstream: UPSTREAM,
  mainCli: arg('main-cli', '') || undefined,
  services: {},
});
const def = every.find((t) => t.name === NAME);
if (!def) throw new Error(`unknown target ${NAME}`);
const [size, stream] = SCENARIOS[SCENARIO];

const started = [];
let requests = Number(arg('requests', 0));
const given = arg('profile', '');
if (!given)
  try {
    started.push(startPinned({ cmd: process.execPath, args: [join(PEERS_SCRIPTS, 'mock-upstream.mjs'), `--port=${MOCK_PORT}`] }, '1', OUT, 'mock'));
    if (def.otlpSink)
      started.push(startPinned({ cmd: process.execPath, args: [join(HERE, 'otlp-sink.mjs'), `--port=${OTLP_SINK_PORT}`] }, '1', OUT, 'otlp-sink'));
    await waitPort(MOCK_PORT);
    const spec = def.start();
    const child = startPinned({ ...spec, args: ['--cpu-prof', `--cpu-prof-dir=${OUT}`, ...spec.args] }, '0', OUT, NAME);
    started.push(child);
    await waitPort(def.port);
    await sleep(300);
    console.log(`== ${NAME}: ${await checkRoundTrip(peer, def, UPSTREAM)}`);
    const body = clientBodyOf(peer, def, size, stream);
    const load = (duration) => loadOnce({ url: `http://127.0.0.1:${def.port}${def.path}`, headers: def.headers, body, connections: CONC, duration });
    requests += (await load(3)).requests;
    const run = await load(DURATION);
    requests += run.requests;
    console.log(`loaded: ${run.requests} requests in ${DURATION} s (${run.errors} errors)`);
    if (def.otlpSink) console.log(`otlp sink: ${await (await fetch(`http://127.0.0.1:${OTLP_SINK_PORT}/__stats`)).text()}`);
    await stop(child);
  } finally {
    for (const child of started.reverse()) await stop(child);
  }

const file = given || readdirSync(OUT).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no .cpuprofile in ${OUT}`);
const profile = JSON.parse(readFileSync(resolve(OUT, file), 'utf8'));
const maps = new Map();
/** The original source of a frame (through the bin's source map when it has one). */
const origin = ({ url, lineNumber, columnNumber, functionName }) => {
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  if (!maps.has(path)) {
    let map = null;
    try {
      if (path.endsWith('.js')) map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
    } catch {
      /* no map */
    }
    maps.set(path, map);
  }
  const entry = maps.get(path)?.findEntry(lineNumber, columnNumber);
  const source = entry?.originalSource ?? path;
  return { source, fn: `${functionName || '(anonymous)'} ${short(source)}:${(entry?.originalLine ?? lineNumber) + 1}` };
};
const short = (source) => source.replace(/^.*node_modules\//, '').replace(/^.*\/packages\//, 'packages/');
const group = (source) => {
  const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1];
  if (pkg) return pkg;
  const own = /packages\/([^/]+)\/src\/(.*)$/.exec(source);
  if (own) return own[1] === 'gateway' && own[2].startsWith('tracing') ? `gateway/${own[2]}` : `@llm/${own[1]}`;
  return source.startsWith('node:') ? 'node internals' : source || '(native / gc / idle)';
};

const dt = profile.timeDeltas;
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++) selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
const byFn = new Map();
const byGroup = new Map();
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  if (!us || node.callFrame.functionName === '(idle)') continue;
  const { source, fn } = origin(node.callFrame);
  const name = node.callFrame.url ? fn : node.callFrame.functionName;
  byFn.set(name, (byFn.get(name) ?? 0) + us);
  const g = node.callFrame.url ? group(source) : node.callFrame.functionName;
  byGroup.set(g, (byGroup.get(g) ?? 0) + us);
}
const total = [...byGroup.values()].reduce((a, b) => a + b, 0);
const lines = [
  `${NAME}, ${SCENARIO}: ${requests} requests profiled, ${(total / requests).toFixed(1)} µs busy per request`,
  '',
  '| group | µs / request | share |',
  '|---|--:|--:|',
];
for (const [g, us] of [...byGroup].sort((a, b) => b[1] - a[1]).slice(0, 25))
  lines.push(`| ${g} | ${(us / requests).toFixed(2)} | ${((100 * us) / total).toFixed(1)} % |`);
lines.push('', '| function (self) | µs / request |', '|---|--:|');
for (const [f, us] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, TOP)) lines.push(`| ${f.replaceAll('|', '\\|')} | ${(us / requests).toFixed(2)} |`);
writeFileSync(join(OUT, 'profile.md'), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
console.log(`\n${join(OUT, file)}`);
