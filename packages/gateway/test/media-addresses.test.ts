import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { createHandler, type RequestRecord, type RouterConfig } from '@llm/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { createUndiciTransport, type PooledTransport } from '../src/transport.js';

// A made-up name that resolves (through the injected lookup) to the loopback address where a real
// media server listens: only a check at resolution time can refuse it.
const NAME = 'media.example.test';
const PDF = '%PDF-1.4 tiny';

const toLoopback: LookupFunction = (hostname, options, callback) => {
  if (hostname !== NAME) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
  if (options.all)
    return (callback as unknown as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
  callback(null, '127.0.0.1', 4);
};

let media: Server;
let mediaPort: number;
const mediaHits: string[] = [];
let chat: MockUpstream;
let pooled: PooledTransport;

beforeAll(async () => {
  media = createServer((request: IncomingMessage, response) => {
    mediaHits.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'application/pdf' });
    response.end(PDF);
  });
  await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
  mediaPort = (media.address() as AddressInfo).port;
  chat = await startMockUpstream({ protocol: 'openai-chat' });
  pooled = createUndiciTransport({ lookup: toLoopback });
});
afterAll(async () => {
  await Promise.all([new Promise((resolve) => media.close(resolve)), chat.close(), pooled.close()]);
});

/** A Responses request with one file by URL: a Chat upstream takes files as data only, so the router downloads it. */
const ask = (url: string) =>
  new Request('http://gateway.test/v1/responses', {
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

function router(allow: string[], records: RequestRecord[]) {
  const config: RouterConfig = {
    // The upstream API itself is on loopback: API calls are never checked.
    upstreams: { chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl, apiKey: 'k' } },
    routes: [{ match: '*', upstream: 'chat' }],
    maxRetries: 0,
    fetchMedia: { allow },
    transport: pooled.transport,
    hooks: { onRequestEnd: (record) => records.push(record) },
  };
  return createHandler(config);
}

describe('media downloads refuse internal addresses at resolution time', () => {
  it("a name resolving to loopback is refused when only a pattern allows it: the router's 400 naming the part", async () => {
    const url = `https://${NAME}/doc.pdf`;
    const records: RequestRecord[] = [];
    const response = await router(['*.example.test'], records)(ask(url));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { message: `media ${url}: download failed`, type: 'invalid_request_error', param: 'messages[0].content[0]', code: null },
    });
    expect(records[0]?.errorDetail).toContain(`media host ${NAME} resolves to the internal address 127.0.0.1, which no allow entry names`);
  });

  it('the transport refuses before connecting, with a real server listening at that address', async () => {
    const before = mediaHits.length;
    const url = `http://${NAME}:${mediaPort}/doc.pdf`;
    await expect(pooled.transport({ url, method: 'GET', purpose: 'media' })).rejects.toThrow(`media host ${NAME} resolves to the internal address 127.0.0.1`);
    await expect(pooled.transport({ url: `http://127.0.0.1:${mediaPort}/doc.pdf`, method: 'GET', purpose: 'media' })).rejects.toThrow(
      'media host 127.0.0.1 is an internal address, which no allow entry names',
    );
    expect(mediaHits.length).toBe(before);
    // The same URL as an API call (no purpose), or a download whose host an entry names, connects.
    expect((await pooled.transport({ url, method: 'GET' })).status).toBe(200);
    expect((await pooled.transport({ url, method: 'GET', purpose: 'media', internalAllowed: true })).status).toBe(200);
  });

  it('an allow entry naming the host lets the download reach it', async () => {
    const url = `http://${NAME}:${mediaPort}/media/doc.pdf`;
    const records: RequestRecord[] = [];
    const response = await router([`http://${NAME}:${mediaPort}/media/`], records)(ask(url));
    expect(response.status).toBe(200);
    expect(mediaHits.at(-1)).toBe('/media/doc.pdf');
    expect(records[0]?.status).toBe(200);
  });
});
