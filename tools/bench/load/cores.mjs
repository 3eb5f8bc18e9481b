// What two cores give two Node processes on this machine, with no gateway and no sockets: each
// process parses and serialises the bench's 2 KB Chat request in a loop for `--duration` seconds
// (JavaScript, allocation and GC, as a gateway worker does, without I/O), one process alone, then
// two at once, rounds interleaved. The ratio of the two runs' summed loops per second is the most
// `serve --workers 2` can gain over one worker here, whatever the gateway does.
//
//   node tools/bench/load/cores.mjs [--rounds=4] [--duration=3]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PEERS_SCRIPTS, arg } from './args.mjs';
import { clientBodyOf } from './client.mjs';
import { loadPeerPayloads } from './payloads.mjs';
import { machineTicks } from './proc.mjs';

const DURATION = Number(arg('duration', 3));

if (process.argv[2] === 'spin') {
  // One process: loops of JSON.parse + JSON.stringify of the body until the time is up.
  const body = process.argv[3];
  const until = performance.now() + DURATION * 1000;
  let loops = 0;
  let keep = 0;
  while (performance.now() < until) {
    for (let i = 0; i < 100; i++) keep += JSON.stringify(JSON.parse(body)).length;
    loops += 100;
  }
  process.stdout.write(`${JSON.stringify({ loops, keep })}\n`);
} else {
  const ROUNDS = Number(arg('rounds', 4));
  const peer = await loadPeerPayloads(PEERS_SCRIPTS);
  const body = clientBodyOf(peer, { client: 'openai-chat', model: 'client-gpt-4o-mini' }, '2k', false);
  const spin = () =>
    new Promise((done, fail) => {
      const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'spin', body, `--duration=${DURATION}`], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
      });
      child.on('exit', (code) => (code === 0 ? done(JSON.parse(out).loops / DURATION) : fail(new Error(`spin exited ${code}`))));
    });
  /** `n` processes at once: their summed loops per second, and the cores the whole machine kept busy meanwhile. */
  const runOf = async (n) => {
    const busy = machineTicks().busy;
    const start = performance.now();
    const rates = await Promise.all(Array.from({ length: n }, spin));
    return { rate: rates.reduce((s, r) => s + r, 0), machineCores: (machineTicks().busy - busy) / 100 / ((performance.now() - start) / 1000) };
  };
  const ratios = [];
  for (let round = 0; round < ROUNDS; round++) {
    const runs = {};
    for (const n of round % 2 ? [2, 1] : [1, 2]) runs[n] = await runOf(n);
    const { 1: one, 2: two } = runs;
    ratios.push(two.rate / one.rate);
    console.log(
      `round ${round + 1}: 1 process ${one.rate.toFixed(0)} loops/s (machine ${one.machineCores.toFixed(2)} cores busy), 2 processes ${two.rate.toFixed(0)} (machine ${two.machineCores.toFixed(2)}): ${(two.rate / one.rate).toFixed(2)}x; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`,
    );
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(`2 processes / 1: ${sorted[Math.floor((sorted.length - 1) / 2)].toFixed(2)}x (median of ${ROUNDS} rounds)`);
}
