import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { afterEach, describe, expect, it } from 'vitest';
import type { RouterConfig, UpstreamRequest } from '../src/config.js';
import { createHandler } from '../src/handler.js';
import { isInternalHost } from '../src/internal-hosts.js';
import { isAllowedMediaUrl } from '../src/media-fetch.js';
import { json, startUpstream, type MockUpstream } from './mock-upstream.js';

const PDF = '%PDF-1.4 tiny';

const upstreams: MockUpstream[] = [];
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
});

/** One local server: media under /media/, a Chat upstream under /v1/. */
async function server(): Promise<MockUpstream> {
  const mock = await startUpstream((request, response) => {
    if (request.url === '/media/doc.pdf') {
      response.writeHead(200, { 'content-type': 'application/pdf' });
      response.end(PDF);
    } else if (request.url === '/media/moved') {
      response.writeHead(302, { location: '/media/doc.pdf' });
      response.end();
    } else if (request.url === '/media/escape') {
      response.writeHead(302, { location: '/private/secret.txt' });
      response.end();
    } else if (request.url === '/media/loop') {
      response.writeHead(302, { location: '/media/loop' });
      response.end();
    } else if (request.url === '/media/stall') {
      response.writeHead(200, { 'content-type': 'application/pdf' });
      response.write('%PDF');
    } else if (request.url === '/media/big.bin') {
      response.writeHead(200, { 'content-type': 'application/pdf' });
      response.end('x'.repeat(2000));
    } else {
      json(response, 200, {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-4o',
        choices: [{ index: 0, message: { role: 'assistant', content: 'A tiny PDF.' }, finish_reason: 'stop' }],
      });
    }
  });
  upstreams.push(mock);
  return mock;
}

const config = (baseUrl: string, fetchMedia?: RouterConfig['fetchMedia']): RouterConfig => ({
  codecs: { 'openai-chat': openaiChat, 'openai-responses': openaiResponses },
  upstreams: { chat: { protocol: 'openai-chat', baseUrl: `${baseUrl}/v1`, apiKey: 'k' } },
  routes: [{ match: '*', upstream: 'chat' }],
  maxRetries: 0,
  ...(fetchMedia ? { fetchMedia } : {}),
});

const ask = (url: string) =>
  new Request('http://router.test/v1/responses', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-4o',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_file', file_url: url },
            { type: 'input_text', text: 'Summarize.' },
          ],
        },
      ],
    }),
  });

