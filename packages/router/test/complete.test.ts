// complete() as the README shows it: an OpenAI Chat body answered by a Claude and a Gemini
// upstream (local mock servers, real fetch).
import { LlmError } from '@llm/core';
import { afterEach, describe, expect, it } from 'vitest';
import { complete } from '../src/complete.js';
import { claudeTextMessage } from './claude-answer.js';
import { json, startUpstream, type MockUpstream } from './mock-upstream.js';

const upstreams: MockUpstream[] = [];
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
});

const chatBody = {
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'Answer in one sentence.' },
    { role: 'user', content: 'Why is the sky blue?' },
  ],
};

describe('complete()', () => {
  it('OpenAI Chat body, Claude upstream: the answer is a chat.completion', async () => {
    const mock = await startUpstream((_request, response) =>
      json(response, 200, claudeTextMessage('Rayleigh scattering.', 'claude-sonnet-4-5', { input_tokens: 12, output_tokens: 4 })),
    );
    upstreams.push(mock);
    const answer = await complete(chatBody, {
      client: 'openai-chat',
      upstream: { protocol: 'claude', baseUrl: mock.baseUrl, apiKey: 'anthropic-key' },
      model: 'claude-sonnet-4-5',
    });
    expect(mock.received[0]).toMatchObject({
      url: '/v1/messages',
      body: {
        model: 'claude-sonnet-4-5',
        max_tokens: 4096,
        system: 'Answer in one sentence.',
        messages: [{ role: 'user', content: 'Why is the sky blue?' }],
      },
    });
    expect(mock.received[0]?.headers['x-api-key']).toBe('anthropic-key');
    expect(answer.stream).toBe(false);
    expect(answer.stream === false && answer.body).toMatchObject({
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Rayleigh scattering.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 },
    });
  });

  it('OpenAI Chat body streamed from a Gemini upstream: chat.completion.chunk events', async () => {
    const mock = await startUpstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (parts: unknown[], extra: Record<string, unknown> = {}) =>
        `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }], modelVersion: 'gemini-2.5-flash', responseId: 'g1' })}\r\n\r\n`;
      response.write(chunk([{ text: 'Rayleigh ' }]));
      response.end(chunk([{ text: 'scattering.' }], { finishReason: 'STOP' }));
    });
    upstreams.push(mock);
    const answer = await complete(
      { ...chatBody, stream: true },
      { client: 'openai-chat', upstream: { protocol: 'gemini', baseUrl: mock.baseUrl, apiKey: 'gemini-key' }, model: 'gemini-2.5-flash' },
    );
    expect(mock.received[0]?.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(mock.received[0]?.headers['x-goog-api-key']).toBe('gemini-key');
    expect(mock.received[0]?.body).toEqual({
      systemInstruction: { parts: [{ text: 'Answer in one sentence.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Why is the sky blue?' }] }],
    });
    if (!answer.stream) throw new Error('expected a stream');
    const data: string[] = [];
    const reader = answer.events().getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) data.push(next.value.data);
    expect(data[data.length - 1]).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((text) => JSON.parse(text) as { choices: Array<{ delta: { content?: string }; finish_reason: string | null }> });
    expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? '')).join('')).toBe('Rayleigh scattering.');
    expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean)).toEqual(['stop']);
  });

  it('upstream errors throw LlmError decoded in the client protocol', async () => {
    const mock = await startUpstream((_request, response) =>
      json(response, 429, { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }, { 'retry-after': '0' }),
    );
    upstreams.push(mock);
    const failure = complete(chatBody, {
      client: 'openai-chat',
      upstream: { protocol: 'claude', baseUrl: mock.baseUrl, apiKey: 'k' },
      model: 'claude-sonnet-4-5',
      router: { maxRetries: 0 },
    });
    await expect(failure).rejects.toBeInstanceOf(LlmError);
    await expect(failure).rejects.toMatchObject({ kind: 'rate_limit', status: 429 });
  });
});
