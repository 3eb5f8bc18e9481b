import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../src/server/start.js';
import { mockCloudUpstreams, startCloudGateway } from './helpers/cloud-mocks/cloud-gateway.js';
import { type CloudMock, startCloudMock } from './helpers/cloud-mocks/cloud-mock.js';

/**
 * Azure's differences from OpenAI as each client sees them: the prompt filter's 400 and the
 * output filter's `finish_reason: content_filter` in each protocol's words, and the announcement
 * chunk that opens Azure's Chat streams (empty id and model) never reaching a client.
 */

let mock: CloudMock;
let gateway: Gateway;
const PROMPT_FILTERED = "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.";

describe('Azure OpenAI differences', () => {
  beforeAll(async () => {
    mock = await startCloudMock();
    gateway = await startCloudGateway({
      upstreams: { azure: mockCloudUpstreams(mock).azureChat },
      routes: [{ match: '*', upstream: 'azure', model: 'my-deployment' }],
    });
  });
  afterAll(async () => {
    await gateway.close();
    await mock.close();
  });

  const openai = () => new OpenAI({ apiKey: 'k', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const anthropic = () => new Anthropic({ apiKey: 'k', baseURL: gateway.url, maxRetries: 0 });
  const gemini = async (stream: boolean, text: string) => {
    const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    const response = await fetch(`${gateway.url}/v1beta/models/m:${method}`, {
      method: 'POST',
      headers: { 'x-goog-api-key': 'k' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text }] }] }),
    });
    return { status: response.status, text: await response.text() };
  };

  for (const stream of [false, true]) {
    const mode = stream ? 'streaming' : 'non-streaming';
    it(`an answer cut by the output filter, ${mode}: each client gets its own "filtered" ending, with the deployment as model`, async () => {
      const chatBody = { model: 'm', messages: [{ role: 'user' as const, content: 'filter your answer' }] };
      const chat = stream ? await openai().chat.completions.stream(chatBody).finalChatCompletion() : await openai().chat.completions.create(chatBody);
      expect([chat.model, chat.choices[0]?.finish_reason, chat.choices[0]?.message.content]).toEqual(['my-deployment', 'content_filter', 'Partial']);

      const claudeBody = { model: 'm', max_tokens: 10, messages: [{ role: 'user' as const, content: 'filter your answer' }] };
      const claude = stream ? await anthropic().messages.stream(claudeBody).finalMessage() : await anthropic().messages.create(claudeBody);
      expect([claude.model, claude.stop_reason, claude.content]).toEqual(['my-deployment', 'refusal', [{ type: 'text', text: 'Partial' }]]);

      const responsesBody = { model: 'm', input: 'filter your answer' };
      const response = stream ? await openai().responses.stream(responsesBody).finalResponse() : await openai().responses.create(responsesBody);
      expect([response.model, response.status, response.incomplete_details, response.output_text]).toEqual([
        'my-deployment',
        'incomplete',
        { reason: 'content_filter' },
        'Partial',
      ]);

      const google = await gemini(stream, 'filter your answer');
      expect(google.status).toBe(200);
      expect(google.text).toContain('"finishReason":"SAFETY"');
    });

    it(`a prompt refused by the prompt filter, ${mode}: a 400 in each protocol`, async () => {
      await expect(openai().chat.completions.create({ model: 'm', stream, messages: [{ role: 'user', content: 'filter my prompt' }] })).rejects.toMatchObject({
        status: 400,
        code: 'content_filter',
        message: `400 ${PROMPT_FILTERED}`,
      });
      await expect(
        anthropic().messages.create({ model: 'm', stream, max_tokens: 10, messages: [{ role: 'user', content: 'filter my prompt' }] }),
      ).rejects.toMatchObject({
        status: 400,
        error: { type: 'error', error: { type: 'invalid_request_error', message: PROMPT_FILTERED } },
      });
      await expect(openai().responses.create({ model: 'm', stream, input: 'filter my prompt' })).rejects.toMatchObject({ status: 400, code: 'content_filter' });
      expect(await gemini(stream, 'filter my prompt')).toEqual({
        status: 400,
        text: JSON.stringify({ error: { code: 400, message: PROMPT_FILTERED, status: 'INVALID_ARGUMENT' } }),
      });
    });
  }
});