describe('media URL fetching (a Chat upstream takes files as data only)', () => {
  it('is off by default: the URL is never fetched', async () => {
    const mock = await server();
    await createHandler(config(mock.baseUrl))(ask(`${mock.baseUrl}/media/doc.pdf`));
    expect(mock.received.map((request) => request.url)).toEqual(['/v1/chat/completions']);
  });

  it('downloads an allowlisted URL and sends it inline', async () => {
    const mock = await server();
    const response = await createHandler(config(mock.baseUrl, { allow: [`${mock.baseUrl}/media/`] }))(ask(`${mock.baseUrl}/media/doc.pdf`));
    expect(response.status).toBe(200);
    expect(mock.received.map((request) => request.url)).toEqual(['/media/doc.pdf', '/v1/chat/completions']);
    const sent = mock.received[1]?.body as { messages: Array<{ content: unknown }> };
    expect(sent.messages[0]?.content).toEqual([
      { type: 'file', file: { file_data: `data:application/pdf;base64,${Buffer.from(PDF).toString('base64')}` } },
      { type: 'text', text: 'Summarize.' },
    ]);
  });

  it('does not fetch URLs off the allowlist', async () => {
    const mock = await server();
    await createHandler(config(mock.baseUrl, { allow: ['https://cdn.example.com/'] }))(ask(`${mock.baseUrl}/media/doc.pdf`));
    expect(mock.received.map((request) => request.url)).toEqual(['/v1/chat/completions']);
  });

  it('refuses a download over the size limit with a 400 naming the URL, before calling the upstream', async () => {
    const mock = await server();
    const url = `${mock.baseUrl}/media/big.bin`;
    const response = await createHandler(config(mock.baseUrl, { allow: [`${mock.baseUrl}/media/`], maxBytes: 1000 }))(ask(url));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(`media ${url}: larger than 1000 bytes`);
    expect(mock.received.map((request) => request.url)).toEqual(['/media/big.bin']);
  });

  it('allowlist entries: URL prefixes, exact HTTPS hosts, *.host patterns', () => {
    const allow = ['https://cdn.example.com/img/', 'media.example.org', '*.images.test'];
    expect(isAllowedMediaUrl('https://cdn.example.com/img/a.png', allow)).toBe(true);
    expect(isAllowedMediaUrl('https://cdn.example.com/private/a.png', allow)).toBe(false);
    expect(isAllowedMediaUrl('https://media.example.org/a.png', allow)).toBe(true);
    expect(isAllowedMediaUrl('http://media.example.org/a.png', allow)).toBe(false);
    expect(isAllowedMediaUrl('https://a.images.test/x', allow)).toBe(true);
    expect(isAllowedMediaUrl('https://images.test.evil.com/x', allow)).toBe(false);
    expect(isAllowedMediaUrl('file:///etc/passwd', ['file:///'])).toBe(false);
  });

  it('follows a redirect that stays on the allowlist', async () => {
    const mock = await server();
    const response = await createHandler(config(mock.baseUrl, { allow: [`${mock.baseUrl}/media/`] }))(ask(`${mock.baseUrl}/media/moved`));
    expect(response.status).toBe(200);
    expect(mock.received.map((request) => request.url)).toEqual(['/media/moved', '/media/doc.pdf', '/v1/chat/completions']);
  });

  it('refuses a redirect leaving the allowlist (400 naming the part), and never fetches its target', async () => {
    const mock = await server();
    const url = `${mock.baseUrl}/media/escape`;
    const response = await createHandler(config(mock.baseUrl, { allow: [`${mock.baseUrl}/media/`] }))(ask(url));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { message: `media ${url}: redirected outside the allowlist`, type: 'invalid_request_error', param: 'messages[0].content[0]', code: null },
    });
    expect(mock.received.map((request) => request.url)).toEqual(['/media/escape']);
  });

  it('stops after a bounded number of redirects', async () => {
    const mock = await server();
    const response = await createHandler(config(mock.baseUrl, { allow: [`${mock.baseUrl}/media/`] }))(ask(`${mock.baseUrl}/media/loop`));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(`media ${mock.baseUrl}/media/loop: more than 5 redirects`);
    expect(mock.received).toHaveLength(6);
  });

  it('a stalled download answers 400 invalid_request naming the part, not 500', async () => {
    const mock = await server();
    const url = `${mock.baseUrl}/media/stall`;
    const response = await createHandler(config(mock.baseUrl, { allow: [`${mock.baseUrl}/media/`], timeoutMs: 50 }))(ask(url));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { message: `media ${url}: download timed out after 50 ms`, type: 'invalid_request_error', param: 'messages[0].content[0]', code: null },
    });
    expect(mock.received.map((request) => request.url)).toEqual(['/media/stall']);
  });

  it('a failed download keeps its socket error out of the answer', async () => {
    const url = 'https://media.example.com/doc.pdf';
    const records: string[] = [];
    const handler = createHandler({
      ...config('https://upstream.test', { allow: ['media.example.com'] }),
      transport: async () => {
        throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 10.0.0.5:443') });
      },
      hooks: { onRequestEnd: (record) => records.push(record.errorDetail ?? '') },
    });
    const response = await handler(ask(url));
    expect(response.status).toBe(400);
    const { message } = ((await response.json()) as { error: { message: string } }).error;
    expect(message).toBe(`media ${url}: download failed`);
    expect(records[0]).toContain('connect ECONNREFUSED 10.0.0.5:443');
  });
});

