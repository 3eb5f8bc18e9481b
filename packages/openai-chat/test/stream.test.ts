// Stream decoding (exact events, the same at every byte split) and encoding (judged by the
// official openai SDK's ChatCompletionStream accumulator).
import type { LlmResponse, LlmStreamEvent, LlmWarning } from '@llm/core';
import { LlmError, accumulateEvents, collectSse, encodeSse, responseToEvents } from '@llm/core';
import { byteAtATime, collect, runTransform, splitAt, splitOffsets, streamOf, utf8 } from '@llm/test-utils';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createDecodeState, createEncodeState, decodeEnd, decodeStep, encodeEnd, encodeStep, openaiChat } from '../src/index.js';

const P = 'openai-chat';
const head = { id: 'chatcmpl-9', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-4o', system_fingerprint: 'fp_1' };
const sse = (payloads: unknown[]): string => payloads.map((payload) => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`).join('');
const choice = (index: number, delta: Record<string, unknown>, finish: string | null = null) => ({ index, delta, logprobs: null, finish_reason: finish });

/** Two choices interleaved; choice 0 reasons, writes, then calls two tools in fragments; usage chunk; [DONE]. */
const RAW = sse([
  { ...head, choices: [choice(0, { role: 'assistant', content: '' }), choice(1, { role: 'assistant', content: '' })] },
  { ...head, choices: [choice(0, { reasoning_content: 'Think' })] },
  { ...head, choices: [choice(1, { content: 'Bonjour ' })] },
  { ...head, choices: [choice(0, { content: 'Héllo 👋' })] },
  { ...head, choices: [choice(1, { content: 'le monde' })] },
  { ...head, choices: [choice(0, { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }] })] },
  { ...head, choices: [choice(0, { tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] })] },
  { ...head, choices: [choice(0, { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{}' } }] })] },
  { ...head, choices: [choice(0, { tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] })] },
  { ...head, choices: [choice(1, {}, 'stop')] },
  { ...head, choices: [choice(0, {}, 'tool_calls')] },
  { ...head, choices: [], usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29, prompt_tokens_details: { cached_tokens: 0 } } },
  '[DONE]',
]);

const usage = { inputTokens: 20, outputTokens: 9, totalTokens: 29, cacheReadTokens: 0 };
const EXPECTED: LlmStreamEvent[] = [
  { type: 'start', id: 'chatcmpl-9', model: 'gpt-4o', created: 1_700_000_000, extensions: { [P]: { system_fingerprint: 'fp_1' } } },
  { type: 'block-start', index: 0, block: { kind: 'reasoning', origin: { protocol: P } } },
  { type: 'reasoning-delta', index: 0, text: 'Think' },
  { type: 'block-start', index: 1, block: { kind: 'text' }, choice: 1 },
  { type: 'text-delta', index: 1, text: 'Bonjour ' },
  { type: 'block-end', index: 0 },
  { type: 'block-start', index: 2, block: { kind: 'text' } },
  { type: 'text-delta', index: 2, text: 'Héllo 👋' },
  { type: 'text-delta', index: 1, text: 'le monde' },
  { type: 'block-end', index: 2 },
  { type: 'block-start', index: 3, block: { kind: 'tool_call', id: 'call_a', name: 'get_weather' } },
  { type: 'tool-args-delta', index: 3, json: '{"ci' },
  { type: 'block-start', index: 4, block: { kind: 'tool_call', id: 'call_b', name: 'get_time' } },
  { type: 'tool-args-delta', index: 4, json: '{}' },
  { type: 'tool-args-delta', index: 3, json: 'ty":"Paris"}' },
  { type: 'block-end', index: 1 },
  { type: 'block-end', index: 3 },
  { type: 'block-end', index: 4 },
  { type: 'usage', usage },
  { type: 'finish', reason: 'stop', rawReason: 'stop', choice: 1, usage },
  { type: 'finish', reason: 'tool_calls', rawReason: 'tool_calls', usage },
];

async function decodeChunks(chunks: Uint8Array[]): Promise<LlmStreamEvent[]> {
  const events = await collectSse(streamOf(chunks));
  return runTransform(openaiChat.stream.decode(), events);
}

describe('stream decode', () => {
  it('gives the exact canonical events', async () => {
    expect(await decodeChunks([utf8(RAW)])).toEqual(EXPECTED);
  });

  it('#31/#32 gives the same events at every byte split (data lines and UTF-8 sequences cut anywhere)', async () => {
    const bytes = utf8(RAW);
    for (const offset of splitOffsets(bytes.length)) {
      expect(await decodeChunks(splitAt(bytes, [offset]))).toEqual(EXPECTED);
    }
  });

  it('gives the same events one byte at a time', async () => {
    expect(await decodeChunks(byteAtATime(utf8(RAW)))).toEqual(EXPECTED);
  });

  it('accumulates to what response.decode gives for the same completion', async () => {
    const streamed = accumulateEvents(await decodeChunks([utf8(RAW)]));
    const decoded = openaiChat.response.decode({
      id: 'chatcmpl-9',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            reasoning_content: 'Think',
            content: 'Héllo 👋',
            refusal: null,
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{}' } },
            ],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
        { index: 1, message: { role: 'assistant', content: 'Bonjour le monde', refusal: null }, logprobs: null, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29, prompt_tokens_details: { cached_tokens: 0 } },
      system_fingerprint: 'fp_1',
    });
    expect(streamed).toEqual(decoded);
  });

  it('refusal deltas, logprobs and a usage chunk without [DONE]', async () => {
    const events = await decodeChunks([
      utf8(
        sse([
          { ...head, choices: [choice(0, { role: 'assistant', refusal: '' })] },
          { ...head, choices: [choice(0, { refusal: 'No.' })] },
          { ...head, choices: [choice(0, { content: 'ok' }), { index: 1, delta: {}, finish_reason: 'length' }] },
          {
            ...head,
            choices: [
              {
                index: 0,
                delta: { content: '!' },
                logprobs: { content: [{ token: '!', logprob: -0.5, bytes: [33], top_logprobs: [] }], refusal: null },
                finish_reason: null,
              },
            ],
          },
          { ...head, choices: [choice(0, {}, 'content_filter')], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } },
        ]),
      ),
    ]);
    const u = { inputTokens: 1, outputTokens: 2, totalTokens: 3 };
    expect(events.slice(1)).toEqual([
      { type: 'block-start', index: 0, block: { kind: 'refusal' } },
      { type: 'text-delta', index: 0, text: 'No.' },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'text' } },
      { type: 'text-delta', index: 1, text: 'ok' },
      { type: 'text-delta', index: 1, text: '!' },
      { type: 'logprobs', index: 1, logprobs: [{ token: '!', logprob: -0.5, bytes: [33], top: [] }] },
      { type: 'block-end', index: 1 },
      { type: 'usage', usage: u },
      { type: 'finish', reason: 'length', rawReason: 'length', choice: 1, usage: u },
      { type: 'finish', reason: 'content_filter', rawReason: 'content_filter', usage: u },
    ]);
  });

  it('tolerates Azure prompt_filter_results chunks with empty choices', async () => {
    const events = await decodeChunks([
      utf8(
        sse([
          { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] },
          { ...head, choices: [choice(0, { content: 'x' }, 'stop')] },
          '[DONE]',
        ]),
      ),
    ]);
    expect(events).toEqual([
      { type: 'start' },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'x' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'stop', rawReason: 'stop' },
    ]);
  });

  it('a mid-stream error ends the stream with an error event and nothing after', async () => {
    const events = await decodeChunks([
      utf8(
        sse([
          { ...head, choices: [choice(0, { content: 'partial' })] },
          { error: { message: 'The server had an error', type: 'server_error', param: null, code: null } },
          { ...head, choices: [choice(0, { content: 'ignored' }, 'stop')] },
          '[DONE]',
        ]),
      ),
    ]);
    expect(events.map((event) => event.type)).toEqual(['start', 'block-start', 'text-delta', 'error']);
    const last = events.at(-1) as Extract<LlmStreamEvent, { type: 'error' }>;
    expect(last.error).toBeInstanceOf(LlmError);
    expect([last.error.kind, last.error.message]).toEqual(['server', 'The server had an error']);
  });

  it('a chunk that is not JSON is an upstream error, not a TypeError', async () => {
    const events = await decodeChunks([utf8(sse([{ ...head, choices: [choice(0, { content: 'a' })] }, '{"choices": [']))]);
    const last = events.at(-1) as Extract<LlmStreamEvent, { type: 'error' }>;
    expect(last.type).toBe('error');
    expect(last.error.kind).toBe('upstream');
  });

  // Issue 17: a cut stream used to end in a made-up `other` finish, which clients took as a
  // normal end. It now ends in an upstream error with the block left open.
  it('a stream cut before finish_reason ends in an upstream error, its block left open', async () => {
    const events = await decodeChunks([utf8(sse([{ ...head, choices: [choice(0, { content: 'a' })] }]))]);
    expect(events.slice(1, -1)).toEqual([
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'a' },
    ]);
    const last = events.at(-1) as Extract<LlmStreamEvent, { type: 'error' }>;
    expect(last.type).toBe('error');
    expect(last.error.toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'the Chat Completions stream ended before finish_reason',
      protocol: 'openai-chat',
      code: 'stream_truncated',
    });
  });
});

/** Encodes `events` to SSE bytes and lets the official SDK accumulate them. */
async function sdkFinal(events: LlmStreamEvent[], includeUsage = true): Promise<unknown> {
  const bytes = await collect(streamOf(events).pipeThrough(openaiChat.stream.encode({ includeUsage })).pipeThrough(encodeSse()));
  const body = new Blob(bytes as BlobPart[]);
  const fetch = async (): Promise<Response> => new Response(body.stream(), { status: 200, headers: { 'content-type': 'text/event-stream' } });
  const client = new OpenAI({ baseURL: 'http://llm.test/v1', apiKey: 'x', fetch });
  const final = await client.chat.completions
    .stream({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream_options: { include_usage: includeUsage } })
    .finalChatCompletion();
  // The SDK's own addition (maybeParseChatCompletion), not something the stream carried.
  for (const choice of final.choices) {
    expect(choice.message.parsed).toBeNull();
    delete (choice.message as { parsed?: unknown }).parsed;
  }
  return final;
}

describe('stream encode, judged by the openai SDK', () => {
  const response: LlmResponse = {
    id: 'chatcmpl-enc',
    model: 'gpt-4o',
    created: 1_700_000_123,
    choices: [
      {
        index: 0,
        content: [
          { type: 'reasoning', text: 'Let me see', origin: { protocol: P } },
          { type: 'text', text: 'Calling tools' },
          { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'call_2', name: 'get_time', arguments: { tz: 'CET' } },
        ],
        finishReason: 'tool_calls',
        rawFinishReason: 'tool_calls',
      },
      { index: 1, content: [{ type: 'refusal', text: 'I will not.' }], finishReason: 'stop' },
      { index: 2, content: [{ type: 'text', text: 'Short' }], finishReason: 'length' },
    ],
    usage: { inputTokens: 12, outputTokens: 30, totalTokens: 42, cacheReadTokens: 4, reasoningTokens: 7 },
    serviceTier: 'default',
    extensions: { [P]: { system_fingerprint: 'fp_enc' } },
  };

  it('finalChatCompletion equals the non-streaming encoding of the same response', async () => {
    const expected = {
      id: 'chatcmpl-enc',
      object: 'chat.completion',
      created: 1_700_000_123,
      model: 'gpt-4o',
      service_tier: 'default',
      system_fingerprint: 'fp_enc',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            reasoning_content: 'Let me see',
            content: 'Calling tools',
            refusal: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } },
            ],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
        { index: 1, message: { role: 'assistant', content: null, refusal: 'I will not.' }, logprobs: null, finish_reason: 'stop' },
        { index: 2, message: { role: 'assistant', content: 'Short', refusal: null }, logprobs: null, finish_reason: 'length' },
      ],
      usage: {
        prompt_tokens: 12,
        completion_tokens: 30,
        total_tokens: 42,
        prompt_tokens_details: { cached_tokens: 4 },
        completion_tokens_details: { reasoning_tokens: 7 },
      },
    };
    expect(openaiChat.response.encode(response)).toEqual(expected);
    expect(await sdkFinal(responseToEvents(response))).toEqual(expected);
  });

  it('a decoded capture re-encodes to a stream the SDK accumulates to the same completion', async () => {
    const events = await decodeChunks([utf8(RAW)]);
    const final = (await sdkFinal(events)) as { choices: Array<{ message: Record<string, unknown> }>; usage: unknown };
    expect(final.choices.map((c) => c.message)).toEqual([
      {
        role: 'assistant',
        reasoning_content: 'Think',
        content: 'Héllo 👋',
        refusal: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      { role: 'assistant', content: 'Bonjour le monde', refusal: null },
    ]);
    expect(final.usage).toEqual({ prompt_tokens: 20, completion_tokens: 9, total_tokens: 29, prompt_tokens_details: { cached_tokens: 0 } });
  });

  it('writes the usage-only chunk with empty choices, then [DONE]', async () => {
    const out = await runTransform(openaiChat.stream.encode({ includeUsage: true }), responseToEvents(response));
    expect(out.at(-1)).toEqual({ data: '[DONE]' });
    const usageChunk = JSON.parse(out.at(-2)!.data) as Record<string, unknown>;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toEqual({
      prompt_tokens: 12,
      completion_tokens: 30,
      total_tokens: 42,
      prompt_tokens_details: { cached_tokens: 4 },
      completion_tokens_details: { reasoning_tokens: 7 },
    });
    // Without include_usage no chunk carries usage.
    const plain = await runTransform(openaiChat.stream.encode(), responseToEvents(response));
    expect(plain.some((event) => event.data !== '[DONE]' && 'usage' in (JSON.parse(event.data) as object))).toBe(false);
  });

  it('an error event becomes an {error} payload the SDK throws as an APIError', async () => {
    const events: LlmStreamEvent[] = [
      { type: 'start', id: 'chatcmpl-e', model: 'gpt-4o' },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'par' },
      { type: 'error', error: new LlmError({ kind: 'overloaded', message: 'try later', status: 503 }) },
    ];
    const out = await runTransform(openaiChat.stream.encode(), events);
    expect(JSON.parse(out.at(-1)!.data)).toEqual({ error: { message: 'try later', type: 'service_unavailable_error', param: null, code: null } });
    expect(out.some((event) => event.data === '[DONE]')).toBe(false);
    await expect(sdkFinal(events, false)).rejects.toMatchObject({ error: { message: 'try later' } });
  });

  it('reports what a chat stream cannot carry', async () => {
    const warnings: LlmWarning[] = [];
    await runTransform(openaiChat.stream.encode({ warn: (warning) => warnings.push(warning) }), [
      { type: 'start', id: 'x' },
      { type: 'block-start', index: 0, block: { kind: 'reasoning', origin: { protocol: 'claude' } } },
      { type: 'reasoning-signature', index: 0, signature: 'sig', origin: { protocol: 'claude' } },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'text' } },
      { type: 'citation', index: 1, citation: { kind: 'file', fileId: 'file_1' } },
      { type: 'block-end', index: 1 },
      { type: 'finish', reason: 'stop' },
    ] satisfies LlmStreamEvent[]);
    expect(warnings.map((warning) => [warning.code, warning.path])).toEqual([
      ['foreign-state', 'blocks[0]'],
      ['dropped-field', 'blocks[1].citations[0]'],
    ]);
  });

  it('writes citations as one delta.annotations chunk before the finish, which the SDK keeps as the message annotations', async () => {
    const cited: LlmResponse = {
      id: 'chatcmpl-cite',
      model: 'gpt-4o-search-preview',
      created: 1,
      choices: [
        {
          index: 0,
          content: [
            { type: 'text', text: 'One. ', citations: [{ kind: 'url', url: 'https://a.test', title: 'A' }] },
            { type: 'text', text: 'Two.', citations: [{ kind: 'url', url: 'https://b.test', startIndex: 0, endIndex: 3 }] },
          ],
          finishReason: 'stop',
        },
      ],
    };
    const annotations = [
      { type: 'url_citation', url_citation: { end_index: 5, start_index: 0, title: 'A', url: 'https://a.test' } },
      { type: 'url_citation', url_citation: { end_index: 8, start_index: 5, title: '', url: 'https://b.test' } },
    ];
    const chunks = (await runTransform(openaiChat.stream.encode(), responseToEvents(cited))).map((event) => event.data);
    expect(chunks.slice(-3).map((data) => (data === '[DONE]' ? data : JSON.parse(data).choices))).toEqual([
      [{ index: 0, delta: { annotations }, finish_reason: null }],
      [{ index: 0, delta: {}, finish_reason: 'stop' }],
      '[DONE]',
    ]);
    const body = openaiChat.response.encode(cited);
    expect(body.choices[0]!.message).toEqual({ role: 'assistant', content: 'One. Two.', refusal: null, annotations });
    expect(await sdkFinal(responseToEvents(cited), false)).toEqual(body);
  });
});

describe('exported stream steps', () => {
  it("decode with (state, sse, out) and end with (state, out), as the codec's decoder does", async () => {
    const events: LlmStreamEvent[] = [];
    const out = { enqueue: (event: LlmStreamEvent) => void events.push(event) };
    const state = createDecodeState();
    for (const sse of await collectSse(streamOf([utf8(RAW)]))) decodeStep(state, sse, out);
    decodeEnd(state, out);
    expect(events).toEqual(EXPECTED);
  });

  it("encode with (state, event, out) and end with (state, out), as the codec's encoder does", async () => {
    const chunks: { data: string }[] = [];
    const out = { enqueue: (sse: { data: string }) => void chunks.push(sse) };
    const state = createEncodeState({ includeUsage: true });
    for (const event of EXPECTED) encodeStep(state, event, out);
    encodeEnd(state, out);
    expect(JSON.parse(chunks[0]!.data)).toEqual({
      ...head,
      choices: [{ index: 0, delta: { role: 'assistant', reasoning_content: 'Think' }, finish_reason: null }],
    });
    expect(JSON.parse(chunks.at(-2)!.data)).toEqual({
      ...head,
      choices: [],
      usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29, prompt_tokens_details: { cached_tokens: 0 } },
    });
    expect(chunks.at(-1)).toEqual({ data: '[DONE]' });
    expect(chunks).toEqual(await runTransform(openaiChat.stream.encode({ includeUsage: true }), EXPECTED));
  });
});
