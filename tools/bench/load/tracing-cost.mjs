// Tracing's own CPU per request, apart from the gateway: a tree's `createTracing` (its TypeScript
// source, through tsx) driven in a loop as the gateway's handler and transport drive it (start,
// one upstream attempt through the traced transport, end with a full access line), its spans
// batched and exported over OTLP/HTTP to load/otlp-sink.mjs (on the other CPU) as in a served
// gateway. CPU time of this process (all threads: export, GC) per request, against the same loop
// with tracing off (start, transport and end skipped), in interleaved rounds.
//
//   cd tools/bench && node --import tsx load/tracing-cost.mjs [--tree=/path/to/a/checkout] \
//     [--requests=10000] [--rounds=5] [--variants=off,traced,traced-json,sampled,unsampled,client-unsampled]
//
// `--tree` is a checkout whose packages/gateway has its node_modules (default this one); a variant
// its tree does not know (`traced-json` before `tracing.protocol`) is reported n/a.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HERE, REPO, arg } from './args.mjs';
import { sleep, stop, waitPort } from './proc.mjs';

const TREE = resolve(arg('tree', REPO));
const REQUESTS = Number(arg('requests', 10_000));
const ROUNDS = Number(arg('rounds', 5));
const VARIANTS = arg('variants', 'off,traced,traced-json,sampled,unsampled,client-unsampled').split(',');
const SINK_PORT = 9111;
const PACE_MS = 10;
const endpoint = `http://127.0.0.1:${SINK_PORT}/v1/traces`;
const CONFIGS = {
  traced: { endpoint },
  'traced-json': { endpoint, protocol: 'http/json' },
  sampled: { endpoint, sampleRatio: 0.1 },
  unsampled: { endpoint, sampleRatio: 0 },
  // A client trace with flag 00 (`traceparent` below), every new trace recorded.
  'client-unsampled': { endpoint },
};

execFileSync('taskset', ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' });
const sink = spawn('taskset', ['-c', '1', process.execPath, join(HERE, 'otlp-sink.mjs'), `--port=${SINK_PORT}`], { stdio: 'ignore' });
await waitPort(SINK_PORT);
const { createTracing } = await import(pathToFileURL(join(TREE, 'packages/gateway/src/tracing.ts')).href);

const upstreams = { up: { protocol: 'openai-chat', baseUrl: 'http://127.0.0.1:9100/v1', apiKey: 'mock' } };
/** The request headers a handler reads (a traceparent only for the client-unsampled variant). */
const headerReader = (traceparent) => ({ get: (name) => (name === 'traceparent' ? traceparent : null) });
const base = async () => ({ status: 200, headers: {}, body: '' });

/** Runs `REQUESTS` requests through one tracing (or none) and gives CPU µs per request, the flush included. */
async function round(tracing, traceparent) {
  const transport = tracing ? tracing.transport(base, upstreams) : base;
  const headers = headerReader(traceparent);
  const before = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) {
    const requestId = `req_${i.toString(16).padStart(24, '0')}`;
    const trace = tracing?.start('POST', '/v1/chat/completions', headers, requestId);
    await transport({
      url: 'http://127.0.0.1:9100/v1/chat/completions',
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer mock', 'user-agent': 'bench' },
      body: '{}',
      requestId,
    });
    if (trace)
      tracing.end(trace, {
        requestId,
        status: 200,
        protocol: 'openai-chat',
        clientModel: 'client-gpt-4o-mini',
        upstreamModel: 'gpt-4o-mini',
        upstream: 'up',
        inputTokens: 500,
        outputTokens: 100,
      });
    // Paced as a loaded gateway's requests (64 per PACE_MS: ~6,400 a second), so the batch
    // processor exports as it does there; flat out, its queue (2,048 spans) fills during an export
    // and the spans beyond are dropped, which would read as cheap.
    if (i % 64 === 63) await sleep(PACE_MS);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

const results = Object.fromEntries(VARIANTS.map((v) => [v, []]));
try {
  // One tracing per variant, made once (as a gateway makes it at start).
  const tracings = {};
  for (const v of VARIANTS) {
    if (v === 'off') continue;
    try {
      tracings[v] = await createTracing(CONFIGS[v]);
    } catch {
      tracings[v] = null;
    }
    // A tree without `tracing.protocol` ignores it: say so rather than measure protobuf twice.
    if (v === 'traced-json' && !readFileSync(join(TREE, 'packages/gateway/src/tracing.ts'), 'utf8').includes("'http/json'")) tracings[v] = null;
  }
  const run = (v) =>
    v === 'off'
      ? round(undefined)
      : tracings[v]
        ? round(tracings[v], v === 'client-unsampled' ? '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00' : null)
        : null;
  for (const v of VARIANTS) await run(v); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    const order = VARIANTS.map((_, i) => VARIANTS[(i + r) % VARIANTS.length]);
    for (const v of order) results[v].push(await run(v));
  }
  for (const t of Object.values(tracings)) await t?.shutdown();
  await sleep(200);
  console.log(`exports received: ${await (await fetch(`http://127.0.0.1:${SINK_PORT}/__stats`)).text()}`);
} finally {
  await stop(sink);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
console.log(`tree ${TREE}, ${REQUESTS} requests x ${ROUNDS} rounds; CPU µs per request (median; each round), and tracing's own (minus off, median of rounds)`);
for (const v of VARIANTS) {
  const xs = results[v].filter((x) => x !== null);
  if (!xs.length) {
    console.log(`${v.padEnd(17)} n/a`);
    continue;
  }
  const own = v === 'off' ? '' : `  own ${median(xs.map((x, i) => x - results.off[i])).toFixed(2)}`;
  console.log(`${v.padEnd(17)} ${median(xs).toFixed(2)}  (${xs.map((x) => x.toFixed(2)).join(' / ')})${own}`);
}
