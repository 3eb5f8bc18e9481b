// Issue 22's limits, measured on their own: CPU per request of one admission and its settlement
// (`openLimiter` from the gateway's build: rpm + tpm + a USD budget with a reservation, the work
// a keyed request with every limit on adds), in memory, on an SQLite file and on a real Redis.
// Not a load run: the limiter is not yet called on the gateway's request path, so this is the
// cost it will add there, to read beside the gateway's CPU per request from load/ab.mjs.
//
//   node scripts/pnpm.mjs --filter @llm/bench run limiter-built -- [--n=20000] [--conc=64] [--keys=100] [--out=DIR]
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO, arg } from './args.mjs';
import { startSharedStores } from './stores.mjs';

const N = Number(arg('n', 20_000));
const CONC = Number(arg('conc', 64));
const KEYS = Number(arg('keys', 100));
const OUT = resolve(arg('out', mkdtempSync(join(tmpdir(), 'llm-limiter-'))));
mkdirSync(OUT, { recursive: true });
const gateway = await import(pathToFileURL(join(REPO, 'packages/gateway/dist/index.js')).href);
const logger = gateway.createLogger('warn');
const LIMITS = { rpm: 1e9, tpm: 1e12, budget: { usd: 1e9, period: 'month' } };

/** N requests, CONC at a time: admit, then settle with 1,500 tokens; CPU µs and wall µs per request. */
async function measure(limiter) {
  const one = async (i) => {
    const admission = await limiter.admit(`key-${i % KEYS}`, LIMITS, { reserveUsd: 0.01 });
    if (!admission.allowed) throw new Error(`refused: ${admission.message}`);
    await limiter.settle(admission.ticket, { tokens: 1500, costUsd: 0.004 });
  };
  for (let i = 0; i < 2000; i += CONC) await Promise.all(Array.from({ length: CONC }, (_, j) => one(i + j))); // warm-up
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let i = 0; i < N; i += CONC) await Promise.all(Array.from({ length: CONC }, (_, j) => one(i + j)));
  const used = process.cpuUsage(cpu);
  return { cpuUsPerReq: (used.user + used.system) / N, wallUsPerReq: ((performance.now() - wall) * 1000) / N };
}

const services = {};
const stopServices = await startSharedStores(services, '1');
const results = { n: N, conc: CONC, keys: KEYS, node: process.version, loadavg: [], stores: {} };
try {
  for (const [name, options] of [
    ['memory', {}],
    ['sqlite', { sqlitePath: join(OUT, 'limits.db') }],
    ['redis', { redis: services.redisUrl }],
  ]) {
    const limiter = await gateway.openLimiter({ logger, ...options });
    try {
      results.stores[name] = await measure(limiter);
    } finally {
      await limiter.close();
    }
    results.loadavg.push(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]));
    console.log(`${name}: ${results.stores[name].cpuUsPerReq.toFixed(1)} µs CPU, ${results.stores[name].wallUsPerReq.toFixed(1)} µs wall per request`);
  }
} finally {
  stopServices();
}
writeFileSync(join(OUT, 'results.json'), JSON.stringify(results, null, 2));
console.log(`results in ${join(OUT, 'results.json')}`);
