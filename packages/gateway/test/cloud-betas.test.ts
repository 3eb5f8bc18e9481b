import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../src/server/start.js';
import { mockCloudUpstreams, startCloudGateway } from './helpers/cloud-mocks/cloud-gateway.js';
import { type CloudMock, startCloudMock } from './helpers/cloud-mocks/cloud-mock.js';

/**
 * A Claude client's `anthropic-beta` list: a body field on Bedrock, and off the Vertex body; and
 * token counting, which InvokeModel has no form for (the adapter answers 404, the router estimates).
 */

let mock: CloudMock;
let gateway: Gateway;

describe('Anthropic betas on the clouds', () => {
  beforeAll(async () => {
    mock = await startCloudMock();
    const { bedrock, vertexClaude } = mockCloudUpstreams(mock);
    const routes = [
      { match: 'to-bedrock', upstream: 'bedrock', model: 'anthropic.claude-x-v1:0' },
      { match: 'to-vertex', upstream: 'vertex', model: 'claude-x' },
    ];
    gateway = await startCloudGateway({ upstreams: { bedrock, vertex: vertexClaude }, routes, countTokens: 'upstream' });
  });
  afterAll(async () => {
    await gateway.close();
    await mock.close();
  });

  it('sends the betas as anthropic_beta in the Bedrock body, beside anthropic_version', async () => {
    const client = new Anthropic({ apiKey: 'k', baseURL: gateway.url, maxRetries: 0 });
    for (const stream of [false, true]) {
      const body = {
        model: 'to-bedrock',
        max_tokens: 10,
        messages: [{ role: 'user' as const, content: 'hello there' }],
        betas: ['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14'],
      };
      const message = stream ? await client.beta.messages.stream(body).finalMessage() : await client.beta.messages.create(body);
      expect(message.content).toMatchObject([{ type: 'text', text: 'Mock claude says: hello there' }]);
    }
    expect(mock.bedrockCalls.map((call) => [call.body.anthropic_version, call.body.anthropic_beta])).toEqual([
      ['bedrock-2023-05-31', ['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14']],
      ['bedrock-2023-05-31', ['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14']],
    ]);
  });

  it('leaves Vertex bodies without anthropic_beta (Vertex reads the header)', async () => {
    const client = new Anthropic({ apiKey: 'k', baseURL: gateway.url, maxRetries: 0 });
    await client.beta.messages.create({
      model: 'to-vertex',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hello there' }],
      betas: ['context-1m-2025-08-07'],
    });
    expect(mock.vertexCalls.map((call) => Object.keys(call.body).filter((key) => key.startsWith('anthropic')))).toEqual([['anthropic_version']]);
  });

  it("counts tokens for Bedrock by the router's estimate, without calling Bedrock (InvokeModel has no count call)", async () => {
    const before = mock.bedrockCalls.length;
    const client = new Anthropic({ apiKey: 'k', baseURL: gateway.url, maxRetries: 0 });
    const counted = await client.messages.countTokens({ model: 'to-bedrock', messages: [{ role: 'user', content: 'hello there' }] });
    expect(counted.input_tokens).toBeGreaterThan(0);
    expect(mock.bedrockCalls.length).toBe(before);
  });
});
