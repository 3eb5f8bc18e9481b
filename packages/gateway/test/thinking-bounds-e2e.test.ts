import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { type Gateway, startGateway } from '../src/server/start.js';

/**
 * Reasoning settings of every client protocol, with no output cap and no tools, reach a Claude
 * upstream as a body the API accepts: the mock refuses a thinking budget under 1024 or not below
 * `max_tokens`, as Anthropic does (a router default of 4096 under an 8000 budget once broke this).
 */

let gateway: Gateway;
let claude: MockUpstream;

beforeAll(async () => {
  claude = await startMockUpstream({ protocol: 'claude' });
  const config = parseConfig(
    JSON.stringify({
      keys: ['k'],
      upstreams: { claude: { protocol: 'claude', baseUrl: claude.baseUrl, apiKey: 'upstream-key' } },
      routes: [{ match: '*', upstream: 'claude', model: 'claude-sonnet-4-5' }],
      ledger: false,
      maxRetries: 0,
    }),
  );
  gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
});
afterAll(async () => {
  await gateway?.close();
  await claude?.close();
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
