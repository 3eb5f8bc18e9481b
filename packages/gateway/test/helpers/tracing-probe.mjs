// Run as `node tracing-probe.mjs <off|on> <record file>`: records every module resolved (see
// resolve-recorder.mjs), then starts the built library's gateway (dist/index.js) with `tracing`
// unset (off) or pointed at a local collector (on), serves one chat request through it to a local
// upstream, stops it, and prints what happened as one JSON line.
import { createServer } from 'node:http';
import { register } from 'node:module';

const [mode, file] = process.argv.slice(2);
register('./resolve-recorder.mjs', import.meta.url, { data: { file } });

/** A server on a free loopback port; its URL. */
async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${server.address().port}`;
}

const upstreamHeaders = [];
const upstream = createServer((req, res) => {
  upstreamHeaders.push(req.headers.traceparent ?? null);
  req.resume();
  req.on('end', () => {
    const body = {
      id: 'chatcmpl-probe',
      object: 'chat.completion',
      created: 1,
      model: 'probe-model',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
});
let exports = 0;
const collector = createServer((req, res) => {
  exports++;
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
});
const upstreamUrl = await listen(upstream);
const collectorUrl = await listen(collector);

const { createLogger, parseConfig, startGateway } = await import('../../dist/index.js');
const config = parseConfig(
  JSON.stringify({
    upstreams: { probe: { protocol: 'openai-chat', baseUrl: `${upstreamUrl}/v1` } },
    routes: [{ match: '*', upstream: 'probe' }],
    ledger: false,
    metrics: false,
    ...(mode === 'on' && { tracing: { endpoint: `${collectorUrl}/v1/traces` } }),
  }),
);
const gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
const res = await fetch(`${gateway.url}/v1/chat/completions`, {
  method: 'POST',
  body: JSON.stringify({ model: 'probe-model', messages: [{ role: 'user', content: 'hi' }] }),
});
await res.text();
// Stopping flushes the spans buffered (tracing on).
await gateway.close();
upstream.close();
collector.close();
process.stdout.write(`${JSON.stringify({ status: res.status, upstreamTraceparents: upstreamHeaders.map((value) => value !== null), exports })}\n`);
