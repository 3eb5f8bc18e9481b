// What the load run measures: the gateway (built dist, started with its CLI as users run it) on a
// few client -> upstream pairs, the yardstick Node proxies from ../shared/peers, and the peer
// gateways installed by ../shared/peers/install-peers.sh. Each target says how to start it, what
// its clients send, and which upstream path the mock must see for a round trip to count.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PEERS_SCRIPTS, REPO, arg } from './args.mjs';

/** The model each upstream protocol is asked for. */
export const MODEL = { 'openai-chat': 'gpt-4o-mini', 'openai-responses': 'gpt-4o-mini', claude: 'claude-sonnet-4-5', gemini: 'gemini-2.5-flash' };
const PATHS = { 'openai-chat': '/v1/chat/completions', 'openai-responses': '/v1/responses', claude: '/v1/messages' };
/** What the mock must see: the path, or its start (Gemini names the method after the model). */
const UPSTREAM_PATHS = { ...PATHS, gemini: `/v1beta/models/${MODEL.gemini}:` };
const GATEWAY_PORT = 9600;

/** Where the traced gateway exports its spans (load/otlp-sink.mjs, started by run.mjs when needed). */
export const OTLP_SINK_PORT = 9110;

/**
 * The gateway's config for one pair: a single route from the client's model to the upstream.
 * `extra` adds config keys (`metrics`, `tracing`): issue 20's observability variants.
 */