describe('media downloads tell the transport what they are', () => {
  /** The media requests the transport saw for `url` under `allow` (each answered with a PDF). */
  async function mediaCalls(url: string, allow: string[]) {
    const seen: UpstreamRequest[] = [];
    const handler = createHandler({
      ...config('https://upstream.test', { allow }),
      transport: async (request) => {
        if (request.url.startsWith('https://upstream.test/')) throw new Error('no upstream here');
        seen.push(request);
        return new Response(PDF, { headers: { 'content-type': 'application/pdf' } });
      },
    });
    await handler(ask(url));
    return seen.map(({ url, purpose, internalAllowed }) => ({ url, purpose, internalAllowed }));
  }

  it('purpose media; internalAllowed only when an entry names the host exactly', async () => {
    expect(await mediaCalls('https://media.example.com/doc.pdf', ['*.example.com'])).toEqual([
      { url: 'https://media.example.com/doc.pdf', purpose: 'media', internalAllowed: false },
    ]);
    expect(await mediaCalls('https://media.example.com/doc.pdf', ['media.example.com'])).toEqual([
      { url: 'https://media.example.com/doc.pdf', purpose: 'media', internalAllowed: true },
    ]);
    expect(await mediaCalls('http://media.example.com:8080/a/doc.pdf', ['http://media.example.com:8080/a/'])).toEqual([
      { url: 'http://media.example.com:8080/a/doc.pdf', purpose: 'media', internalAllowed: true },
    ]);
  });
});

