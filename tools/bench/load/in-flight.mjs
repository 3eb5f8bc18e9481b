// What one request keeps alive in the gateway while its upstream answers. The gateway (built dist,
// started by its CLI as users run it) gets N requests that an upstream holds until told; a heap
// snapshot then, minus one with nothing in flight, divided by N. Not a test; run by hand:
//
//   node scripts/pnpm.mjs --filter @llm/bench run in-flight [-- --n=50 --upstream=gemini --size=2k --keep]
//
// Snapshots come from Node's --heapsnapshot-signal (a full GC runs first: only live objects
// count). Compiled code is left out of the totals: it grows as functions get optimised, whatever
// is in flight. Connections are opened by two warm-up waves first, as under steady load.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PEERS_SCRIPTS, REPO, arg } from './args.mjs';
import { clientBody, loadPeerPayloads } from './payloads.mjs';
import { sleep, stop, waitPort } from './proc.mjs';
import { MODEL, gatewayConfig } from './targets.mjs';

const N = Number(arg('n', 50));
const UPSTREAM = arg('upstream', 'gemini');
const SIZE = arg('size', '2k');
const PORT = Number(arg('port', 9660));
const peer = await loadPeerPayloads(PEERS_SCRIPTS);

const model = MODEL[UPSTREAM];
if (!model) throw new Error(`--upstream: one of ${Object.keys(MODEL).join(', ')}`);
const answer = JSON.stringify(
  { gemini: peer.geminiResponse, claude: peer.anthropicResponse, 'openai-responses': peer.responsesResponse, 'openai-chat': peer.openaiChatResponse }[UPSTREAM](
    model,
  ),
);

// The upstream: answers at once, or holds every request until `release()`.
const held = [];
let holding = false;
const upstream = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const reply = () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    if (holding) held.push(reply);
    else reply();
  });
});
await new Promise((done) => upstream.listen(0, '127.0.0.1', done));
const upstreamUrl = `http://127.0.0.1:${upstream.address().port}`;
const release = () => held.splice(0).forEach((reply) => reply());

const work = mkdtempSync(join(tmpdir(), 'llm-in-flight-'));
// As users run it (and as the load run does): usage ledger on, an access-log line per request.
const config = gatewayConfig(work, 'gateway', UPSTREAM, upstreamUrl, false, PORT);
const gateway = spawn(process.execPath, ['--heapsnapshot-signal=SIGUSR2', join(REPO, 'packages/gateway/dist/cli.js'), 'serve', '--config', config], {
  cwd: work,
  stdio: 'ignore',
});
await waitPort(PORT);

const body = JSON.stringify(clientBody(peer, 'openai-chat', { model: 'client-model', stream: false, size: SIZE }));
const send = async () => {
  const response = await fetch(`http://127.0.0.1:${PORT}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`gateway answered ${response.status}: ${text.slice(0, 200)}`);
};
const wave = () => Promise.all(Array.from({ length: N }, send));

/** Signals the gateway for a snapshot and waits until the file stops growing. */
async function snapshot() {
  const before = new Set(readdirSync(work));
  gateway.kill('SIGUSR2');
  for (;;) {
    await sleep(200);
    const file = readdirSync(work).find((name) => name.endsWith('.heapsnapshot') && !before.has(name));
    if (!file) continue;
    const size = statSync(join(work, file)).size;
    await sleep(500);
    if (size > 0 && statSync(join(work, file)).size === size) return JSON.parse(readFileSync(join(work, file), 'utf8'));
  }
}

/** Self size by node type and by type + name; `native` is memory outside V8's heap (buffers). */
function totals(snap) {
  const meta = snap.snapshot.meta;
  const width = meta.node_fields.length;
  const typeAt = meta.node_fields.indexOf('type');
  const nameAt = meta.node_fields.indexOf('name');
  const sizeAt = meta.node_fields.indexOf('self_size');
  const types = meta.node_types[0];
  const byType = new Map();
  const byName = new Map();
  for (let at = 0; at < snap.nodes.length; at += width) {
    const type = types[snap.nodes[at + typeAt]];
    if (type === 'code') continue;
    const size = snap.nodes[at + sizeAt];
    byType.set(type, (byType.get(type) ?? 0) + size);
    const name = type === 'object' ? `${type} ${snap.strings[snap.nodes[at + nameAt]].slice(0, 40)}` : type;
    byName.set(name, (byName.get(name) ?? 0) + size);
  }
  return { byType, byName };
}

try {
  await wave();
  await wave();
  const idle = totals(await snapshot());
  holding = true;
  const requests = wave();
  while (held.length < N) await sleep(20);
  const busy = totals(await snapshot());
  holding = false;
  release();
  await requests;

  const perRequest = (a, b) => [...b].map(([key, size]) => [key, (size - (a.get(key) ?? 0)) / N / 1024]).sort((x, y) => y[1] - x[1]);
  const types = perRequest(idle.byType, busy.byType);
  const heap = types.filter(([type]) => type !== 'native').reduce((sum, [, kb]) => sum + kb, 0);
  const native = types.find(([type]) => type === 'native')?.[1] ?? 0;
  console.log(`chat client -> ${UPSTREAM} upstream, ${SIZE} request, ${N} requests held at the upstream`);
  console.log(`kept per request in flight: ${heap.toFixed(1)} KB of V8 heap (code left out), ${native.toFixed(1)} KB outside it (buffers)`);
  for (const [name, kb] of perRequest(idle.byName, busy.byName).slice(0, 15)) console.log(`  ${kb.toFixed(2).padStart(7)} KB  ${name}`);
} finally {
  await stop(gateway);
  upstream.close();
  // The snapshots are large; --keep leaves them (and the config) for a heap viewer.
  if (process.argv.includes('--keep')) console.log(`snapshots in ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