export function gatewayConfig(dir, name, upstreamProtocol, upstream, lean, port = GATEWAY_PORT, extra = {}) {
  const file = join(dir, `${name}.json`);
  const config = {
    listen: { host: '127.0.0.1', port },
    // Base URLs as the official SDKs write them: OpenAI's include /v1, Anthropic's and Google's do not.
    upstreams: { up: { protocol: upstreamProtocol, baseUrl: upstreamProtocol.startsWith('openai') ? `${upstream}/v1` : upstream, apiKey: 'mock' } },
    routes: [{ match: '*', upstream: 'up', model: MODEL[upstreamProtocol] }],
    // As users run it: usage ledger on, one JSON access-log line per request. "lean" turns both off.
    ledger: lean ? false : { path: join(dir, `${name}.db`) },
    log: { level: lean ? 'warn' : 'info' },
    ...extra,
  };
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/**
 * @param {{ repo: string, peersScripts: string, peersDir: string, work: string, upstream: string }} where
 */
export function targets({ repo, peersScripts, peersDir, work, upstream, mainCli, services, distinctPorts = false }) {
  const node = (args, extra = {}) => ({ cmd: process.execPath, args, ...extra });
  // One port for every gateway target (run.mjs starts one at a time), or a port each (ab.mjs runs them side by side).
  let gateways = 0;
  const gatewayPort = () => (distinctPorts ? GATEWAY_PORT + gateways++ : GATEWAY_PORT);
  const cli = join(repo, 'packages/gateway/dist/cli.js');
  const gateway = (client, up, lean = false, variant = { prefix: 'gateway', bin: cli, extra: {} }) => {
    const name = `${variant.prefix}${lean ? '-lean' : ''}-${short(client)}-${short(up)}`;
    const port = gatewayPort();
    return {
      name,
      kind: 'gateway',
      pair: `${short(client)}->${short(up)}`,
      client,
      port,
      path: PATHS[client],
      model: `client-${MODEL[client]}`,
      headers: {},
      start: () => {
        const extra = typeof variant.extra === 'function' ? variant.extra() : variant.extra;
        return node([variant.bin, 'serve', '--config', gatewayConfig(work, name, up, upstream, lean, port, extra)]);
      },
      expectUpstream: UPSTREAM_PATHS[up],
      ...(variant.requires && { requires: variant.requires }),
      ...(variant.otlpSink && { otlpSink: true }),
      ...(variant.services && { services: true }),
    };
  };
  // Issue 21: the same pairs on PostgreSQL + Redis (started by run.mjs through scripts/services.mjs,
  // their URLs in `services` once up) beside the embedded default (SQLite ledger, memory state).
  const shared = { prefix: 'gateway-shared', bin: cli, extra: () => ({ store: { postgres: services.databaseUrl, redis: services.redisUrl } }), services: true };
  // Issue 20's cost, side by side: this build with metrics off (the richer access line alone), as
  // users run it (metrics on: `gateway-chat-chat`), and with tracing on too; with `--main-cli=`,
  // main's build in the same three forms (`main-gateway-*`).
  const tracing = { tracing: { endpoint: `http://127.0.0.1:${OTLP_SINK_PORT}/v1/traces` } };
  const observed = (prefix, bin) => [
    ...(prefix === 'main-gateway' ? [gateway('openai-chat', 'openai-chat', false, { prefix, bin, extra: {}, requires: bin })] : []),
    gateway('openai-chat', 'openai-chat', false, { prefix: `${prefix}-quiet`, bin, extra: { metrics: false }, requires: bin }),
    gateway('openai-chat', 'openai-chat', false, { prefix: `${prefix}-traced`, bin, extra: tracing, otlpSink: true, requires: bin }),
  ];
  // Tracing with one request in ten recorded, and with none (`tracing.sampleRatio`), for this build
  // and main's; and this build's spans exported as OTLP JSON (`tracing.protocol`, default protobuf).
  const tracedWith = (prefix, bin, more) =>
    gateway('openai-chat', 'openai-chat', false, { prefix, bin, extra: { tracing: { ...tracing.tracing, ...more } }, otlpSink: true, requires: bin });
  const sampled = (prefix, bin) => [tracedWith(`${prefix}-sampled`, bin, { sampleRatio: 0.1 }), tracedWith(`${prefix}-unsampled`, bin, { sampleRatio: 0 })];
  const observability = [
    ...(mainCli ? [...observed('main-gateway', mainCli), ...sampled('main-gateway', mainCli)] : []),
    ...observed('gateway', cli),
    ...sampled('gateway', cli),
    tracedWith('gateway-traced-json', cli, { protocol: 'http/json' }),
  ];
  // The translated pairs of the stream speed pass (issue 18) in the build compared with, as users run it.
  const mainVariant = { prefix: 'main-gateway', bin: mainCli, extra: {}, requires: mainCli };
  const mainPairs = [
    ['openai-chat', 'openai-responses'],
    ['openai-responses', 'openai-chat'],
    ['openai-chat', 'claude'],
    ['claude', 'openai-chat'],
    ['openai-chat', 'gemini'],
  ];
  const mainTranslated = mainCli ? mainPairs.map(([client, up]) => gateway(client, up, false, mainVariant)) : [];
  const floor = (port, mode, up) => ({
    name: `yardstick-${mode}`,
    kind: 'yardstick',
    pair: `chat->${short(up)}`,
    client: 'openai-chat',
    port,
    path: PATHS['openai-chat'],
    model: MODEL['openai-chat'],
    headers: {},
    start: () => node([join(peersScripts, 'floor-proxy.mjs'), `--port=${port}`, `--upstream=${upstream}`, `--mode=${mode}`, '--client=http']),
    expectUpstream: PATHS[up],
  });
  const portkey = (provider, up) => ({
    name: `portkey-${provider}`,
    kind: 'peer',
    pair: `chat->${short(up)}`,
    client: 'openai-chat',
    port: 9300,
    path: PATHS['openai-chat'],
    model: MODEL[up],
    headers: { 'x-portkey-provider': provider, 'x-portkey-custom-host': `${upstream}/v1`, authorization: 'Bearer mock' },
    start: () => node([join(peersDir, 'portkey/node_modules/@portkey-ai/gateway/build/start-server.js'), '--port=9300'], { cwd: join(peersDir, 'portkey') }),
    expectUpstream: PATHS[up],
    requires: join(peersDir, 'portkey/node_modules/@portkey-ai/gateway'),
  });
  // Issue 22: a virtual key with rpm + tpm + a daily budget (all far above what a run reaches, so
  // every request is admitted, reserved and settled) against a config key with no limits, per
  // limits store: memory (`ledger: :memory:`, so limiterStoreOf picks memory; its reference has the
  // same ledger), the SQLite file beside the ledger file, and Redis (`store.redis`; its reference
  // has Redis too, which holds the routing and conversation state as well).
  const keyedVariants = [
    ['gateway-configkey', {}],
    ['gateway-configkey-memledger', { ledger: { path: ':memory:' } }],
    ['gateway-limited-memory', { ledger: { path: ':memory:' } }, true],
    // A virtual key without limits: what authenticating and admitting it costs before any counting.
    ['gateway-vkey-memory', { ledger: { path: ':memory:' } }, 'unlimited'],
    ['gateway-limited-sqlite', {}, true],
    ['gateway-configkey-redis', () => ({ store: { redis: services.redisUrl } }), false, true],
    ['gateway-limited-redis', () => ({ store: { redis: services.redisUrl } }), true, true],
  ];
  const keyed = keyedVariants.map(([prefix, extra, limited, usesRedis]) => {
    const name = `${prefix}-chat-chat`;
    const keysOf = () => ({
      virtualKeys: { path: join(work, `${name}.keys.db`) },
      ...(typeof extra === 'function' ? extra() : extra),
      ...(!limited && { keys: [{ name: 'bench-config', key: BENCH_CONFIG_KEY }] }),
    });
    const target = gateway('openai-chat', 'openai-chat', false, { prefix, bin: cli, extra: keysOf, ...(usesRedis && { services: true }) });
    if (!limited) {
      target.headers.authorization = `Bearer ${BENCH_CONFIG_KEY}`;
      return target;
    }
    const writeAndStart = target.start;
    target.start = () => {
      const started = writeAndStart();
      // Created once per keys file (run.mjs may start a target again): its secret is shown once.
      target.headers.authorization ??= `Bearer ${createBenchKey(cli, join(work, `${name}.json`), limited === true)}`;
      return started;
    };
    return target;
  });
  return [
    // The mock upstream itself on the target CPU: the ceiling for one Node process, and the
    // baseline that "added time to first byte" is measured against.
    {
      name: 'direct-mock',
      kind: 'direct',
      pair: 'chat (no proxy)',
      client: 'openai-chat',
      port: 9101,
      path: PATHS['openai-chat'],
      model: MODEL['openai-chat'],
      headers: {},
      start: () => node([join(peersScripts, 'mock-upstream.mjs'), '--port=9101']),
      expectUpstream: null,
    },
    floor(9201, 'json', 'openai-chat'),
    floor(9203, 'oa2an', 'claude'),
    gateway('openai-chat', 'openai-chat'),
    ...observability,
    ...mainTranslated,
    gateway('openai-chat', 'openai-chat', false, shared),
    gateway('openai-responses', 'openai-chat', false, shared),
    gateway('openai-chat', 'openai-responses'),
    gateway('openai-responses', 'openai-chat'),
    gateway('openai-chat', 'openai-responses', true),
    // What the per-request bookkeeping (usage ledger, access line) costs on the plainest pair, here and in the build compared with.
    gateway('openai-chat', 'openai-chat', true),
    ...(mainCli ? [gateway('openai-chat', 'openai-chat', true, mainVariant)] : []),
    // The pairs the peers serve, side by side with them: Chat clients of Claude (Portkey,
    // yardstick-oa2an), Claude clients of Chat (musi-llms), and a Gemini upstream.
    gateway('openai-chat', 'claude'),
    gateway('claude', 'openai-chat'),
    gateway('openai-chat', 'gemini'),
    portkey('openai', 'openai-chat'),
    portkey('anthropic', 'claude'),
    {
      name: 'musi-llms',
      kind: 'peer',
      pair: 'claude->chat',
      client: 'claude',
      port: 9400,
      path: PATHS.claude,
      model: 'mock,gpt-4o-mini',
      headers: { 'x-api-key': 'mock', 'anthropic-version': '2023-06-01' },
      start: () => node([join(peersScripts, 'start-musi-llms.mjs'), `--pkg-dir=${join(peersDir, 'musi')}`, '--port=9400', `--upstream=${upstream}`]),
      expectUpstream: PATHS['openai-chat'],
      requires: join(peersDir, 'musi/node_modules/@musistudio/llms'),
    },
    ...keyed,
  ];
}

/**
 * Every target, set up as the command line says (`--peers-dir=`, `--main-cli=`), run from this
 * repository with the peers' scripts of `--peers-scripts=`.
 */
export function commandLineTargets({ work, upstream, services, distinctPorts = false }) {
  return targets({
    repo: REPO,
    peersScripts: PEERS_SCRIPTS,
    peersDir: arg('peers-dir', '/tmp/peers'),
    work,
    upstream,
    mainCli: arg('main-cli', '') || undefined,
    services,
    distinctPorts,
  });
}

/** The config key of the keyed targets' references (issue 22). */
const BENCH_CONFIG_KEY = 'bench-config-key-0123456789abcdef';

/** Creates the virtual key `bench` through the gateway's CLI (with limits no run reaches, or none), and returns its secret. */
function createBenchKey(cli, configFile, limits) {
  const limitFlags = limits ? ['--rpm', '100000000', '--tpm', '100000000', '--budget', '1000000/day'] : [];
  const out = execFileSync(process.execPath, [cli, 'keys', 'create', '--config', configFile, '--name', 'bench', ...limitFlags, '--json'], { encoding: 'utf8' });
  return JSON.parse(out).secret;
}

function short(protocol) {
  return { 'openai-chat': 'chat', 'openai-responses': 'responses', claude: 'claude', gemini: 'gemini' }[protocol];
}
