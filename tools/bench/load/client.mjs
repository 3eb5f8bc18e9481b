// The load client: autocannon against one target, the figures the reports use. As a command it
// runs once and prints them as JSON (load/workers.mjs runs several as their own processes, so the
// client is not the bottleneck of a gateway on two cores).
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { answerText, clientBody } from './payloads.mjs';

/** `connections` keep-alive connections POSTing `body` to `url` for `duration` seconds. */
export async function loadOnce({ url, headers = {}, body, connections, duration }) {
  const result = await autocannon({
    url,
    method: 'POST',
    body,
    connections,
    duration,
    timeout: 10,
    headers: { 'content-type': 'application/json', ...headers },
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** A target's client body: `size` ('2k', '50k'), streamed or not, in its client's protocol. */
export function clientBodyOf(peer, t, size, stream) {
  return JSON.stringify(clientBody(peer, t.client, { model: t.model, stream, size }));
}

/** JSON and stream: status 200, the exact answer text in the client's protocol, the upstream path the mock saw. */
export async function checkRoundTrip(peer, t, upstream) {
  const notes = [];
  for (const stream of [false, true]) {
    const res = await fetch(`http://127.0.0.1:${t.port}${t.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...t.headers },
      body: clientBodyOf(peer, t, '2k', stream),
    });
    const text = await res.text();
    const ok = res.status === 200 && answerText(t.client, text, stream) === peer.ANSWER_TEXT;
    let up = '';
    if (t.expectUpstream) up = (await (await fetch(`${upstream}/__last`)).json())?.path?.split('?')[0] ?? '';
    if (!ok || (t.expectUpstream && !up.startsWith(t.expectUpstream))) {
      throw new Error(`round trip (${stream ? 'stream' : 'json'}) failed: status ${res.status}, upstream ${up}: ${text.slice(0, 200)}`);
    }
    notes.push(`${stream ? 'stream' : 'json'} ok${up ? ` via ${up}` : ''}`);
  }
  return notes.join(', ');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // node load/client.mjs '<json of loadOnce options>': the figures and this process's CPU seconds under load.
  const before = process.cpuUsage();
  const figures = await loadOnce(JSON.parse(process.argv[2]));
  const { user, system } = process.cpuUsage(before);
  process.stdout.write(`${JSON.stringify({ ...figures, cpuSec: (user + system) / 1e6 })}\n`);
}
