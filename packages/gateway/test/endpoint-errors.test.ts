import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type Gateway, startGateway } from '../src/server/start.js';

// Requests no endpoint serves answer in the shape of the protocol their path belongs to
// (issue 17: "404s and 405s for wrong paths or methods", "bad percent-encoding").
let gateway: Gateway;

beforeAll(async () => {
  const config = parseConfig(
    JSON.stringify({ upstreams: { a: { protocol: 'claude', baseUrl: 'http://127.0.0.1:9' } }, routes: [{ match: '*', upstream: 'a' }], ledger: false }),
  );
  gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
});
afterAll(async () => {
  await gateway.close();
});

async function answer(method: string, path: string): Promise<{ status: number; allow: string | null; body: unknown }> {
  const res = await fetch(`${gateway.url}${path}`, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
  return { status: res.status, allow: res.headers.get('allow'), body: await res.json() };
}

const openai = (message: string, type: string, code: string | null = null) => ({ error: { message, type, param: null, code } });

describe('requests no endpoint serves', () => {
  it('answers 405 with allow when the path is served under another method, in its protocol', async () => {
    expect(await answer('GET', '/v1/messages')).toEqual({
      status: 405,
      allow: 'POST',
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'method GET is not allowed at /v1/messages (allowed: POST)' } },
    });
    expect(await answer('GET', '/v1/chat/completions')).toEqual({
      status: 405,
      allow: 'POST',
      body: openai('method GET is not allowed at /v1/chat/completions (allowed: POST)', 'invalid_request_error', 'method_not_allowed'),
    });
    expect(await answer('DELETE', '/v1/responses/resp_1')).toEqual({
      status: 405,
      allow: 'GET',
      body: openai('method DELETE is not allowed at /v1/responses/resp_1 (allowed: GET)', 'invalid_request_error', 'method_not_allowed'),
    });
    expect(await answer('GET', '/v1beta/models/gemini-2.5-pro:generateContent')).toEqual({
      status: 405,
      allow: 'POST',
      body: {
        error: { code: 405, message: 'method GET is not allowed at /v1beta/models/gemini-2.5-pro:generateContent (allowed: POST)', status: 'INVALID_ARGUMENT' },
      },
    });
  });

  it('answers 404 in the protocol of the path (OpenAI shape for none)', async () => {
    expect(await answer('POST', '/v1beta/models/gemini-2.5-pro:unknownMethod')).toEqual({
      status: 404,
      allow: null,
      body: { error: { code: 404, message: 'no endpoint at POST /v1beta/models/gemini-2.5-pro:unknownMethod', status: 'NOT_FOUND' } },
    });
    expect(await answer('GET', '/v1/responses/x/y')).toEqual({
      status: 404,
      allow: null,
      body: openai('no endpoint at GET /v1/responses/x/y', 'not_found_error'),
    });
    expect(await answer('POST', '/v1/embeddings')).toEqual({ status: 404, allow: null, body: openai('no endpoint at POST /v1/embeddings', 'not_found_error') });
    expect(await answer('GET', '/')).toEqual({ status: 404, allow: null, body: openai('no endpoint at GET /', 'not_found_error') });
    // Claude's path family (`http.ownsPath`), as the router answers it: Claude's shape.
    expect(await answer('POST', '/v1/messages/batches')).toEqual({
      status: 404,
      allow: null,
      body: { type: 'error', error: { type: 'not_found_error', message: 'no endpoint at POST /v1/messages/batches' } },
    });
    expect(await answer('POST', '/anthropic/v1/messages/batches')).toEqual({
      status: 404,
      allow: null,
      body: { type: 'error', error: { type: 'not_found_error', message: 'no endpoint at POST /anthropic/v1/messages/batches' } },
    });
  });

  it('answers 400 in the client protocol to a path that is not valid percent-encoding', async () => {
    expect(await answer('POST', '/v1beta/models/%ZZ:generateContent')).toEqual({
      status: 400,
      allow: null,
      body: { error: { code: 400, message: 'the request path is not valid percent-encoding', status: 'INVALID_ARGUMENT' } },
    });
    expect(await answer('GET', '/v1/responses/%E0%A4%A')).toEqual({
      status: 400,
      allow: null,
      body: openai('the request path is not valid percent-encoding', 'invalid_request_error'),
    });
  });

  it('routes a POST /v1/messages as Claude whatever the Host header names', async () => {
    const { request } = await import('node:http');
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(`${gateway.url}/v1/messages`, { method: 'POST', headers: { host: 'x/v1/chat/completions#' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end('{}');
    });
    // The Claude decoder's own 400 (no model): the body was read as a Messages request.
    expect(JSON.parse(body)).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'model: required' } });
  });
});