describe('isAllowedMediaUrl on the normalized URL', () => {
  const allow = ['https://cdn.example.com/public/', 'https://cdn.example.com/img', 'http://host:1', '*.example.org', '*.localhost'];

  it('resolves dot segments (plain and percent-encoded) before matching, and refuses encoded separators', () => {
    expect(isAllowedMediaUrl('https://cdn.example.com/public/a.png', allow)).toBe(true);
    expect(isAllowedMediaUrl('https://cdn.example.com/public/../private.txt', allow)).toBe(false);
    expect(isAllowedMediaUrl('https://cdn.example.com/public/%2e%2e/private.txt', allow)).toBe(false);
    expect(isAllowedMediaUrl('https://cdn.example.com/public/%2E%2E/private.txt', allow)).toBe(false);
    expect(isAllowedMediaUrl('https://cdn.example.com/public/..%2fprivate.txt', allow)).toBe(false);
    expect(isAllowedMediaUrl('https://cdn.example.com/public/..%5Cprivate.txt', allow)).toBe(false);
  });

  it('matches the origin exactly and the path on segment boundaries', () => {
    expect(isAllowedMediaUrl('https://cdn.example.com/img', allow)).toBe(true);
    expect(isAllowedMediaUrl('https://cdn.example.com/img/a.png', allow)).toBe(true);
    expect(isAllowedMediaUrl('https://cdn.example.com/img2/a.png', allow)).toBe(false);
    expect(isAllowedMediaUrl('https://cdn.example.com.evil.test/public/a.png', allow)).toBe(false);
    expect(isAllowedMediaUrl('https://cdn.example.com:8443/public/a.png', allow)).toBe(false);
    expect(isAllowedMediaUrl('http://cdn.example.com/public/a.png', allow)).toBe(false);
    expect(isAllowedMediaUrl('https://a.example.org:8443/x', allow)).toBe(false);
  });

  it('refuses user info, even when the raw text starts with an allowed prefix', () => {
    expect(isAllowedMediaUrl('http://host:1@other-host/', allow)).toBe(false);
    expect(isAllowedMediaUrl('https://user@cdn.example.com/public/a.png', allow)).toBe(false);
  });

  it('refuses internal hosts unless an entry names that host exactly', () => {
    expect(isAllowedMediaUrl('https://a.localhost/x', allow)).toBe(false);
    expect(isAllowedMediaUrl('https://localhost/x', ['localhost'])).toBe(true);
    expect(isAllowedMediaUrl('http://127.0.0.1:8080/media/a', ['http://127.0.0.1:8080/media/'])).toBe(true);
    // The same address written another way is the same host once parsed.
    expect(isAllowedMediaUrl('http://2130706433:8080/media/a', ['http://127.0.0.1:8080/media/'])).toBe(true);
    expect(isAllowedMediaUrl('http://127.0.0.2:8080/media/a', ['http://127.0.0.1:8080/media/'])).toBe(false);
  });

  it('isInternalHost: loopback, link-local, private, unspecified (IPv4, IPv6, mapped forms, localhost); public hosts are not', () => {
    const url = (text: string) => new URL(text).hostname;
    const internal = [
      'http://127.0.0.1/',
      'http://0x7f.1/',
      'http://2130706433/',
      'http://0.0.0.0/',
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://172.31.255.255/',
      'http://192.168.1.1/',
      'http://169.254.169.254/',
      'http://100.64.0.1/',
      'http://224.0.0.1/',
      'http://localhost/',
      'http://LOCALHOST./',
      'http://api.localhost/',
      'http://[::1]/',
      'http://[::]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[::127.0.0.1]/',
      'http://[fe80::1]/',
      'http://[fc00::1]/',
      'http://[fd12:3456::1]/',
      'http://[64:ff9b::a00:1]/',
      'http://[2002:7f00:1::]/',
      'http://[ff02::1]/',
    ];
    const external = [
      'http://8.8.8.8/',
      'http://172.32.0.1/',
      'http://100.128.0.1/',
      'http://[2606:4700::1111]/',
      'http://[::ffff:8.8.8.8]/',
      'http://example.com/',
      'http://localhost.example.com/',
    ];
    expect(internal.filter((text) => !isInternalHost(url(text)))).toEqual([]);
    expect(external.filter((text) => isInternalHost(url(text)))).toEqual([]);
  });

  it('isInternalHost: every special-purpose range that is not globally reachable (RFC 6890 and updates), IPv4-translated included', () => {
    const url = (text: string) => new URL(text).hostname;
    const internal = [
      // IPv4: this network, CGNAT, IETF assignments, documentation, benchmarking, reserved, broadcast
      'http://0.1.2.3/',
      'http://100.127.255.255/',
      'http://192.0.0.8/',
      'http://192.0.2.1/',
      'http://198.51.100.1/',
      'http://203.0.113.1/',
      'http://198.18.0.1/',
      'http://198.19.255.255/',
      'http://240.0.0.1/',
      'http://255.255.255.255/',
      'http://239.255.255.250/',
      // IPv6: IPv4-translated (::ffff:0:0/96), unspecified, loopback, discard, IETF assignments, documentation, ULA, link-local, multicast
      'http://[::ffff:0:a00:1]/',
      'http://[::ffff:0:7f00:1]/',
      'http://[::ffff:0:a9fe:a9fe]/',
      'http://[::]/',
      'http://[::1]/',
      'http://[::1:0:0:1]/',
      'http://[100::1]/',
      'http://[2001:2::1]/',
      'http://[2001:10::1]/',
      'http://[2001:db8::1]/',
      'http://[3fff::1]/',
      'http://[fc00::1]/',
      'http://[fdff::1]/',
      'http://[fe80::1]/',
      'http://[febf::1]/',
      'http://[ff0e::1]/',
      // embeddings: NAT64 (well-known and local-use), 6to4, Teredo
      'http://[64:ff9b::7f00:1]/',
      'http://[64:ff9b:1::1]/',
      'http://[2002:a00:1::]/',
      'http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/',
    ];
    const external = [
      'http://1.1.1.1/',
      'http://192.0.1.1/',
      'http://192.0.3.1/',
      'http://198.17.255.255/',
      'http://198.20.0.1/',
      'http://198.51.101.1/',
      'http://203.0.114.1/',
      'http://223.255.255.255/',
      'http://[::ffff:0:808:808]/',
      'http://[64:ff9b::808:808]/',
      'http://[2002:808:808::]/',
      'http://[2001:4860:4860::8888]/',
      'http://[2001:200::1]/',
      'http://[2001:db9::1]/',
      'http://[3fff:1000::1]/',
      'http://[fe00::1]/',
      'http://[101::1]/',
    ];
    expect(internal.filter((text) => !isInternalHost(url(text)))).toEqual([]);
    expect(external.filter((text) => isInternalHost(url(text)))).toEqual([]);
  });
});
