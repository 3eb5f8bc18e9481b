import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUndiciTransport, type PooledTransport } from '../src/transport.js';
import { type ForwardProxy, startForwardProxy } from './helpers/forward-proxy.js';
import { startListening } from './helpers/listening-process.js';
import { makeTestCertificates, type TestCertificates } from './helpers/test-certificates.js';
import { startTlsUpstream, type TlsUpstream } from './helpers/tls-upstream.js';

// Upstream calls through a real forward proxy on loopback (test/helpers/forward-proxy.ts), which
// records each tunnel. An https upstream rides the same CONNECT tunnel with TLS on top, to a real
// TLS server whose certificate a private CA made with openssl signed (last describe). MEDIA_NAME
// is a host only the proxy can resolve, as behind a corporate proxy.
const MEDIA_NAME = 'media.example.test';

let upstream: Server;
let upstreamPort: number;
const upstreamHits: string[] = [];
let proxy: ForwardProxy;
let proxyUrl: string;
let tunnels: string[];
const open: PooledTransport[] = [];

beforeAll(async () => {
  upstream = createServer((request: IncomingMessage, response) => {
    upstreamHits.push(`${request.method} ${request.headers.host} ${request.url}`);
    if (request.url === '/stream') {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: 1\n\n');
      setTimeout(() => response.end('data: 2\n\n'), 10);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamPort = (upstream.address() as AddressInfo).port;

  proxy = await startForwardProxy({ [MEDIA_NAME]: '127.0.0.1' });
  proxyUrl = proxy.url;
  tunnels = proxy.tunnels;
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((pooled) => pooled.close()));
  upstreamHits.length = 0;
  tunnels.length = 0;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await Promise.all([proxy.close(), new Promise((resolve) => upstream.close(resolve))]);
});

function transportWith(env: Record<string, string>, lookup?: LookupFunction) {
  const pooled = createUndiciTransport({ env, lookup });
  open.push(pooled);
  return pooled.transport;
}

const api = () => `http://127.0.0.1:${upstreamPort}/v1/chat/completions`;

describe('upstream calls honour HTTPS_PROXY / HTTP_PROXY / NO_PROXY', () => {
  it.each(['HTTP_PROXY', 'http_proxy'])('%s: the call reaches the upstream through the proxy', async (name) => {
    const transport = transportWith({ [name]: proxyUrl });
    const response = await transport({ url: api(), method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(tunnels).toEqual([`CONNECT 127.0.0.1:${upstreamPort}`]);
    expect(upstreamHits).toEqual([`POST 127.0.0.1:${upstreamPort} /v1/chat/completions`]);
  });

  it('a streamed answer arrives chunk by chunk through the tunnel', async () => {
    const transport = transportWith({ HTTP_PROXY: proxyUrl });
    const response = await transport({ url: `http://127.0.0.1:${upstreamPort}/stream`, method: 'GET' });
    let text = '';
    for await (const chunk of response.chunks?.() ?? []) text += Buffer.from(chunk).toString();
    expect(text).toBe('data: 1\n\ndata: 2\n\n');
    expect(tunnels).toEqual([`CONNECT 127.0.0.1:${upstreamPort}`]);
  });

  it('the lower-case form wins over the upper-case one, as in curl', async () => {
    const transport = transportWith({ http_proxy: proxyUrl, HTTP_PROXY: 'http://127.0.0.1:9' });
    expect((await transport({ url: api(), method: 'GET' })).status).toBe(200);
    expect(tunnels).toEqual([`CONNECT 127.0.0.1:${upstreamPort}`]);
  });

  it.each(['NO_PROXY', 'no_proxy'])('%s=127.0.0.1 connects directly: the proxy sees nothing', async (name) => {
    const transport = transportWith({ HTTP_PROXY: proxyUrl, [name]: '127.0.0.1' });
    expect((await transport({ url: api(), method: 'GET' })).status).toBe(200);
    expect(tunnels).toEqual([]);
    expect(upstreamHits).toEqual([`GET 127.0.0.1:${upstreamPort} /v1/chat/completions`]);
  });

  it('HTTPS_PROXY alone does not proxy an http upstream', async () => {
    const transport = transportWith({ HTTPS_PROXY: proxyUrl });
    expect((await transport({ url: api(), method: 'GET' })).status).toBe(200);
    expect(tunnels).toEqual([]);
  });

  it.each(['proxy.corp:3128', 'not a url'])(
    'a proxy variable that is not a proxy URL (%s) fails the transport at creation, naming the variable only',
    (value) => {
      expect(() => createUndiciTransport({ env: { https_proxy: value } })).toThrow(
        new TypeError('https_proxy is not an http://, https:// or socks5:// URL (expected e.g. http://proxy.example:3128)'),
      );
    },
  );

  it('without the variables nothing changes: direct connection', async () => {
    const transport = transportWith({});
    expect((await transport({ url: api(), method: 'GET' })).status).toBe(200);
    expect(tunnels).toEqual([]);
    expect(upstreamHits).toEqual([`GET 127.0.0.1:${upstreamPort} /v1/chat/completions`]);
  });
});

describe('media downloads through a proxy', () => {
  it('an internal host literal is refused before anything is sent', async () => {
    const transport = transportWith({ HTTP_PROXY: proxyUrl });
    await expect(transport({ url: `http://127.0.0.1:${upstreamPort}/doc.pdf`, method: 'GET', purpose: 'media' })).rejects.toThrow(
      'media host 127.0.0.1 is an internal address, which no allow entry names',
    );
    expect(tunnels).toEqual([]);
    expect(upstreamHits).toEqual([]);
  });

  it('a name goes through the proxy, which resolves it (the gateway cannot check the address)', async () => {
    const transport = transportWith({ HTTP_PROXY: proxyUrl });
    const response = await transport({ url: `http://${MEDIA_NAME}:${upstreamPort}/doc.pdf`, method: 'GET', purpose: 'media' });
    expect(response.status).toBe(200);
    expect(tunnels).toEqual([`CONNECT ${MEDIA_NAME}:${upstreamPort}`]);
    expect(upstreamHits).toEqual([`GET ${MEDIA_NAME}:${upstreamPort} /doc.pdf`]);
  });

  it('a NO_PROXY name is connected to directly and keeps the resolved-address check', async () => {
    const toLoopback: LookupFunction = (_hostname, options, callback) => {
      if (options.all)
        return (callback as unknown as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [
          { address: '127.0.0.1', family: 4 },
        ]);
      callback(null, '127.0.0.1', 4);
    };
    const transport = transportWith({ HTTP_PROXY: proxyUrl, NO_PROXY: '.example.test' }, toLoopback);
    await expect(transport({ url: `http://${MEDIA_NAME}:${upstreamPort}/doc.pdf`, method: 'GET', purpose: 'media' })).rejects.toThrow(
      `media host ${MEDIA_NAME} resolves to the internal address 127.0.0.1, which no allow entry names`,
    );
    expect(tunnels).toEqual([]);
    expect(upstreamHits).toEqual([]);
  });
});

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const chatAnswer = {
  id: 'chatcmpl_tls',
  object: 'chat.completion',
  created: 1_800_000_000,
  model: 'gpt-x',
  choices: [{ index: 0, message: { role: 'assistant', content: 'over TLS', refusal: null }, finish_reason: 'stop', logprobs: null }],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
};

describe('https upstreams through the proxy: TLS end to end inside the tunnel', () => {
  let certificates: TestCertificates;
  let tls: TlsUpstream;
  let configDir: string;
  beforeAll(async () => {
    certificates = makeTestCertificates();
    tls = await startTlsUpstream(certificates, chatAnswer);
    configDir = mkdtempSync(join(tmpdir(), 'gateway-tls-'));
    writeFileSync(
      join(configDir, 'gateway.yaml'),
      `upstreams: { a: { protocol: openai-chat, baseUrl: "${tls.origin}/v1", apiKey: upstream-key } }\nroutes: [{ match: "*", upstream: a }]\nledger: false\nlog: { level: warn }\n`,
    );
  });
  afterEach(() => void (tls.hits.length = 0));
  afterAll(async () => {
    await tls.close();
    certificates.remove();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('the transport checks the certificate through the tunnel (the proxy cannot): one from an unknown CA is refused, nothing is sent', async () => {
    const transport = transportWith({ HTTPS_PROXY: proxyUrl });
    await expect(transport({ url: `${tls.origin}/v1/chat/completions`, method: 'POST', body: '{}' })).rejects.toMatchObject({
      // The chain ends in the private CA, which this process does not trust.
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    expect(tunnels).toEqual([`CONNECT 127.0.0.1:${tls.port}`]);
    expect(tls.hits).toEqual([]);
  });

  // The transport takes no CA option and Node 20 reads extra CAs only at start-up: a gateway
  // trusts a private CA when its process starts with NODE_EXTRA_CA_CERTS naming it.
  it.each([
    { proxy: { HTTPS_PROXY: 'proxy' }, tunnelled: true },
    { proxy: { HTTP_PROXY: 'proxy' }, tunnelled: true },
    { proxy: { HTTPS_PROXY: 'proxy', NO_PROXY: '127.0.0.1' }, tunnelled: false },
  ])(
    'a gateway started with NODE_EXTRA_CA_CERTS and $proxy: the exact answer, tunnelled: $tunnelled',
    async ({ proxy, tunnelled }) => {
      // The test runner's own proxy settings are not the gateway's.
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(https?|no|all)_proxy$/i.test(name)));
      for (const [name, value] of Object.entries(proxy)) env[name] = value === 'proxy' ? proxyUrl : value;
      env.NODE_EXTRA_CA_CERTS = certificates.caPath;
      // tsx as a loader in this one process (its CLI would put a second process between the test and the server).
      const args = ['--import', 'tsx', '--conditions=@llm/source', 'src/cli.ts', 'serve'];
      const gateway = await startListening([...args, '--config', join(configDir, 'gateway.yaml'), '--port', '0'], { cwd: packageDir, env });
      try {
        const response = await fetch(`${gateway.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] }),
        });
        expect({ status: response.status, body: await response.json() }).toEqual({ status: 200, body: chatAnswer });
        expect(tunnels).toEqual(tunnelled ? [`CONNECT 127.0.0.1:${tls.port}`] : []);
        expect(tls.hits).toEqual([{ request: `POST 127.0.0.1:${tls.port} /v1/chat/completions`, authorization: 'Bearer upstream-key', tls: true }]);
      } finally {
        gateway.child.kill('SIGTERM');
        await gateway.exited;
      }
    },
    30_000,
  );
});
