import Anthropic from '@anthropic-ai/sdk';
import { encodeSse, type LlmStreamEvent, type LlmUsage } from '@llm/core';
import { streamOf } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';

/** An Anthropic client whose every request is answered with `events` encoded by the codec. */
function clientAnswering(events: LlmStreamEvent[], seen: { body?: unknown; headers?: Headers } = {}): Anthropic {
  return new Anthropic({
    apiKey: 'test-key',
    maxRetries: 0,
    fetch: async (_url, init) => {
      seen.body = JSON.parse(String(init?.body));
      seen.headers = new Headers(init?.headers);
      const body = streamOf(events).pipeThrough(claude.stream.encode()).pipeThrough(encodeSse());
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    },
  });
}

const usage: LlmUsage = { inputTokens: 120, outputTokens: 40, cacheReadTokens: 100, reasoningTokens: 12 };

describe('encoded streams judged by the SDK MessageStream accumulator', () => {
  it('thinking with its signature, text and a tool call fold into the exact message', async () => {
    const events: LlmStreamEvent[] = [
      { type: 'start', id: 'msg_1', model: 'claude-opus-5' },
      { type: 'block-start', index: 0, block: { kind: 'reasoning' } },
      { type: 'reasoning-delta', index: 0, text: 'The user wants ' },
      { type: 'reasoning-delta', index: 0, text: 'the weather.' },
      { type: 'reasoning-signature', index: 0, signature: 'c2lnbmF0dXJl' },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'text' } },
      { type: 'text-delta', index: 1, text: 'Let me check ' },
      { type: 'text-delta', index: 1, text: 'Paris — ☀?' },
      { type: 'block-end', index: 1 },
      { type: 'block-start', index: 2, block: { kind: 'tool_call', id: 'toolu_1', name: 'get_weather' } },
      { type: 'tool-args-delta', index: 2, json: '{"city":' },
      { type: 'tool-args-delta', index: 2, json: '"Paris"}' },
      { type: 'block-end', index: 2 },
      { type: 'finish', reason: 'tool_calls', usage },
    ];
    const seen: { body?: unknown; headers?: Headers } = {};
    const stream = clientAnswering(events, seen).messages.stream({
      model: 'claude-opus-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    const message = await stream.finalMessage();
    expect(message).toEqual({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-5',
      content: [
        { type: 'thinking', thinking: 'The user wants the weather.', signature: 'c2lnbmF0dXJl' },
        { type: 'text', text: 'Let me check Paris — ☀?' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      // Added by the SDK's accumulator (structured outputs); not on the wire.
      parsed_output: null,
      usage: {
        input_tokens: 20,
        output_tokens: 40,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 100,
        output_tokens_details: { thinking_tokens: 12 },
      },
    });
    expect(seen.body).toMatchObject({ model: 'claude-opus-5', stream: true });
  });

  it('a refusal and a stop sequence reach the SDK as Claude stop reasons', async () => {
    const refusal = await clientAnswering([
      { type: 'start', id: 'msg_2', model: 'm' },
      { type: 'block-start', index: 0, block: { kind: 'refusal' } },
      { type: 'text-delta', index: 0, text: 'I can’t help with that.' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'refusal' },
    ])
      .messages.stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
      .finalMessage();
    expect([refusal.content, refusal.stop_reason]).toEqual([[{ type: 'text', text: 'I can’t help with that.' }], 'refusal']);

    const stopped = await clientAnswering([
      { type: 'start', id: 'msg_3', model: 'm' },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: '1, 2, ' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'stop', stopSequence: '3' },
    ])
      .messages.stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'count' }] })
      .finalMessage();
    expect([stopped.stop_reason, stopped.stop_sequence]).toEqual(['stop_sequence', '3']);
  });

  it('parallel tool calls with no-argument calls, and blocks of a second choice dropped with a warning', async () => {
    const warnings: string[] = [];
    const events: LlmStreamEvent[] = [
      { type: 'start', id: 'msg_4', model: 'm' },
      { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'call_a', name: 'now' } },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'text' }, choice: 1 },
      { type: 'text-delta', index: 1, text: 'other answer' },
      { type: 'block-end', index: 1 },
      { type: 'block-start', index: 2, block: { kind: 'tool_call', id: 'call_b', name: 'ls' } },
      { type: 'tool-args-delta', index: 2, json: '{"path":"/"}' },
      { type: 'block-end', index: 2 },
      { type: 'finish', reason: 'tool_calls', usage: { inputTokens: 5, outputTokens: 6 } },
      { type: 'finish', reason: 'stop', choice: 1 },
    ];
    const client = new Anthropic({
      apiKey: 'k',
      maxRetries: 0,
      fetch: async () =>
        new Response(
          streamOf(events)
            .pipeThrough(claude.stream.encode({ warn: (warning) => warnings.push(warning.path) }))
            .pipeThrough(encodeSse()),
          {
            headers: { 'content-type': 'text/event-stream' },
          },
        ),
    });
    const message = await client.messages.stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).finalMessage();
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'call_a', name: 'now', input: {} },
      { type: 'tool_use', id: 'call_b', name: 'ls', input: { path: '/' } },
    ]);
    expect(message.usage).toEqual({ input_tokens: 5, output_tokens: 6, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    expect(warnings).toEqual(['choices']);
  });

  it('an error mid-stream reaches the SDK as an overloaded error after the text so far', async () => {
    const stream = clientAnswering([
      { type: 'start', id: 'msg_5', model: 'm' },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'partial' },
      { type: 'error', error: claude.error.decode(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) },
    ]).messages.stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    const texts: string[] = [];
    stream.on('text', (text) => texts.push(text));
    await expect(stream.finalMessage()).rejects.toMatchObject({ error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
    expect(texts).toEqual(['partial']);
  });

  it('an empty canonical stream reaches the SDK as an APIError (event: error alone), not an empty 200 body', async () => {
    const stream = clientAnswering([]).messages.stream({ model: 'claude-opus-5', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] });
    const failure = stream.finalMessage();
    await expect(failure).rejects.toBeInstanceOf(Anthropic.APIError);
    await expect(failure).rejects.toMatchObject({
      error: { type: 'error', error: { type: 'api_error', message: 'the upstream stream ended before it finished' } },
    });
  });
});
