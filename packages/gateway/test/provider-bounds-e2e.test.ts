import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { type Gateway, startGateway } from '../src/server/start.js';

/**
 * Values other protocols allow reach an upstream inside its own bounds, which its mock enforces
 * as the real API does: reasoning settings of every client protocol, with no output cap and no
 * tools, reach Claude with a thinking budget of at least 1024 and below `max_tokens` (a router
 * default of 4096 under an 8000 budget once broke this); an output limit under 16 reaches
 * Responses as 16; a thinking budget reaches Gemini 2.5 inside the model's range.
 */

let gateway: Gateway;
let claude: MockUpstream;
let responses: MockUpstream;
let geminiMock: MockUpstream;

beforeAll(async () => {
  [claude, responses, geminiMock] = await Promise.all([
    startMockUpstream({ protocol: 'claude' }),
    startMockUpstream({ protocol: 'openai-responses' }),
    startMockUpstream({ protocol: 'gemini' }),
  ]);
  const config = parseConfig(
    JSON.stringify({
      keys: ['k'],
      upstreams: {
        claude: { protocol: 'claude', baseUrl: claude.baseUrl, apiKey: 'upstream-key' },
        responses: { protocol: 'openai-responses', baseUrl: responses.baseUrl, apiKey: 'upstream-key' },
        gemini: { protocol: 'gemini', baseUrl: geminiMock.baseUrl, apiKey: 'upstream-key' },
      },
      routes: [
        { match: 'to-responses', upstream: 'responses', model: 'gpt-5' },
        { match: 'to-flash', upstream: 'gemini', model: 'gemini-2.5-flash' },
        { match: 'to-pro', upstream: 'gemini', model: 'gemini-2.5-pro' },
        { match: '*', upstream: 'claude', model: 'claude-sonnet-4-5' },
      ],
      ledger: false,
      maxRetries: 0,
    }),
  );
  gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
});
afterAll(async () => {
  await gateway?.close();
  await Promise.all([claude?.close(), responses?.close(), geminiMock?.close()]);
});

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k', 'x-goog-api-key': 'k' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

it('a Gemini thinkingBudget of 8000 with no maxOutputTokens', async () => {
  const { status, body } = await post('/v1beta/models/m:generateContent', {
    contents: [{ role: 'user', parts: [{ text: 'ponder' }] }],
    generationConfig: { thinkingConfig: { thinkingBudget: 8000, includeThoughts: true } },
  });
  expect(status).toBe(200);
  expect(body.candidates[0].content.parts.at(-1)).toEqual({ text: 'Mock claude says: ponder' });
});

it("a Gemini thinkingBudget under Claude's minimum (512) with no maxOutputTokens", async () => {
  const { status, body } = await post('/v1beta/models/m:generateContent', {
    contents: [{ role: 'user', parts: [{ text: 'ponder' }] }],
    generationConfig: { thinkingConfig: { thinkingBudget: 512 } },
  });
  expect(status).toBe(200);
  expect(body.candidates[0].content.parts.at(-1)).toEqual({ text: 'Mock claude says: ponder' });
});

it.each(['low', 'medium', 'high'])('a Chat reasoning_effort %s with no max_tokens', async (effort) => {
  const { status, body } = await post('/v1/chat/completions', { model: 'm', reasoning_effort: effort, messages: [{ role: 'user', content: 'ponder' }] });
  expect(status).toBe(200);
  expect(body.choices[0].message.content).toBe('Mock claude says: ponder');
});

it.each(['low', 'medium', 'high'])('a Responses reasoning effort %s with no max_output_tokens', async (effort) => {
  const { status, body } = await post('/v1/responses', { model: 'm', reasoning: { effort }, input: 'ponder', store: false });
  expect(status).toBe(200);
  expect(body.output.at(-1).content[0].text).toBe('Mock claude says: ponder');
});

it('a Claude client probing with max_tokens 1 (as Claude Desktop does), on a Responses upstream', async () => {
  const { status, body } = await post('/v1/messages', { model: 'to-responses', max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] });
  expect(status).toBe(200);
  expect(body.content).toEqual([{ type: 'text', text: 'Mock openai-responses says: ping' }]);
});

it('a Gemini CLI-like request (temperature 0, topP 1, a thinking budget) and a Chat request with temperature 1.5 and top_p, on Claude', async () => {
  const gemini = await post('/v1beta/models/m:generateContent', {
    contents: [{ role: 'user', parts: [{ text: 'ponder' }] }],
    generationConfig: { temperature: 0, topP: 1, thinkingConfig: { thinkingBudget: 8192, includeThoughts: true } },
  });
  expect(gemini.status).toBe(200);
  expect(gemini.body.candidates[0].content.parts.at(-1)).toEqual({ text: 'Mock claude says: ponder' });
  const chat = await post('/v1/chat/completions', { model: 'm', temperature: 1.5, top_p: 0.9, messages: [{ role: 'user', content: 'ponder' }] });
  expect(chat.status).toBe(200);
  expect(chat.body.choices[0].message.content).toBe('Mock claude says: ponder');
});

it('a Chat request forcing a tool with reasoning on, on Claude: the forced call wins', async () => {
  const { status, body } = await post('/v1/chat/completions', {
    model: 'm',
    reasoning_effort: 'high',
    tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
    tool_choice: 'required',
    messages: [{ role: 'user', content: 'weather please' }],
  });
  expect(status).toBe(200);
  expect(body.choices[0].message.tool_calls.map((call: any) => call.function.name)).toEqual(['get_weather']);
});

it("a Claude client's effort max, on a Responses upstream (OpenAI's levels end at xhigh)", async () => {
  const { status, body } = await post('/v1/messages', {
    model: 'to-responses',
    max_tokens: 1000,
    output_config: { effort: 'max' },
    messages: [{ role: 'user', content: 'ponder' }],
  });
  expect(status).toBe(200);
  expect(body.content).toEqual([{ type: 'text', text: 'Mock openai-responses says: ponder' }]);
});

it("a Claude client's 50,000-token thinking budget on Gemini 2.5 Flash, and its thinking turned off on 2.5 Pro", async () => {
  const ask = (model: string, thinking: unknown) =>
    post('/v1/messages', { model, max_tokens: 60_000, thinking, messages: [{ role: 'user', content: 'ponder' }] });
  const flash = await ask('to-flash', { type: 'enabled', budget_tokens: 50_000 });
  expect(flash.status).toBe(200);
  expect(flash.body.content.at(-1)).toEqual({ type: 'text', text: 'Mock gemini says: ponder' });
  const pro = await ask('to-pro', { type: 'disabled' });
  expect(pro.status).toBe(200);
  expect(pro.body.content.at(-1)).toEqual({ type: 'text', text: 'Mock gemini says: ponder' });
});
