import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { afterEach, describe, expect, it } from 'vitest';
import type { RouterConfig } from '../src/config.js';
import { createHandler } from '../src/handler.js';
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
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_file', file_url: url }, { type: 'input_text', text: 'Summarize.' }] }],
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
});
