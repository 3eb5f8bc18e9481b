import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServedProtocol } from '../src/served-protocols.js';
import { describe, expect, it } from 'vitest';
import { createMockHandler } from '../src/mock/handler.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const read = (name: string) => readFileSync(join(fixtures, name), 'utf8');

const CASES: { fixture: string; protocol: ServedProtocol; url: string; body: unknown }[] = [
  {
    fixture: 'claude-think-tool.1.stream.sse',
    protocol: 'claude',
    url: 'http://x/v1/messages',
    body: {
      model: 'claude-opus-5-5',
      max_tokens: 50,
      stream: true,
      tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
      messages: [{ role: 'user', content: 'think, then weather' }],
    },
  },
  {
    fixture: 'gemini3-text.1.stream.json',
    protocol: 'gemini',
    url: 'http://x/v1beta/models/gemini-3-pro:streamGenerateContent',
    body: { contents: [{ role: 'user', parts: [{ text: 'hi you' }] }] },
  },
  {
    fixture: 'chat-parallel.1.stream.sse',
    protocol: 'openai-chat',
    url: 'http://x/v1/chat/completions',
    body: {
      model: 'gpt-4.1',
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: {} } }],
      messages: [{ role: 'user', content: 'parallel weather' }],
    },
  },
  {
    fixture: 'responses-think-text.1.stream.sse',
    protocol: 'openai-responses',
    url: 'http://x/v1/responses',
    body: { model: 'gpt-5', stream: true, input: 'think about it' },
  },
];

describe('mock upstream streams (golden)', () => {
  for (const { fixture, protocol, url, body } of CASES) {
    it(`${fixture} is what the ${protocol} mock streams`, async () => {
      const response = await createMockHandler(protocol)(new Request(url, { method: 'POST', body: JSON.stringify(body) }));
      expect(response.status).toBe(200);
      if (fixture.endsWith('.json')) expect(await response.json()).toEqual(JSON.parse(read(fixture)));
      else expect(await response.text()).toBe(read(fixture));
    });
  }
});
