import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { parseConfig } from './config/load.js';
import { createLogger } from './logger.js';
import { startMockUpstream } from './mock/server.js';
import { startGateway } from './server/start.js';

/**
 * The main job of the repository's `npm run demo`: starts the embedded mock upstreams (Claude,
 * Gemini, OpenAI Responses) and the gateway on free loopback ports, then sends requests through
 * the gateway with the official SDKs as unmodified clients, each answered by an upstream that
 * speaks another protocol, and prints what the clients received.
 */
async function main(): Promise<void> {
  const [claudeMock, geminiMock, responsesMock] = await Promise.all([
    startMockUpstream({ protocol: 'claude' }),
    startMockUpstream({ protocol: 'gemini' }),
    startMockUpstream({ protocol: 'openai-responses' }),
  ]);
  const config = parseConfig(
    JSON.stringify({
      upstreams: {
        claude: { protocol: 'claude', baseUrl: claudeMock.baseUrl, apiKey: 'mock' },
        gemini: { protocol: 'gemini', baseUrl: geminiMock.baseUrl, apiKey: 'mock' },
        responses: { protocol: 'openai-responses', baseUrl: responsesMock.baseUrl, apiKey: 'mock' },
      },
      routes: [
        { match: 'demo-claude', upstream: 'claude', model: 'claude-opus-5-5' },
        { match: 'demo-gemini', upstream: 'gemini', model: 'gemini-2.5-flash' },
        { match: 'demo-responses', upstream: 'responses', model: 'gpt-5' },
      ],
      ledger: false,
    }),
  );
  const gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
  try {
    console.log(
      `gateway on ${gateway.url}, in front of mock upstreams: Claude ${claudeMock.url}, Gemini ${geminiMock.url}, OpenAI Responses ${responsesMock.url}`,
    );

    const openai = new OpenAI({ apiKey: 'demo', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const chat = await openai.chat.completions.create({ model: 'demo-claude', messages: [{ role: 'user', content: 'Hello from an OpenAI Chat client' }] });
    console.log(
      `OpenAI Chat client   -> Claude upstream:           ${chat.choices[0]?.message.content} (finish: ${chat.choices[0]?.finish_reason}, ${chat.usage?.total_tokens} tokens)`,
    );

    const anthropic = new Anthropic({ apiKey: 'demo', baseURL: gateway.url, maxRetries: 0 });
    const stream = anthropic.messages.stream({
      model: 'demo-gemini',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hello from an Anthropic client, streaming' }],
    });
    let streamed = '';
    stream.on('text', (text) => (streamed += text));
    const message = await stream.finalMessage();
    console.log(`Anthropic client     -> Gemini upstream (stream):  ${streamed} (stop: ${message.stop_reason})`);

    const google = new GoogleGenAI({ apiKey: 'demo', httpOptions: { baseUrl: gateway.url } });
    const answer = await google.models.generateContent({ model: 'demo-responses', contents: 'Hello from a Gemini client' });
    console.log(`Gemini client        -> OpenAI Responses upstream: ${answer.text} (finish: ${answer.candidates?.[0]?.finishReason})`);
  } finally {
    await Promise.all([gateway.close(), claudeMock.close(), geminiMock.close(), responsesMock.close()]);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
