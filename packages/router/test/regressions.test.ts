// One test per translation case of /work/shared/REGRESSIONS.md, named `R<n>: ...`, over the real
// codecs. Each asserts the exact translated payload or event sequence.
import type { Codec, LlmWarning } from '@llm/core';
import { claude } from '@llm/claude';
import { gemini } from '@llm/gemini';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { afterEach, describe, expect, it } from 'vitest';
import { bridge } from '../src/bridge.js';
import { createHandler } from '../src/handler.js';
import { MemoryStateStore } from '../src/state-store.js';
import type { RouterConfig } from '../src/config.js';
import { json, startUpstream, type MockUpstream } from './mock-upstream.js';

const encoder = new TextEncoder();

/** A bridge that records its warnings as `code@path`. */
function bridged(client: Codec, upstream: Codec) {
  const warnings: string[] = [];
  const via = bridge({ client, upstream, warn: (warning: LlmWarning) => warnings.push(`${warning.code}@${warning.path}`) });
  return { via, warnings };
}

/** Upstream SSE bytes, one `data:` event per payload (`event:` named after `type` when `named`). */
function sseBytes(payloads: readonly unknown[], named = false): Uint8Array {
  const text = payloads
    .map((payload) => {
      if (payload === '[DONE]') return 'data: [DONE]\n\n';
      const type = named ? `event: ${(payload as { type: string }).type}\n` : '';
      return `${type}data: ${JSON.stringify(payload)}\n\n`;
    })
    .join('');
  return encoder.encode(text);
}

function bytesStream(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** The `data:` payloads of an SSE text (JSON parsed, `[DONE]` kept as is). */
function dataOf(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      return data === '[DONE]' ? data : (JSON.parse(data) as unknown);
    });
}

const readText = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

const weatherTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

const chunkBase = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-reasoner' };
const chatChunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  ...chunkBase,
  choices: [{ index: 0, delta, finish_reason: finish }],
});

