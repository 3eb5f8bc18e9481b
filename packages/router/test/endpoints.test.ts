// Client errors at the endpoints themselves (issue 17): count-tokens bodies, unreadable paths,
// paths no codec serves. Each answer is in the shape of the protocol the path belongs to.
import { describe, expect, it } from 'vitest';
import type { Transport } from '../src/config.js';
import { createHandler } from '../src/handler.js';
import { defaultCodecs } from '../src/registry.js';

let upstreamCalls = 0;
const transport: Transport = async () => {
  upstreamCalls += 1;
  return Response.json({ input_tokens: 1 });
};

const handler = (countTokens?: 'upstream') =>
  createHandler({
    upstreams: { anthropic: { protocol: 'claude', baseUrl: 'http://upstream.test' }, gemini: { protocol: 'gemini', baseUrl: 'http://upstream.test' } },
    routes: [
      { match: 'claude-*', upstream: 'anthropic' },
      { match: '*', upstream: 'gemini' },
    ],
    transport,
    maxRetries: 0,
    ...(countTokens ? { countTokens } : {}),
  });

const send = async (path: string, init: RequestInit = {}) => {
  const response = await handler()(new Request(`http://router.test${path}`, init));
  return { status: response.status, body: (await response.json()) as unknown };
};

describe('count-tokens bodies that are not a JSON object', () => {
  const bodies = ['{not json', 'null', '[]'];
  const cases = [
    { path: '/v1/messages/count_tokens', shape: (message: string) => ({ type: 'error', error: { type: 'invalid_request_error', message } }) },
    { path: '/v1/responses/input_tokens', shape: (message: string) => ({ error: { message, type: 'invalid_request_error', param: null, code: null } }) },
    { path: '/v1beta/models/gemini-x:countTokens', shape: (message: string) => ({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }) },
  ];

  it('answer 400 in the client protocol, never a 200 estimate', async () => {
    for (const { path, shape } of cases) {
      const answers = await Promise.all(bodies.map((body) => send(path, { method: 'POST', body })));
      expect(answers).toEqual([
        { status: 400, body: shape('request body is not valid JSON') },
        { status: 400, body: shape('request body must be a JSON object') },
        { status: 400, body: shape('request body must be a JSON object') },
      ]);
    }
  });

  it("answer 400 with countTokens 'upstream' too, without calling the upstream", async () => {
    upstreamCalls = 0;
    const response = await handler('upstream')(new Request('http://router.test/v1/messages/count_tokens', { method: 'POST', body: 'null' }));
    expect(response.status).toBe(400);
    expect(upstreamCalls).toBe(0);
  });
});

describe('paths', () => {
  it('bad percent-encoding in a path answers 400 in the protocol of the codec reading it, not 500', async () => {
    const gemini = await send('/v1beta/models/%ZZ:generateContent', { method: 'POST', body: '{}' });
    // The message is the codec's own (core's path reader, or the router's when a codec throws a URIError).
    expect(gemini).toEqual({ status: 400, body: { error: { code: 400, message: expect.any(String), status: 'INVALID_ARGUMENT' } } });
    const responses = await send('/v1/responses/%E0%A4%A');
    const { error } = responses.body as { error: Record<string, unknown> };
    expect([responses.status, error.type, error.code, typeof error.message]).toEqual([400, 'invalid_request_error', null, 'string']);
  });

  it("a path no codec serves answers 404 in OpenAI's shape, or in the shape of the protocol the path belongs to", async () => {
    expect(await send('/v1/embeddings', { method: 'POST', body: '{}' })).toEqual({
      status: 404,
      body: { error: { message: 'no endpoint at POST /v1/embeddings', type: 'not_found_error', param: null, code: null } },
    });
    expect(await send('/')).toEqual({ status: 404, body: { error: { message: 'no endpoint at GET /', type: 'not_found_error', param: null, code: null } } });
    expect(await send('/v1/messages/batches', { method: 'POST', body: '{}' })).toEqual({
      status: 404,
      body: { type: 'error', error: { type: 'not_found_error', message: 'no endpoint at POST /v1/messages/batches' } },
    });
    // A Gemini method under /v1/models is Gemini's family (each codec's `http.ownsPath` decides).
    expect(await send('/v1/models/gemini-x:embedContent', { method: 'POST', body: '{}' })).toEqual({
      status: 404,
      body: { error: { code: 404, message: 'no endpoint at POST /v1/models/gemini-x:embedContent', status: 'NOT_FOUND' } },
    });
  });
});

describe("each codec's path family (http.ownsPath)", () => {
  const codecs = defaultCodecs();
  const owners = (path: string) =>
    Object.entries(codecs)
      .filter(([, codec]) => codec?.http.ownsPath(path))
      .map(([id]) => id);

  it('holds its endpoints and what is below them; families are disjoint; /v1/models is in none', () => {
    const expected: Record<string, string[]> = {
      '/v1/chat/completions': ['openai-chat'],
      '/v1/chat/completions/x': ['openai-chat'],
      '/v1/responses': ['openai-responses'],
      '/v1/responses/resp_1/input_items': ['openai-responses'],
      '/v1/messages': ['claude'],
      '/v1/messages/batches': ['claude'],
      '/v1/messages/count_tokens': ['claude'],
      '/v1beta/models/g:generateContent': ['gemini'],
      '/v1beta/files': ['gemini'],
      '/v1/models/g:embedContent': ['gemini'],
      '/v1/models/g%3AgenerateContent': ['gemini'],
      '/v1/models': [],
      '/v1/models/gpt-4o': [],
      '/v1/messagesX': [],
      '/v1/embeddings': [],
      '/': [],
    };
    expect(Object.fromEntries(Object.keys(expected).map((path) => [path, owners(path)]))).toEqual(expected);
  });
});

describe('JSON nesting of client bodies', () => {
  it('a body nested 100,000 levels deep answers 400 naming where the 128-level limit was crossed, not 500', async () => {
    const deep = `{"model":"gpt-x","messages":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const answer = await send('/v1/chat/completions', { method: 'POST', body: deep });
    const path = 'messages[0][0][0][0][0][0][0]…[0][0]';
    expect(answer).toEqual({
      status: 400,
      body: { error: { message: `${path}: JSON nested deeper than 128 levels`, type: 'invalid_request_error', param: path, code: null } },
    });
  });

  it('a 5,000-level tool schema answers 400 in the client protocol, naming the path', async () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 5_000; level++) schema = { type: 'object', properties: { a: schema } };
    const body = { model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 't', input_schema: schema }] };
    const answer = await send('/v1/messages', { method: 'POST', body: JSON.stringify(body) });
    const path = 'tools[0].input_schema.properties.a.properties.a.properties….a.properties';
    expect(answer).toEqual({
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: `${path}: JSON nested deeper than 128 levels` } },
    });
  });

  it('exactly 128 levels are accepted, 129 are not', async () => {
    // The body is level 1, `metadata` and the objects in it the rest.
    const nested = (levels: number) => `{"model":"claude-x","messages":[],"metadata":${'{"a":'.repeat(levels - 1)}1${'}'.repeat(levels - 1)}}`;
    expect((await send('/v1/messages/count_tokens', { method: 'POST', body: nested(128) })).status).toBe(200);
    expect((await send('/v1/messages/count_tokens', { method: 'POST', body: nested(129) })).status).toBe(400);
  });
});
