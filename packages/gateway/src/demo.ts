import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { parseConfig } from './config/load.js';
import { createLogger } from './logger.js';
import { startMockUpstream } from './mock/server.js';
import { loadRouterFactory, startGateway } from './server/start.js';
import { codecsReady } from './translate.js';

/**
 * `pnpm --filter @llm/gateway demo`: starts mock Claude and Gemini upstreams and the gateway on
 * free loopback ports, sends an OpenAI Chat request that a Claude upstream answers and an
 * Anthropic request that a Gemini upstream answers, prints both answers and exits.
 */
async function main(): Promise<void> {
  const [claudeMock, geminiMock] = await Promise.all([startMockUpstream({ protocol: 'claude' }), startMockUpstream({ protocol: 'gemini' })]);
  const config = parseConfig(
    JSON.stringify({
      upstreams: {
        claude: { protocol: 'claude', baseUrl: claudeMock.baseUrl, apiKey: 'mock' },
        gemini: { protocol: 'gemini', baseUrl: geminiMock.baseUrl, apiKey: 'mock' },
      },
      routes: [
        { match: 'demo-claude', upstream: 'claude', model: 'claude-opus-5-5' },
        { match: 'demo-gemini', upstream: 'gemini', model: 'gemini-2.5-flash' },
      ],
      ledger: false,
    }),
  );
  const routerReady = (await loadRouterFactory()) !== undefined && (await codecsReady());
  const gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
  try {
    if (routerReady) {
      console.log(`gateway on ${gateway.url}; mock Claude upstream on ${claudeMock.url}; mock Gemini upstream on ${geminiMock.url}`);
      const openai = new OpenAI({ apiKey: 'demo', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
      const chat = await openai.chat.completions.create({ model: 'demo-claude', messages: [{ role: 'user', content: 'Hello from an OpenAI client' }] });
      console.log(`OpenAI Chat client -> Claude upstream: ${chat.choices[0]?.message.content}`);
      const anthropic = new Anthropic({ apiKey: 'demo', baseURL: gateway.url, maxRetries: 0 });
      const message = await anthropic.messages.create({ model: 'demo-gemini', max_tokens: 100, messages: [{ role: 'user', content: 'Hello from an Anthropic client' }] });
      console.log(`Anthropic client -> Gemini upstream: ${message.content.map((b) => (b.type === 'text' ? b.text : '')).join('')}`);
    } else {
      console.log('@llm/router or the codecs are not complete yet: this demo exercises the mock upstreams directly (no translation).');
      const anthropic = new Anthropic({ apiKey: 'demo', baseURL: claudeMock.baseUrl, maxRetries: 0 });
      const message = await anthropic.messages.create({ model: 'claude-opus-5-5', max_tokens: 100, messages: [{ role: 'user', content: 'Hello from an Anthropic client' }] });
      console.log(`Anthropic client -> mock Claude upstream: ${message.content.map((b) => (b.type === 'text' ? b.text : '')).join('')}`);
      const res = await fetch(`${geminiMock.baseUrl}/v1beta/models/gemini-2.5-flash:generateContent`, {
        method: 'POST',
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hello from a Gemini client' }] }] }),
      });
      const body = (await res.json()) as { candidates: { content: { parts: { text: string }[] } }[] };
      console.log(`Gemini client -> mock Gemini upstream: ${body.candidates[0]?.content.parts[0]?.text}`);
      const health = await fetch(`${gateway.url}/health`);
      console.log(`gateway on ${gateway.url}: /health ${health.status}`);
    }
  } finally {
    await Promise.all([gateway.close(), claudeMock.close(), geminiMock.close()]);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
