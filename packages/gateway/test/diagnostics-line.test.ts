import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { type Gateway, startGateway } from '../src/server/start.js';

// Issue 19: at log level debug, one diagnostics line per request (route decision, upstream status
// and calls, tool-call count, capped previews with secrets masked); nothing of it at info.
let chat: MockUpstream;
const gateways: Gateway[] = [];

beforeAll(async () => {
  chat = await startMockUpstream({ protocol: 'openai-chat' });
});
afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.close()));
  await chat.close();
});

async function serveAt(level: 'debug' | 'info'): Promise<{ gateway: Gateway; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  const config = parseConfig(
    JSON.stringify({
      upstreams: { chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl } },
      routes: [{ match: 'claude-*', upstream: 'chat', model: 'gpt-4.1' }],
      ledger: false,
    }),
  );
  const gateway = await startGateway(config, { port: 0, logger: createLogger(level, { write: (line: string) => lines.push(JSON.parse(line)) }) });
  gateways.push(gateway);
  return { gateway, lines };
}

const body = {
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  tools: [{ name: 'Read', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
  messages: [
    { role: 'user', content: 'read the readme' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'README.md' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789' }] },
  ],
};

async function send(gateway: Gateway): Promise<void> {
  const res = await fetch(`${gateway.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-request-id': 'diag-1' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  await res.text();
}

describe('the diagnostics line', () => {
  it('is written at debug with the route decision and masked previews', async () => {
    const { gateway, lines } = await serveAt('debug');
    await send(gateway);
    const diagnostics = lines.filter((line) => line.msg === 'diagnostics');
    expect(diagnostics).toHaveLength(1);
    const { time, ...line } = diagnostics[0] ?? {};
    expect(line).toEqual({
      level: 20,
      name: 'llm-gateway',
      msg: 'diagnostics',
      requestId: 'diag-1',
      clientModel: 'claude-sonnet-4-5',
      rule: 'claude-*',
      upstream: 'chat',
      upstreamModel: 'gpt-4.1',
      upstreamStatus: 200,
      attempts: 1,
      status: 200,
      // The answer's tool calls (the mock answers with text); the tool result's secret is masked.
      toolCalls: 0,
      toolCallPreviews: [],
      toolResultPreviews: ['OPENAI_[redacted]'],
    });
  });

  it('is not written at info', async () => {
    const { gateway, lines } = await serveAt('info');
    await send(gateway);
    expect(lines.filter((line) => line.msg === 'diagnostics')).toEqual([]);
  });
});