/** A Chat upstream streaming reasoning, then text, then a tool call whose arguments arrive in pieces. */
const reasoningThenToolChunks = [
  chatChunk({ role: 'assistant', reasoning_content: 'Need ' }),
  chatChunk({ reasoning_content: 'weather.' }),
  chatChunk({ content: 'Checking.' }),
  chatChunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
  chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
  chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  chatChunk({}, 'tool_calls'),
  { ...chunkBase, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
  '[DONE]',
];

/** The head of a Chat upstream's JSON answer. */
const chatHead = (model: string) => ({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model });

const responsesUsage = (input: number, output: number, cached = 0, reasoning = 0) => ({
  input_tokens: input,
  input_tokens_details: { cached_tokens: cached },
  output_tokens: output,
  output_tokens_details: { reasoning_tokens: reasoning },
  total_tokens: input + output,
});

/** A Responses upstream's JSON answer. */
const responsesAnswer = (model: string, output: unknown[], usage: unknown) => ({
  id: 'resp_1',
  object: 'response',
  created_at: 1,
  status: 'completed',
  model,
  output,
  usage,
});

/** What the Responses stream encoder writes around a reasoning + text + function call turn (ids from the upstream's). */
const reasoningThenToolOutput = [
  { type: 'reasoning', id: 'rs_chatcmpl-1_0', summary: [{ type: 'summary_text', text: 'Need weather.' }] },
  {
    id: 'msg_chatcmpl-1_1',
    type: 'message',
    status: 'completed',
    content: [{ type: 'output_text', annotations: [], text: 'Checking.' }],
    role: 'assistant',
  },
  { id: 'fc_chatcmpl-1_2', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
];

describe('REGRESSIONS.md, OpenAI Chat <-> Responses', () => {
  it('R3: Responses reasoning items (id, encrypted_content) come back to the Responses upstream through a Chat client', () => {
    const { via, warnings } = bridged(openaiChat, openaiResponses);
    const first = via.request({ model: 'o4-mini', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [weatherTool] });
    expect(first.body).toEqual({
      model: 'o4-mini',
      input: 'Weather in Paris?',
      tools: [{ type: 'function', name: 'get_weather', parameters: weatherTool.function.parameters, strict: false }],
    });
    const answer = via.response(
      responsesAnswer(
        'o4-mini',
        [
          { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Need weather.' }], encrypted_content: 'ENC1' },
          { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
        ],
        responsesUsage(10, 20, 0, 12),
      ),
    ) as { choices: Array<{ message: { reasoning_content: string; tool_calls: Array<{ id: string; function: unknown }> } }> };
    const message = answer.choices[0]?.message;
    const call = message?.tool_calls[0];
    expect(message?.reasoning_content).toBe('Need weather.');
    // The reasoning item rides in the call id, after the upstream's own id.
    expect(call?.id.startsWith('call_1__llms1_')).toBe(true);
    expect(call?.function).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });

    // The Chat client echoes only standard fields: the tool call and its result.
    const second = via.request({
      model: 'o4-mini',
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: message?.tool_calls },
        { role: 'tool', tool_call_id: call?.id, content: 'sunny' },
      ],
    });
    expect(second.body).toEqual({
      model: 'o4-mini',
      input: [
        { type: 'message', role: 'user', content: 'Weather in Paris?' },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Need weather.' }], encrypted_content: 'ENC1' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
    });
    expect(warnings).toEqual([]);
  });

  it('R8: raw reasoning_text of a Responses upstream reaches a Chat client as reasoning_content, json and stream', async () => {
    const { via, warnings } = bridged(openaiChat, openaiResponses);
    via.request({ model: 'gpt-oss-120b', messages: [{ role: 'user', content: 'Hi' }] });
    const reasoning = { type: 'reasoning', id: 'rs_1', summary: [], content: [{ type: 'reasoning_text', text: 'Raw thought.' }] };
    const response = responsesAnswer(
      'gpt-oss-120b',
      [reasoning, { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hi', annotations: [] }] }],
      responsesUsage(3, 4, 0, 2),
    );
    expect(via.response(response)).toEqual({
      id: 'resp_1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-oss-120b',
      choices: [
        { index: 0, message: { role: 'assistant', reasoning_content: 'Raw thought.', content: 'Hi', refusal: null }, finish_reason: 'stop', logprobs: null },
      ],
      usage: {
        prompt_tokens: 3,
        completion_tokens: 4,
        total_tokens: 7,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 2 },
      },
    });

    const events = [
      { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [], usage: null } },
      { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } },
      {
        type: 'response.content_part.added',
        sequence_number: 2,
        item_id: 'rs_1',
        output_index: 0,
        content_index: 0,
        part: { type: 'reasoning_text', text: '' },
      },
      { type: 'response.reasoning_text.delta', sequence_number: 3, item_id: 'rs_1', output_index: 0, content_index: 0, delta: 'Raw thought.' },
      { type: 'response.reasoning_text.done', sequence_number: 4, item_id: 'rs_1', output_index: 0, content_index: 0, text: 'Raw thought.' },
      {
        type: 'response.content_part.done',
        sequence_number: 5,
        item_id: 'rs_1',
        output_index: 0,
        content_index: 0,
        part: { type: 'reasoning_text', text: 'Raw thought.' },
      },
      { type: 'response.output_item.done', sequence_number: 6, output_index: 0, item: reasoning },
      { type: 'response.completed', sequence_number: 7, response: { ...response, output: [reasoning] } },
    ];
    const chunk = { id: 'resp_1', object: 'chat.completion.chunk', created: 1, model: 'gpt-oss-120b' };
    expect(dataOf(await readText(via.stream(bytesStream([sseBytes(events, true)]))))).toEqual([
      { ...chunk, choices: [{ index: 0, delta: { role: 'assistant', reasoning_content: 'Raw thought.' }, finish_reason: null }] },
      { ...chunk, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      '[DONE]',
    ]);
    expect(warnings).toEqual([]);
  });

  it('R14: cached input tokens stay inside input tokens across Chat and Responses (no double counting)', () => {
    const { via } = bridged(openaiResponses, openaiChat);
    via.request({ model: 'gpt-4o', input: 'Hi' });
    const answer = via.response({
      ...chatHead('gpt-4o'),
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1200, completion_tokens: 5, total_tokens: 1205, prompt_tokens_details: { cached_tokens: 1000 } },
    }) as { usage: unknown };
    expect(answer.usage).toEqual(responsesUsage(1200, 5, 1000, 0));

    const back = bridged(openaiChat, openaiResponses).via;
    back.request({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
    const chat = back.response(
      responsesAnswer(
        'gpt-4o',
        [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello', annotations: [] }] }],
        responsesUsage(1200, 300, 1000, 250),
      ),
    ) as { usage: unknown };
    expect(chat.usage).toEqual({
      prompt_tokens: 1200,
      completion_tokens: 300,
      total_tokens: 1500,
      prompt_tokens_details: { cached_tokens: 1000 },
      completion_tokens_details: { reasoning_tokens: 250 },
    });
  });

  it('R17: a Chat upstream that stopped on length ends a streaming Responses client with response.incomplete, not completed', async () => {
    const { via } = bridged(openaiResponses, openaiChat);
    via.request({ model: 'gpt-4o', input: 'Write a story.', stream: true });
    const events = dataOf(
      await readText(
        via.responseToStream({
          id: 'chatcmpl-9',
          object: 'chat.completion',
          created: 1,
          model: 'gpt-4o',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Once upon' }, finish_reason: 'length' }],
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        }),
      ),
    ) as Array<{ type: string; response?: Record<string, unknown> }>;
    const last = events[events.length - 1];
    expect(events.map((event) => event.type).filter((type) => type.startsWith('response.') && !type.includes('.', 9))).toEqual([
      'response.created',
      'response.in_progress',
      'response.incomplete',
    ]);
    expect(last?.response?.status).toBe('incomplete');
    expect(last?.response?.incomplete_details).toEqual({ reason: 'max_output_tokens' });
  });

  it('R30: tool-call argument deltas after reasoning deltas stay intact (Chat upstream -> Responses client)', async () => {
    const { via, warnings } = bridged(openaiResponses, openaiChat);
    via.request({ model: 'deepseek-reasoner', input: 'Weather in Paris?', stream: true });
    const events = dataOf(await readText(via.stream(bytesStream([sseBytes(reasoningThenToolChunks)])))) as Array<Record<string, unknown>>;
    const argumentEvents = events.filter((event) => String(event.type).startsWith('response.function_call_arguments'));
    expect(argumentEvents).toEqual([
      { type: 'response.function_call_arguments.delta', item_id: 'fc_chatcmpl-1_2', output_index: 2, delta: '{"city":', sequence_number: 16 },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_chatcmpl-1_2', output_index: 2, delta: '"Paris"}', sequence_number: 17 },
      {
        type: 'response.function_call_arguments.done',
        item_id: 'fc_chatcmpl-1_2',
        output_index: 2,
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        sequence_number: 18,
      },
    ]);
    const completed = events[events.length - 1] as { type: string; response: { output: unknown[]; usage: unknown } };
    expect(completed.type).toBe('response.completed');
    expect(completed.response.output).toEqual(reasoningThenToolOutput);
    expect(completed.response.usage).toEqual(responsesUsage(10, 5));
    expect(warnings).toEqual([]);
  });

  it('R31: an SSE data line split across network chunks (one byte at a time) translates exactly like the whole stream', async () => {
    const bytes = sseBytes(reasoningThenToolChunks);
    const whole = bridged(openaiResponses, openaiChat).via;
    const split = bridged(openaiResponses, openaiChat).via;
    const expected = await readText(whole.stream(bytesStream([bytes])));
    const oneByteChunks = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(await readText(split.stream(bytesStream(oneByteChunks)))).toBe(expected);
  });

  it('R32: a multi-byte UTF-8 character straddling two chunks is not replaced by U+FFFD', async () => {
    const bytes = sseBytes([chatChunk({ role: 'assistant', content: 'Grüße, 東京 🌧' }), chatChunk({}, 'stop'), '[DONE]']);
    const emoji = encoder.encode('🌧');
    // Cut inside the four bytes of the emoji and inside the three bytes of 東.
    const at = (needle: Uint8Array, offset: number) => {
      for (let index = 0; index + needle.length <= bytes.length; index++) {
        if (needle.every((byte, position) => bytes[index + position] === byte)) return index + offset;
      }
      throw new Error('needle not found');
    };
    const cuts = [at(encoder.encode('東'), 1), at(emoji, 2)];
    const chunks = [bytes.slice(0, cuts[0]), bytes.slice(cuts[0], cuts[1]), bytes.slice(cuts[1])];
    const { via } = bridged(openaiResponses, openaiChat);
    via.request({ model: 'gpt-4o', input: 'Hi', stream: true });
    const text = await readText(via.stream(bytesStream(chunks)));
    expect(text).not.toContain('\uFFFD');
    const done = (dataOf(text) as Array<{ type: string; text?: string }>).find((event) => event.type === 'response.output_text.done');
    expect(done?.text).toBe('Grüße, 東京 🌧');
  });

  it('R39: text, reasoning and tool calls of one Chat turn all reach a Responses client once (json)', () => {
    const { via, warnings } = bridged(openaiResponses, openaiChat);
    via.request({ model: 'deepseek-reasoner', input: 'Weather in Paris?' });
    const answer = via.response({
      ...chatHead('deepseek-reasoner'),
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            reasoning_content: 'Need weather.',
            content: 'Checking.',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    }) as { output: unknown[] };
    expect(answer.output).toEqual([
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Need weather.' }], id: 'rs_chatcmpl-1_0' },
      {
        type: 'message',
        id: 'msg_chatcmpl-1_1',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Checking.', annotations: [] }],
      },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', id: 'fc_chatcmpl-1_2', status: 'completed' },
    ]);
    expect(warnings).toEqual([]);
  });

  it('R39: assistant text next to tool calls survives Responses -> Chat requests, each call once', () => {
    const { via, warnings } = bridged(openaiResponses, openaiChat);
    const out = via.request({
      model: 'gpt-4o',
      input: [
        { type: 'message', role: 'user', content: 'Weather in Paris?' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
    });
    expect(out.body).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          // Output text parts become Chat content parts (a valid assistant content form).
          content: [{ type: 'text', text: 'Checking.' }],
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
    });
    expect(warnings).toEqual([]);
  });

  it('R21: store:false with an encrypted reasoning item passes a Responses -> Responses route unchanged', () => {
    const { via } = bridged(openaiResponses, openaiResponses);
    const body = {
      model: 'o4-mini',
      store: false,
      include: ['reasoning.encrypted_content'],
      input: [
        { type: 'message', role: 'user', content: 'Weather in Paris?' },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'ENC1' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
    };
    const snapshot = structuredClone(body);
    const out = via.request(body, { upstreamModel: 'o4-mini-2025-04-16' });
    expect(out.body).toEqual({ ...snapshot, model: 'o4-mini-2025-04-16' });
  });

  it('R42: reasoning replayed to a Responses upstream through a Chat client carries its encrypted content inline, never null', () => {
    const { via } = bridged(openaiChat, openaiResponses);
    via.request({ model: 'o4-mini', messages: [{ role: 'user', content: 'Hi' }], tools: [weatherTool] });
    const answer = via.response(
      responsesAnswer(
        'o4-mini',
        [
          { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'ENC1' },
          { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}', status: 'completed' },
        ],
        responsesUsage(1, 1),
      ),
    ) as { choices: Array<{ message: { tool_calls: Array<{ id: string }> } }> };
    const calls = answer.choices[0]?.message.tool_calls ?? [];
    const next = via.request({
      model: 'o4-mini',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: null, tool_calls: calls },
        { role: 'tool', tool_call_id: calls[0]?.id, content: 'rain' },
      ],
    }) as { body: { input: Array<Record<string, unknown>> } };
    expect(next.body.input[1]).toEqual({ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'ENC1' });
    expect(JSON.stringify(next.body)).not.toContain('"encrypted_content":null');
  });
});

describe('REGRESSIONS.md, handler state (previous_response_id, count tokens)', () => {
  const upstreams: MockUpstream[] = [];
  afterEach(async () => {
    await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
  });

  /** A Chat upstream answering a tool call first, then text. */
  async function chatUpstream(): Promise<MockUpstream> {
    const mock = await startUpstream((_request, response, index) =>
      json(response, 200, {
        id: `chatcmpl-${index}`,
        object: 'chat.completion',
        created: 1,
        model: 'gpt-4o',
        choices: [
          index === 0
            ? {
                index: 0,
                message: {
                  role: 'assistant',
                  content: null,
                  tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
                },
                finish_reason: 'tool_calls',
              }
            : { index: 0, message: { role: 'assistant', content: 'Sunny in Paris.' }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
      }),
    );
    upstreams.push(mock);
    return mock;
  }

  const config = (baseUrl: string, extra: Partial<RouterConfig> = {}): RouterConfig => ({
    codecs: { 'openai-chat': openaiChat, 'openai-responses': openaiResponses, claude },
    upstreams: { chat: { protocol: 'openai-chat', baseUrl: `${baseUrl}/v1`, apiKey: 'server-key' } },
    routes: [{ match: '*', upstream: 'chat' }],
    retryBaseDelayMs: 1,
    ...extra,
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    new Request(`http://router.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  const responsesTools = [{ type: 'function', name: 'get_weather', parameters: weatherTool.function.parameters }];
  const firstTurn = { model: 'gpt-4o', input: 'Weather in Paris?', tools: responsesTools };
  const secondTurn = (previous: string) => ({
    model: 'gpt-4o',
    previous_response_id: previous,
    tools: responsesTools,
    input: [{ type: 'function_call_output', call_id: 'call_1', output: 'sunny' }],
  });
  /** What the Chat upstream must receive on the second turn: the whole conversation. */
  const secondUpstreamMessages = [
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
  ];

  it('R5: previous_response_id of a Responses client of a Chat upstream is the id the client saw, and replays the turn', async () => {
    const mock = await chatUpstream();
    const handler = createHandler(config(mock.baseUrl));
    const first = (await (await handler(post('/v1/responses', firstTurn))).json()) as { id: string; output: unknown[] };
    // The router's own id (the Chat upstream's `chatcmpl-0` may repeat), its items named after it.
    expect(first.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(first.output).toEqual([
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', id: `fc_${first.id.slice(5)}_0`, status: 'completed' },
    ]);
    const second = await handler(post('/v1/responses', secondTurn(first.id)));
    expect(second.status).toBe(200);
    expect((mock.received[1]?.body as { messages: unknown }).messages).toEqual(secondUpstreamMessages);
    const secondAnswer = (await second.json()) as { id: string; output: unknown[] };
    expect(secondAnswer.output).toEqual([
      {
        type: 'message',
        id: `msg_${secondAnswer.id.slice(5)}_0`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Sunny in Paris.', annotations: [] }],
      },
    ]);
  });

  it('R43: a previous_response_id continuation carrying only a function_call_output gets its function_call from the stored turn', async () => {
    const mock = await chatUpstream();
    const handler = createHandler(config(mock.baseUrl));
    const first = (await (await handler(post('/v1/responses', firstTurn))).json()) as { id: string };
    await handler(post('/v1/responses', secondTurn(first.id)));
    // The call precedes its output, and appears exactly once.
    expect((mock.received[1]?.body as { messages: unknown }).messages).toEqual(secondUpstreamMessages);
  });

  it('R6: chaining across two router instances works with a shared state store, and fails clearly (404) without one', async () => {
    const mock = await chatUpstream();
    const shared = new MemoryStateStore();
    const one = createHandler(config(mock.baseUrl, { stateStore: shared }));
    const two = createHandler(config(mock.baseUrl, { stateStore: shared }));
    const first = (await (await one(post('/v1/responses', firstTurn))).json()) as { id: string };
    const second = await two(post('/v1/responses', secondTurn(first.id)));
    expect(second.status).toBe(200);
    expect((mock.received[1]?.body as { messages: unknown }).messages).toEqual(secondUpstreamMessages);

    const isolated = createHandler(config(mock.baseUrl));
    const lost = await isolated(post('/v1/responses', secondTurn(first.id)));
    expect(lost.status).toBe(404);
    expect(((await lost.json()) as { error: { message: string } }).error.message).toContain(`previous response ${first.id} not found`);
    // Nothing half-translated reached the upstream.
    expect(mock.received).toHaveLength(2);
  });

  it('R13: count tokens the upstream cannot answer is an over-estimate marked as such, never a silent low count', async () => {
    const mock = await chatUpstream();
    const handler = createHandler(config(mock.baseUrl));
    const body = { model: 'gpt-4o', input: 'x'.repeat(300) };
    const response = await handler(post('/v1/responses/input_tokens', body));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-llm-token-count')).toBe('estimate');
    const counted = (await response.json()) as { object: string; input_tokens: number };
    expect(counted).toEqual({ object: 'response.input_tokens', input_tokens: Math.ceil(JSON.stringify(body).length / 3) });
    // 300 characters of text are ~75 real tokens; the estimate is above that.
    expect(counted.input_tokens).toBeGreaterThan(100);
    expect(mock.received).toHaveLength(0);
  });

  it('R12: /v1/messages/count_tokens?beta=true is served (no 404 on every Claude Code turn)', async () => {
    const mock = await chatUpstream();
    const handler = createHandler(config(mock.baseUrl));
    const body = { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] };
    const response = await handler(post('/v1/messages/count_tokens?beta=true', body));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ input_tokens: Math.ceil(JSON.stringify(body).length / 3) });
  });

  it('R26: a count-tokens call never reaches an upstream without that endpoint, so it cannot mark the model missing', async () => {
    const mock = await chatUpstream();
    const handler = createHandler(config(mock.baseUrl));
    const body = { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };
    expect((await handler(post('/v1/messages/count_tokens', body))).status).toBe(200);
    expect(mock.received).toHaveLength(0);
    // The route keeps working right after.
    const answer = await handler(post('/v1/messages', body));
    expect(answer.status).toBe(200);
    expect(mock.received.map((request) => request.url)).toEqual(['/v1/chat/completions']);
  });

  it("R33: with countTokens 'upstream', a same-protocol upstream's own count is passed through (route model), and a failing one falls back to the estimate", async () => {
    let answer404 = false;
    const mock = await startUpstream((_request, response) => {
      if (answer404) json(response, 404, { type: 'error', error: { type: 'not_found_error', message: 'no count here' } });
      else json(response, 200, { input_tokens: 1234 });
    });
    upstreams.push(mock);
    const handler = createHandler({
      codecs: { claude },
      upstreams: { anthropic: { protocol: 'claude', baseUrl: mock.baseUrl, apiKey: 'server-key' } },
      routes: [{ match: 'claude-*', upstream: 'anthropic', model: 'claude-sonnet-4-5-20250929' }],
      countTokens: 'upstream',
    });
    const body = { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] };
    const counted = await handler(post('/v1/messages/count_tokens', body, { 'anthropic-beta': 'token-counting-2024-11-01' }));
    expect(counted.headers.get('x-llm-token-count')).toBe('upstream');
    expect(await counted.json()).toEqual({ input_tokens: 1234 });
    expect(mock.received[0]).toMatchObject({ method: 'POST', url: '/v1/messages/count_tokens', body: { ...body, model: 'claude-sonnet-4-5-20250929' } });
    expect(mock.received[0]?.headers['x-api-key']).toBe('server-key');
    // The client's betas go on to the same-protocol count, as for generation.
    expect(mock.received[0]?.headers['anthropic-beta']).toBe('token-counting-2024-11-01');

    answer404 = true;
    const fallback = await handler(post('/v1/messages/count_tokens', body));
    expect(fallback.status).toBe(200);
    expect(fallback.headers.get('x-llm-token-count')).toBe('estimate');
    expect(await fallback.json()).toEqual({ input_tokens: Math.ceil(JSON.stringify(body).length / 3) });
  });

  it('R25: the count-tokens estimate includes the system prompt, tool definitions and message overhead', async () => {
    const mock = await chatUpstream();
    const handler = createHandler(config(mock.baseUrl));
    const count = async (body: unknown) => ((await (await handler(post('/v1/responses/input_tokens', body))).json()) as { input_tokens: number }).input_tokens;
    const bare = await count({ model: 'gpt-4o', input: 'Hi' });
    const instructions = 'You are a careful assistant. '.repeat(10);
    const withSystem = await count({ model: 'gpt-4o', instructions, input: 'Hi' });
    const withTools = await count({ model: 'gpt-4o', input: 'Hi', tools: responsesTools });
    // Each part adds at least a token per three bytes of its JSON (rounding may take one).
    expect(withSystem - bare).toBeGreaterThanOrEqual(Math.floor(JSON.stringify({ instructions }).length / 3) - 1);
    expect(withTools - bare).toBeGreaterThanOrEqual(Math.floor(JSON.stringify({ tools: responsesTools }).length / 3) - 1);
  });
});

/** Claude SSE events as `{event, data}` pairs, for exact sequence assertions. */
function claudeEvents(text: string): unknown[] {
  return dataOf(text);
}

const claudeTool = { name: 'read', input_schema: { type: 'object', properties: { p: { type: 'string' } } } };
const chatReadTool = { type: 'function', function: { name: 'read', parameters: { type: 'object', properties: { p: { type: 'string' } } } } };

describe('REGRESSIONS.md, Claude Messages', () => {
  const chatToClaude = (body: Record<string, unknown>) => {
    const { via, warnings } = bridged(openaiChat, claude);
    return { body: via.request({ model: 'claude-sonnet-4-5', max_tokens: 512, messages: [{ role: 'user', content: 'hi' }], ...body }).body, warnings };
  };
  const claudeRequest = (extra: Record<string, unknown>) => ({
    model: 'claude-sonnet-4-5',
    max_tokens: 512,
    messages: [{ role: 'user', content: 'hi' }],
    tools: [{ name: 'get_weather', input_schema: weatherTool.function.parameters }],
    ...extra,
  });

  it('R11: parallel_tool_calls:false maps to disable_parallel_tool_use, not an error', () => {
    const { body, warnings } = chatToClaude({ tools: [weatherTool], parallel_tool_calls: false });
    expect(body).toEqual(claudeRequest({ tool_choice: { type: 'auto', disable_parallel_tool_use: true } }));
    expect(warnings).toEqual([]);
  });

  it('R51: parallel_tool_calls alone never synthesizes a forced tool choice', () => {
    expect(chatToClaude({ tools: [weatherTool], parallel_tool_calls: true }).body).toEqual(claudeRequest({}));
  });

  it('R38: tool_choice none with parallel_tool_calls:false is a plain {type:"none"} (Claude none takes no parallel flag)', () => {
    const { body, warnings } = chatToClaude({ tools: [weatherTool], tool_choice: 'none', parallel_tool_calls: false });
    expect(body).toEqual(claudeRequest({ tool_choice: { type: 'none' } }));
    expect(warnings).toEqual([]);
  });

  it('R41: tool_choice none maps to Claude {type:"none"}', () => {
    expect(chatToClaude({ tools: [weatherTool], tool_choice: 'none' }).body).toEqual(claudeRequest({ tool_choice: { type: 'none' } }));
  });

  it('R35: a Chat tool without parameters becomes a Claude tool with an empty object schema, not dropped', () => {
    const { body, warnings } = chatToClaude({ tools: [{ type: 'function', function: { name: 'now' } }] });
    expect(body).toEqual(claudeRequest({ tools: [{ name: 'now', input_schema: { type: 'object', properties: {} } }] }));
    expect(warnings).toEqual([]);
  });

  it('R19: Chat function tools become Claude tools Anthropic accepts (name, description, input_schema object, strict)', () => {
    const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    const { body } = chatToClaude({ tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', strict: true, parameters } }] });
    expect(body).toEqual(claudeRequest({ tools: [{ name: 'get_weather', description: 'Weather', input_schema: parameters, strict: true }] }));
  });

  it('R49: a Chat request without max_tokens gets a default max_tokens for Claude, reported as defaulted', () => {
    const { via, warnings } = bridged(openaiChat, claude);
    expect(via.request({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] }).body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(warnings).toEqual(['defaulted@max_tokens']);
  });

  it('issue 18: a Gemini thinkingBudget with no output limit reaches Claude with max_tokens above the budget (one owner: the Claude encoder)', () => {
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      generationConfig: { thinkingConfig: { thinkingBudget: 8000 } },
    };
    for (const stream of [false, true]) {
      const { via, warnings } = bridged(gemini, claude);
      const out = via.request(structuredClone(body), { model: 'gemini-2.5-pro', upstreamModel: 'claude-sonnet-4-5', stream });
      expect(out.body).toEqual({
        model: 'claude-sonnet-4-5',
        max_tokens: 12096,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
        thinking: { type: 'enabled', budget_tokens: 8000 },
        stream,
      });
      expect(warnings).toEqual(['defaulted@max_tokens']);
    }
    // Without a budget the default stays 4096.
    const { via } = bridged(gemini, claude);
    const plain = via.request(
      { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      { model: 'gemini-2.5-pro', upstreamModel: 'claude-sonnet-4-5', stream: false },
    );
    expect(plain.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      stream: false,
    });
  });

  it('R37: reasoning effort and a JSON schema format both reach Claude output_config', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
    const { body, warnings } = chatToClaude({
      reasoning_effort: 'high',
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema, strict: true } },
    });
    expect(body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 512,
      messages: [{ role: 'user', content: 'hi' }],
      output_config: { effort: 'high', format: { type: 'json_schema', schema } },
    });
    // Claude's format has no name: the one thing lost, and said.
    expect(warnings).toEqual(['dropped-field@responseFormat.name']);
  });

  it('R34: empty assistant content never reaches Claude as an empty text block or an empty message', () => {
    const { body } = chatToClaude({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"p":"a"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'A' },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'and?' },
      ],
    });
    expect(body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 512,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'read', input: { p: 'a' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: 'A' },
            { type: 'text', text: 'and?' },
          ],
        },
      ],
    });
  });

  it('R50: Claude tool_result blocks become separate role:tool messages in call order, and tools without type are accepted', () => {
    const { via, warnings } = bridged(claude, openaiChat);
    const out = via.request({
      model: 'gpt-4o',
      max_tokens: 100,
      tools: [claudeTool],
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Reading both.' },
            { type: 'tool_use', id: 'toolu_1', name: 'read', input: { p: 'a' } },
            { type: 'tool_use', id: 'toolu_2', name: 'read', input: { p: 'b' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_2', content: 'B' },
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'A' },
            { type: 'text', text: 'thanks' },
          ],
        },
      ],
    });
    expect(out.body).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [{ type: 'text', text: 'Reading both.' }],
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'read', arguments: '{"p":"a"}' } },
            { id: 'toolu_2', type: 'function', function: { name: 'read', arguments: '{"p":"b"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'A' },
        { role: 'tool', tool_call_id: 'toolu_2', content: 'B' },
        { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
      ],
      max_completion_tokens: 100,
      tools: [chatReadTool],
    });
    expect(warnings).toEqual([]);
  });

  it('R39: Claude assistant text next to tool_use survives to Chat (see R50), and Chat text + tool calls reach a Claude client', () => {
    const { via } = bridged(claude, openaiChat);
    via.request({ model: 'gpt-4o', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    const answer = via.response({
      ...chatHead('gpt-4o'),
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Reading.',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"p":"a"}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    }) as { content: unknown[]; stop_reason: string };
    expect(answer.content).toEqual([
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: 'call_1', name: 'read', input: { p: 'a' } },
    ]);
    expect(answer.stop_reason).toBe('tool_use');
  });

  it('R4: Claude thinking sent to a Chat upstream becomes reasoning_content (not text), and Chat reasoning comes back as thinking', () => {
    const { via, warnings } = bridged(claude, openaiChat);
    const out = via.request({
      model: 'gpt-4o',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Plan.', signature: 'SIG_A' },
            { type: 'tool_use', id: 'toolu_1', name: 'read', input: {} },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] },
      ],
    });
    expect(out.body).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', reasoning_content: 'Plan.', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'read', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'x' },
      ],
      max_completion_tokens: 100,
    });
    // Claude's signature means nothing to Chat: reported, not forwarded.
    expect(warnings).toEqual(['foreign-state@messages[1].content[0]']);
    const answer = via.response({
      ...chatHead('gpt-4o'),
      choices: [{ index: 0, message: { role: 'assistant', reasoning_content: 'Plan.', content: 'Done.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    }) as { content: unknown[] };
    expect(answer.content).toEqual([
      { type: 'thinking', thinking: 'Plan.', signature: '' },
      { type: 'text', text: 'Done.' },
    ]);
  });

  it('R29: reasoning a Chat upstream produced is echoed back as reasoning_content on the tool turn', () => {
    const { via } = bridged(claude, openaiChat);
    const out = via.request({
      model: 'deepseek-reasoner',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'hi' },
        // What a Claude client got from R4's answer (unsigned thinking), echoed with the tool call.
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Need the file.', signature: '' },
            { type: 'tool_use', id: 'call_1', name: 'read', input: { p: 'a' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'A' }] },
      ],
    }) as { body: { messages: unknown[] } };
    expect(out.body.messages[1]).toEqual({
      role: 'assistant',
      reasoning_content: 'Need the file.',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"p":"a"}' } }],
    });
  });

  it('R48: tool_use id, name and input survive Claude -> Chat -> Claude, so the next tool_result matches its call', () => {
    const { via } = bridged(claude, openaiChat);
    via.request({ model: 'gpt-4o', max_tokens: 100, tools: [claudeTool], messages: [{ role: 'user', content: 'read a' }] });
    const answer = via.response({
      ...chatHead('gpt-4o'),
      choices: [
        {
          index: 0,
          message: { role: 'assistant', tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'read', arguments: '{"p":"a"}' } }] },
          finish_reason: 'tool_calls',
        },
      ],
    }) as { content: Array<{ id: string }> };
    expect(answer.content).toEqual([{ type: 'tool_use', id: 'call_9', name: 'read', input: { p: 'a' } }]);
    const next = via.request({
      model: 'gpt-4o',
      max_tokens: 100,
      tools: [claudeTool],
      messages: [
        { role: 'user', content: 'read a' },
        { role: 'assistant', content: answer.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: answer.content[0]?.id, content: 'A' }] },
      ],
    }) as { body: { messages: unknown[] } };
    expect(next.body.messages.slice(1)).toEqual([
      { role: 'assistant', tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'read', arguments: '{"p":"a"}' } }] },
      { role: 'tool', tool_call_id: 'call_9', content: 'A' },
    ]);
  });

  it('R47: Claude input_tokens exclude cache reads when translated from Chat usage', () => {
    const { via } = bridged(claude, openaiChat);
    via.request({ model: 'gpt-4o', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    const answer = via.response({
      ...chatHead('gpt-4o'),
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1200, completion_tokens: 5, total_tokens: 1205, prompt_tokens_details: { cached_tokens: 1000 } },
    }) as { usage: unknown };
    expect(answer.usage).toEqual({ input_tokens: 200, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000 });
  });

  /** A Chat upstream streaming text, then two parallel calls whose chunks interleave and repeat the name. */
  const parallelChunks = [
    chatChunk({ role: 'assistant', content: 'Let me check.' }),
    chatChunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"p":' } }] }),
    chatChunk({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'read', arguments: '{"p":"b"}' } }] }),
    chatChunk({ tool_calls: [{ index: 0, function: { name: 'read', arguments: '"a"}' } }] }),
    // The upstream says stop on a text + tool turn (R15), without a usage chunk (R36).
    chatChunk({}, 'stop'),
    '[DONE]',
  ];
  const textBlock = { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } };
  const delta = (index: number, json: string) => ({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json } });
  const toolStart = (index: number, id: string) => ({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: 'read', input: {} } });

  it('R1 / R20 / R36: a Claude client stream from a Chat upstream starts every block once before its deltas and closes each', async () => {
    const { via } = bridged(claude, openaiChat);
    via.request({ model: 'gpt-4o', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const events = claudeEvents(await readText(via.stream(bytesStream([sseBytes(parallelChunks)]))));
    expect(events).toEqual([
      {
        type: 'message_start',
        message: {
          id: 'chatcmpl-1',
          type: 'message',
          role: 'assistant',
          model: 'deepseek-reasoner',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      },
      textBlock,
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me check.' } },
      { type: 'content_block_stop', index: 0 },
      toolStart(1, 'call_1'),
      delta(1, '{"p":'),
      // The repeated name does not restart call_1's block (no second content_block_start, no input reset).
      delta(1, '"a"}'),
      { type: 'content_block_stop', index: 1 },
      // call_2 started while call_1 was open: it is held and follows, one block at a time (R20).
      toolStart(2, 'call_2'),
      delta(2, '{"p":"b"}'),
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 0, output_tokens: 0 } },
      { type: 'message_stop' },
    ]);
    // Every delta and stop names the one open block (the SDK's "Content block not found").
    let open: number | undefined;
    for (const event of events as Array<{ type: string; index?: number }>) {
      if (event.type === 'content_block_start') {
        expect(open).toBeUndefined();
        open = event.index;
      } else if (event.type === 'content_block_delta') expect(event.index).toBe(open);
      else if (event.type === 'content_block_stop') {
        expect(event.index).toBe(open);
        open = undefined;
      }
    }
    expect(open).toBeUndefined();
  });

  it('R15: a text + tool turn the Chat upstream finished with stop ends the Claude stream with stop_reason tool_use', async () => {
    const { via } = bridged(claude, openaiChat);
    via.request({ model: 'gpt-4o', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const events = claudeEvents(await readText(via.stream(bytesStream([sseBytes(parallelChunks)])))) as Array<{ type: string; delta?: unknown }>;
    expect(events.filter((event) => event.type === 'message_delta').map((event) => event.delta)).toEqual([{ stop_reason: 'tool_use', stop_sequence: null }]);
  });

  it('R36: the last argument delta arriving with finish_reason (no usage chunk) is kept', async () => {
    const { via } = bridged(claude, openaiChat);
    via.request({ model: 'gpt-4o', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const chunks = [
      chatChunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"p":' } }] }),
      { ...chunkBase, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"z"}' } }] }, finish_reason: 'tool_calls' }] },
      '[DONE]',
    ];
    const events = claudeEvents(await readText(via.stream(bytesStream([sseBytes(chunks)]))));
    expect(events.slice(1, 5)).toEqual([toolStart(0, 'call_1'), delta(0, '{"p":'), delta(0, '"z"}'), { type: 'content_block_stop', index: 0 }]);
  });

  it('R46: Claude stream usage from a Chat upstream arrives in message_delta, cache reads outside input_tokens', async () => {
    const { via } = bridged(claude, openaiChat);
    const sent = via.request({ model: 'gpt-4o', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] }) as {
      body: Record<string, unknown>;
    };
    // The router asks the Chat upstream for usage.
    expect(sent.body.stream_options).toEqual({ include_usage: true });
    const chunks = [
      chatChunk({ role: 'assistant', content: 'Hi' }),
      chatChunk({}, 'stop'),
      { ...chunkBase, choices: [], usage: { prompt_tokens: 1200, completion_tokens: 5, total_tokens: 1205, prompt_tokens_details: { cached_tokens: 1000 } } },
      '[DONE]',
    ];
    const events = claudeEvents(await readText(via.stream(bytesStream([sseBytes(chunks)])))) as Array<{ type: string; usage?: unknown }>;
    expect(events.find((event) => event.type === 'message_delta')?.usage).toEqual({
      input_tokens: 200,
      output_tokens: 5,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 1000,
    });
  });

  it('R40: two tool_use blocks streamed by Claude become two separate Chat tool calls', async () => {
    const { via } = bridged(openaiChat, claude);
    via.request({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
    });
    const message = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    };
    const events = [
      { type: 'message_start', message },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'read', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"p":"a"}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_2', name: 'read', input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"p":"b"}' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } },
      { type: 'message_stop' },
    ];
    const chunks = dataOf(await readText(via.stream(bytesStream([sseBytes(events, true)])))) as Array<{
      choices?: Array<{ delta: unknown; finish_reason: unknown }>;
    }>;
    expect(chunks.flatMap((chunk) => chunk.choices ?? []).map((choice) => [choice.delta, choice.finish_reason])).toEqual([
      [{ role: 'assistant', tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: 'read', arguments: '' } }] }, null],
      [{ tool_calls: [{ index: 0, function: { arguments: '{"p":"a"}' } }] }, null],
      [{ tool_calls: [{ index: 1, id: 'toolu_2', type: 'function', function: { name: 'read', arguments: '' } }] }, null],
      [{ tool_calls: [{ index: 1, function: { arguments: '{"p":"b"}' } }] }, null],
      [{}, 'tool_calls'],
    ]);
  });

  it('R16: a Responses upstream answering only function_call items gives a Claude client stop_reason tool_use', () => {
    const { via } = bridged(claude, openaiResponses);
    via.request({ model: 'gpt-4.1', max_tokens: 100, tools: [claudeTool], messages: [{ role: 'user', content: 'read a' }] });
    const answer = via.response(
      responsesAnswer(
        'gpt-4.1',
        [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'read', arguments: '{"p":"a"}', status: 'completed' }],
        responsesUsage(1, 1),
      ),
    ) as { content: unknown; stop_reason: string };
    expect(answer.content).toEqual([{ type: 'tool_use', id: 'call_1', name: 'read', input: { p: 'a' } }]);
    expect(answer.stop_reason).toBe('tool_use');
  });

  it('R18: a tool_choice naming a Claude server tool the Responses upstream does not get is not sent dangling', () => {
    const { via, warnings } = bridged(claude, openaiResponses);
    const out = via.request({
      model: 'gpt-4.1',
      max_tokens: 100,
      // bash is a Claude server tool with no cross-protocol form (web search now has one).
      tools: [{ type: 'bash_20250124', name: 'bash' }, claudeTool],
      tool_choice: { type: 'tool', name: 'bash' },
      messages: [{ role: 'user', content: 'news?' }],
    });
    expect(out.body).toEqual({
      model: 'gpt-4.1',
      input: 'news?',
      tools: [{ type: 'function', name: 'read', parameters: claudeTool.input_schema, strict: false }],
      tool_choice: 'auto',
      max_output_tokens: 100,
    });
    expect(warnings.sort()).toEqual(['dropped-field@tool_choice', 'dropped-tool@tools[0]']);
  });

  it('R3: a Responses reasoning item shown to a Claude client as thinking comes back with its id and encrypted content', () => {
    const { via, warnings } = bridged(claude, openaiResponses);
    via.request({ model: 'o4-mini', max_tokens: 100, tools: [claudeTool], messages: [{ role: 'user', content: 'read a' }] });
    const answer = via.response(
      responsesAnswer(
        'o4-mini',
        [
          { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Read it.' }], encrypted_content: 'ENC1' },
          { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'read', arguments: '{"p":"a"}', status: 'completed' },
        ],
        responsesUsage(1, 1),
      ),
    ) as { content: Array<{ type: string; signature?: string }> };
    expect(answer.content[0]?.signature?.startsWith('llms1_')).toBe(true);
    const next = via.request({
      model: 'o4-mini',
      max_tokens: 100,
      tools: [claudeTool],
      messages: [
        { role: 'user', content: 'read a' },
        { role: 'assistant', content: answer.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'A' }] },
      ],
    }) as { body: { input: unknown[] } };
    expect(next.body.input).toEqual([
      { type: 'message', role: 'user', content: 'read a' },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Read it.' }], encrypted_content: 'ENC1' },
      { type: 'function_call', call_id: 'call_1', name: 'read', arguments: '{"p":"a"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'A' },
    ]);
    expect(warnings).toEqual([]);
  });
});

describe('REGRESSIONS.md, Gemini', () => {
  const chatRequest = (extra: Record<string, unknown>) => {
    const { via, warnings } = bridged(openaiChat, gemini);
    return {
      body: via.request({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'x' }], ...extra }).body as Record<string, unknown>,
      warnings,
      via,
    };
  };
  /** The declaration Gemini gets for one Chat tool with these parameters. */
  const declarationFor = (parameters: Record<string, unknown>) => {
    const { body } = chatRequest({ tools: [{ type: 'function', function: { name: 'f', parameters } }] });
    return (body.tools as Array<{ functionDeclarations: unknown[] }>)[0]?.functionDeclarations[0];
  };

  it('R9: a response schema with $ref/$defs reaches Gemini self-contained, as JSON Schema (never the OpenAPI responseSchema)', () => {
    const schema = {
      type: 'object',
      $defs: { City: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      properties: { city: { $ref: '#/$defs/City' } },
      required: ['city'],
    };
    const { body, warnings } = chatRequest({ response_format: { type: 'json_schema', json_schema: { name: 's', schema } } });
    expect(body.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: {
        type: 'object',
        properties: { city: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
        required: ['city'],
      },
    });
    // The schema name has no Gemini field: reported, never silent.
    expect(warnings).toEqual(['dropped-field@responseFormat.name']);
  });

  it('R10: `default` in tool parameters goes through parametersJsonSchema, never the OpenAPI `parameters` that rejects it', () => {
    const parameters = { type: 'object', properties: { unit: { type: 'string', default: 'c' } } };
    expect(declarationFor(parameters)).toEqual({ name: 'f', parametersJsonSchema: parameters });
  });

  it('R24: union type arrays, allOf and exclusiveMinimum reach Gemini as standard JSON Schema', () => {
    const parameters = {
      type: 'object',
      properties: { n: { type: ['integer', 'null'], exclusiveMinimum: 0 }, both: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }] } },
    };
    expect(declarationFor(parameters)).toEqual({ name: 'f', parametersJsonSchema: parameters });
  });

  it('R44: optional (nullable) arrays and enums keep their JSON Schema form, with no OpenAPI any_of/"null" rewrite', () => {
    const parameters = { type: 'object', properties: { tags: { type: ['array', 'null'], items: { type: 'string' } }, unit: { enum: ['c', 'f', null] } } };
    expect(declarationFor(parameters)).toEqual({ name: 'f', parametersJsonSchema: parameters });
  });

  it('R45: numeric enums and enums without type are valid JSON Schema for parametersJsonSchema and pass unchanged', () => {
    const parameters = { type: 'object', properties: { level: { enum: [1, 2, 3] }, flag: { type: 'boolean', enum: [true] } } };
    expect(declarationFor(parameters)).toEqual({ name: 'f', parametersJsonSchema: parameters });
  });

  it('R52: function responses take the name of the call they answer and follow the calls order (Gemini pairs by position)', () => {
    const { body } = chatRequest({
      messages: [
        { role: 'user', content: 'x' },
        {
          role: 'assistant',
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'read', arguments: '{"p":"a"}' } },
            { id: 'call_b', type: 'function', function: { name: 'list', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_b', content: 'B' },
        { role: 'tool', tool_call_id: 'call_a', content: 'A' },
      ],
    });
    expect((body.contents as unknown[])[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'read', response: { output: 'A' }, id: 'call_a' } },
        { functionResponse: { name: 'list', response: { output: 'B' }, id: 'call_b' } },
      ],
    });
  });

  it('R7: images inside a Claude tool_result reach Gemini nested in functionResponse.parts', () => {
    const { via, warnings } = bridged(claude, gemini);
    const body = via.request({
      model: 'gemini-2.5-flash',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'shot', input: {} }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: [
                { type: 'text', text: 'here' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
              ],
            },
          ],
        },
      ],
    }).body as { contents: unknown[] };
    expect(body.contents[2]).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            name: 'shot',
            response: { output: 'here' },
            id: 'toolu_1',
            parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }],
          },
        },
      ],
    });
    expect(warnings).toEqual([]);
  });

  it("R23: Claude Code's defer_loading tool field is not forwarded into Gemini function declarations", () => {
    const { via } = bridged(claude, gemini);
    const body = via.request({
      model: 'gemini-2.5-flash',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ name: 'read', description: 'Read a file', input_schema: { type: 'object' }, defer_loading: true }],
    }).body as { tools: unknown };
    expect(body.tools).toEqual([{ functionDeclarations: [{ name: 'read', description: 'Read a file', parametersJsonSchema: { type: 'object' } }] }]);
  });

  /** A Gemini 3 turn with two parallel calls of the same function, only the first signed (as Gemini does). */
  const geminiCalls = {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: 'read', args: { p: 'a' } }, thoughtSignature: 'GSIG1' }, { functionCall: { name: 'read', args: { p: 'b' } } }],
        },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 },
    modelVersion: 'gemini-3-pro-preview',
    responseId: 'r1',
  };

  /** Sends the Chat client's echo of `calls` with both results; returns the Gemini model turn. */
  const echo = (via: ReturnType<typeof bridged>['via'], calls: Array<{ id: string; function: unknown }>) => {
    const body = via.request({
      model: 'gemini-3-pro-preview',
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', tool_calls: calls.map((call) => ({ ...call, type: 'function' })) },
        ...calls.map((call, index) => ({ role: 'tool', tool_call_id: call.id, content: `result ${index}` })),
      ],
    }).body as { contents: Array<{ parts: unknown[] }> };
    return body.contents;
  };

  const expectedReplay = [
    { role: 'user', parts: [{ text: 'x' }] },
    {
      role: 'model',
      parts: [
        { functionCall: { name: 'read', args: { p: 'a' }, id: 'call_r1_0' }, thoughtSignature: 'GSIG1' },
        { functionCall: { name: 'read', args: { p: 'b' }, id: 'call_r1_1' } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { name: 'read', response: { output: 'result 0' }, id: 'call_r1_0' } },
        { functionResponse: { name: 'read', response: { output: 'result 1' }, id: 'call_r1_1' } },
      ],
    },
  ];

  it('R2: a streamed Gemini thoughtSignature survives a Chat client in the tool-call id and comes back on turn 2', async () => {
    const { via, warnings } = bridged(openaiChat, gemini);
    via.request({ model: 'gemini-3-pro-preview', stream: true, messages: [{ role: 'user', content: 'x' }] });
    const chunks = dataOf(await readText(via.stream(bytesStream([encoder.encode(`data: ${JSON.stringify(geminiCalls)}\r\n\r\n`)]))));
    const calls = new Map<number, { id: string; function: { name: string; arguments: string } }>();
    for (const chunk of chunks as Array<{
      choices?: Array<{ delta: { tool_calls?: Array<{ index: number; id?: string; function: { name?: string; arguments: string } }> } }>;
    }>) {
      for (const call of chunk.choices?.[0]?.delta.tool_calls ?? []) {
        const known = calls.get(call.index);
        if (known) known.function.arguments += call.function.arguments;
        else calls.set(call.index, { id: call.id as string, function: { name: call.function.name as string, arguments: call.function.arguments } });
      }
    }
    const [first, second] = [calls.get(0), calls.get(1)];
    expect(first?.id.startsWith('call_r1_0__llms1_')).toBe(true);
    expect(second?.id).toBe('call_r1_1');
    expect(echo(via, [first, second] as Array<{ id: string; function: unknown }>)).toEqual(expectedReplay);
    expect(warnings).toEqual([]);
  });

  it('R27: the same signature round trip works for a non-streaming Chat client', () => {
    const { via } = bridged(openaiChat, gemini);
    via.request({ model: 'gemini-3-pro-preview', messages: [{ role: 'user', content: 'x' }] });
    const answer = via.response(geminiCalls) as { choices: Array<{ message: { tool_calls: Array<{ id: string; function: unknown }> } }> };
    expect(echo(via, answer.choices[0]?.message.tool_calls ?? [])).toEqual(expectedReplay);
  });

  it('R53: with parallel calls of the same function, the signature returns to the call that carried it (per call id, not per name)', () => {
    const { via } = bridged(openaiChat, gemini);
    via.request({ model: 'gemini-3-pro-preview', messages: [{ role: 'user', content: 'x' }] });
    const answer = via.response(geminiCalls) as { choices: Array<{ message: { tool_calls: Array<{ id: string; function: unknown }> } }> };
    // The client echoes the calls in reverse order: each call keeps its own state.
    const replay = echo(via, [...(answer.choices[0]?.message.tool_calls ?? [])].reverse());
    expect(replay[1]?.parts).toEqual([
      { functionCall: { name: 'read', args: { p: 'b' }, id: 'call_r1_1' }, thoughtSignature: 'skip_thought_signature_validator' },
      { functionCall: { name: 'read', args: { p: 'a' }, id: 'call_r1_0' }, thoughtSignature: 'GSIG1' },
    ]);
  });

  it('R28: a replayed function call Gemini never signed carries the documented skip sentinel, never nothing', () => {
    const { body } = chatRequest({
      model: 'gemini-3-pro-preview',
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'A' },
      ],
    });
    expect((body.contents as Array<{ parts: unknown[] }>)[1]?.parts).toEqual([
      { functionCall: { name: 'read', args: {}, id: 'call_1' }, thoughtSignature: 'skip_thought_signature_validator' },
    ]);
  });

  it('R22: Gemini signatures shown to a Claude client are never replayed to a Claude upstream, even on the same-protocol path', () => {
    const fromGemini = bridged(claude, gemini).via;
    fromGemini.request({ model: 'gemini-3-pro-preview', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] });
    const answer = fromGemini.response({
      ...geminiCalls,
      candidates: [
        { ...geminiCalls.candidates[0], content: { role: 'model', parts: [{ text: 'Plan.', thought: true, thoughtSignature: 'GTHINK' }, { text: 'Done.' }] } },
      ],
    }) as { content: Array<{ type: string; signature?: string }> };
    expect(answer.content[0]?.type).toBe('thinking');
    expect(answer.content[0]?.signature?.startsWith('llms1_')).toBe(true);

    // The conversation moves to Claude (same protocol as the client).
    const { via, warnings } = bridged(claude, claude);
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: answer.content },
        { role: 'user', content: 'go on' },
      ],
    };
    const sent = via.request(structuredClone(body)).body as { messages: Array<{ content: unknown }> };
    expect(sent.messages[1]?.content).toEqual([{ type: 'text', text: 'Done.' }]);
    expect(warnings).toEqual(['foreign-state@messages[1].content[0]']);

    // The same with the body's text handed over (the router's fast check), verbatim and with
    // the carrier's letters escaped as \u sequences: the carrier is found either way.
    const verbatim = JSON.stringify(body);
    const escaped = verbatim.replaceAll('llms1_', '\\u006clms1_');
    expect(escaped).not.toContain('llms1_');
    for (const text of [verbatim, escaped]) {
      const again = bridged(claude, claude).via.request(JSON.parse(text), { text }).body as { messages: Array<{ content: unknown }> };
      expect(again.messages[1]?.content).toEqual([{ type: 'text', text: 'Done.' }]);
    }
    // Text with neither the prefix nor an escape skips the walk and keeps the body as it is.
    const plain = { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] };
    expect(bridged(claude, claude).via.request(plain, { text: JSON.stringify(plain) }).body).toBe(plain);
  });
});
