import Anthropic from '@anthropic-ai/sdk';
import { accumulateEvents, encodeSse, toolArgumentsObject, type LlmResponse, type SseEvent } from '@llm/core';
import { collect, streamOf } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';

const sse = (data: Record<string, unknown>): SseEvent => ({ event: data.type as string, data: JSON.stringify(data), id: undefined });

const citation = {
  type: 'char_location',
  cited_text: 'Paris is the capital.',
  document_index: 0,
  document_title: 'Facts',
  start_char_index: 0,
  end_char_index: 21,
};

/** One answer as the API streams it and as it returns it in JSON. */
const streamed = [
  sse({
    type: 'message_start',
    message: {
      id: 'msg_eq',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: 100,
        cache_creation_input_tokens: 20,
        cache_read_input_tokens: 30,
        cache_creation: { ephemeral_5m_input_tokens: 15, ephemeral_1h_input_tokens: 5 },
        output_tokens: 1,
      },
    },
  }),
  sse({ type: 'ping' }),
  sse({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
  sse({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Look it ' } }),
  sse({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'up.' } }),
  sse({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqSig==' } }),
  sse({ type: 'content_block_stop', index: 0 }),
  sse({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
  sse({ type: 'content_block_delta', index: 1, delta: { type: 'citations_delta', citation } }),
  sse({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'It is ' } }),
  sse({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Paris.' } }),
  sse({ type: 'content_block_stop', index: 1 }),
  sse({ type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_eq', name: 'get_weather', input: {} } }),
  sse({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"city":' } }),
  sse({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } }),
  sse({ type: 'content_block_stop', index: 2 }),
  sse({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 42 } }),
  sse({ type: 'message_stop' }),
];

const json = {
  id: 'msg_eq',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content: [
    { type: 'thinking', thinking: 'Look it up.', signature: 'EqSig==' },
    { type: 'text', text: 'It is Paris.', citations: [citation] },
    { type: 'tool_use', id: 'toolu_eq', name: 'get_weather', input: { city: 'Paris' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: {
    input_tokens: 100,
    cache_creation_input_tokens: 20,
    cache_read_input_tokens: 30,
    cache_creation: { ephemeral_5m_input_tokens: 15, ephemeral_1h_input_tokens: 5 },
    output_tokens: 42,
  },
};

/** Streamed tool arguments accumulate as JSON text, a JSON body gives the object: same meaning. */
function argumentsAsObjects(response: LlmResponse): LlmResponse['choices'] {
  return response.choices.map((choice) => ({
    ...choice,
    content: choice.content.map((part) => (part.type === 'tool-call' ? { ...part, arguments: toolArgumentsObject(part.arguments) ?? part.arguments } : part)),
  }));
}

describe('a streamed answer accumulates to its JSON twin', () => {
  it('accumulateEvents(stream.decode(x)) equals response.decode(json)', async () => {
    const events = await collect(streamOf(streamed).pipeThrough(claude.stream.decode()));
    const fromStream = accumulateEvents(events);
    const fromJson = claude.response.decode(json);
    expect(argumentsAsObjects(fromStream)).toEqual(fromJson.choices);
    expect(fromStream.usage).toEqual(fromJson.usage);
    expect([fromStream.id, fromStream.model]).toEqual([fromJson.id, fromJson.model]);
    // Exact canonical usage: input = 100 uncached + 20 written + 30 read; nothing counted twice.
    expect(fromJson.usage).toMatchObject({
      inputTokens: 150,
      cacheReadTokens: 30,
      cacheWriteTokens: 20,
      cacheWriteByTtl: { '5m': 15, '1h': 5 },
      outputTokens: 42,
      totalTokens: 192,
    });
    // And written back as JSON it is the original body.
    expect(claude.response.encode(fromStream)).toEqual(json);
  });

  it('the same events, re-encoded, are folded by the SDK MessageStream into the JSON body', async () => {
    const events = await collect(streamOf(streamed).pipeThrough(claude.stream.decode()));
    const client = new Anthropic({
      apiKey: 'k',
      maxRetries: 0,
      fetch: async () =>
        new Response(streamOf(events).pipeThrough(claude.stream.encode()).pipeThrough(encodeSse()), { headers: { 'content-type': 'text/event-stream' } }),
    });
    const citations: unknown[] = [];
    const stream = client.messages.stream({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'Capital?' }] });
    stream.on('citation', (citation) => citations.push(citation));
    // parsed_output is the SDK's own addition (structured-output parsing), not wire data.
    expect(await stream.finalMessage()).toEqual({ ...json, parsed_output: null });
    expect(citations).toEqual([citation]);
  });
});
