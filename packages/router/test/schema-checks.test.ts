// A malformed tool or response schema is a 400 in the client's protocol naming the tool and the
// path inside the schema, checked before any upstream is called.
import { describe, expect, it } from 'vitest';
import { createHandler } from '../src/index.js';

function routerTo(protocol: 'claude' | 'openai-chat' | 'gemini'): { handler: (request: Request) => Promise<Response>; calls: () => number } {
  let calls = 0;
  const handler = createHandler({
    upstreams: { main: { protocol, baseUrl: 'https://upstream.test/v1', apiKey: 'k' } },
    routes: [{ match: '*', upstream: 'main' }],
    transport: async () => {
      calls++;
      return new Response('{}');
    },
  });
  return { handler, calls: () => calls };
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://router.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('tool and response schemas checked before sending', () => {
  it('Chat client to a Claude upstream: a misspelt type is a Chat 400 naming the tool and path', async () => {
    const { handler, calls } = routerTo('claude');
    const response = await handler(
      post('/v1/chat/completions', {
        model: 'claude-sonnet-4-5',
        messages: [{ role: 'user', content: 'Weather?' }],
        tools: [
          { type: 'function', function: { name: 'time', parameters: { type: 'object', properties: {} } } },
          { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'strin' } } } } },
        ],
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: 'tool "get_weather": parameters.properties.city.type: "strin" is not a JSON Schema type',
        type: 'invalid_request_error',
        param: 'tools[1].parameters.properties.city.type',
        code: null,
      },
    });
    expect(calls()).toBe(0);
  });

  it('Claude client to a Gemini upstream: `required` that is not a list is a Claude 400', async () => {
    const { handler, calls } = routerTo('gemini');
    const response = await handler(
      post(
        '/v1/messages',
        {
          model: 'gemini-2.5-pro',
          max_tokens: 100,
          messages: [{ role: 'user', content: 'Weather?' }],
          tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: 'city' } }],
        },
        { 'anthropic-version': '2023-06-01' },
      ),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'tool "get_weather": parameters.required: expected an array of strings, got "city"' },
    });
    expect(calls()).toBe(0);
  });
});
