import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type Gateway, startGateway } from '../src/server/start.js';
import { type ScriptedAnswer, type ScriptedUpstream, startScriptedUpstream } from './helpers/scripted-upstream.js';
import { type SseFrame, sseFrames, sseText } from './helpers/sse-frames.js';

// Streams that end must say how they ended (issue 17), end to end through a real gateway and a
// scripted upstream: an upstream stream cut before its terminal event, an upstream gone silent,
// and a stream request answered with JSON, each as Claude, Responses, Gemini and Chat clients see
// it. Every client gets its protocol's error signal after the partial output, never a normal
// finish and never a half-received tool call as complete.
let upstream: ScriptedUpstream;
let gateway: Gateway;

/** The idle timeout of the `silent-up` route's upstream (the others keep the default). */
const IDLE_TIMEOUT_MS = 200;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  const base = upstream.url;
  const config = parseConfig(
    JSON.stringify({
      upstreams: {
        chat: { protocol: 'openai-chat', baseUrl: `${base}/v1`, apiKey: 'k' },
        responses: { protocol: 'openai-responses', baseUrl: `${base}/v1`, apiKey: 'k' },
        gemini: { protocol: 'gemini', baseUrl: base, apiKey: 'k' },
        silentChat: { protocol: 'openai-chat', baseUrl: `${base}/v1`, apiKey: 'k', streamIdleTimeoutMs: IDLE_TIMEOUT_MS },
      },
      routes: [
        { match: 'chat-up', upstream: 'chat' },
        { match: 'responses-up', upstream: 'responses' },
        { match: 'gemini-up', upstream: 'gemini' },
        { match: 'silent-up', upstream: 'silentChat' },
      ],
      maxRetries: 0,
      ledger: false,
    }),
  );
  gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

// ---- the clients' requests -------------------------------------------------------------------

type Client = 'claude' | 'responses' | 'gemini' | 'chat';
const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const prompt = 'weather in Paris?';

/** A streaming request of `client`'s protocol for `model`, offering one tool. */
function streamRequest(client: Client, model: string): { path: string; body: unknown } {
  switch (client) {
    case 'claude':
      return {
        path: '/v1/messages',
        body: { model, max_tokens: 100, stream: true, messages: [{ role: 'user', content: prompt }], tools: [{ name: 'get_weather', input_schema: weather }] },
      };
    case 'responses':
      return { path: '/v1/responses', body: { model, stream: true, input: prompt, tools: [{ type: 'function', name: 'get_weather', parameters: weather }] } };
    case 'gemini':
      return {
        path: `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
        body: { contents: [{ role: 'user', parts: [{ text: prompt }] }], tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: weather }] }] },
      };
    case 'chat':
      return {
        path: '/v1/chat/completions',
        body: {
          model,
          stream: true,
          messages: [{ role: 'user', content: prompt }],
          tools: [{ type: 'function', function: { name: 'get_weather', parameters: weather } }],
        },
      };
  }
}

const REQUEST_ID = 'req-cut';

/** Sends `client`'s streaming request for `model` after queueing the upstream's `answer`. */
async function streamThrough(client: Client, model: string, answer: ScriptedAnswer) {
  const call = upstream.answerNext(answer);
  const { path, body } = streamRequest(client, model);
  const res = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': REQUEST_ID },
    body: JSON.stringify(body),
  });
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text(), call };
}

const EVENT_STREAM = 'text/event-stream; charset=utf-8';
const sseAnswer = (chunks: string[], then: ScriptedAnswer['then'] = 'end'): ScriptedAnswer => ({ status: 200, contentType: 'text/event-stream', chunks, then });

// ---- what the upstreams send -----------------------------------------------------------------

/** A Chat stream chunk; `origin` is the answer's id, creation time and model. */
const chatChunk = (
  delta: Record<string, unknown>,
  finish_reason: string | null = null,
  origin = { id: 'chatcmpl-up', created: 1, model: 'gpt-up' },
): SseFrame => ({
  data: { ...origin, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }] },
});
/** Text, then a tool call cut in the middle of its arguments: no finish_reason, no [DONE]. */
const chatCutInToolCall = sseText([
  chatChunk({ role: 'assistant', content: 'Let me check.' }),
  chatChunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
  chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Par' } }] }),
]);
/** Text under way, no response.completed. */
const responsesCut = sseText(
  [
    { type: 'response.created', response: { id: 'resp_up', object: 'response', created_at: 1, status: 'in_progress', model: 'gpt-up', output: [] } },
    { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_up', type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
    { type: 'response.content_part.added', item_id: 'msg_up', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } },
    { type: 'response.output_text.delta', item_id: 'msg_up', output_index: 0, content_index: 0, delta: 'Hel' },
  ].map((data, sequence_number) => ({ event: data.type, data: { ...data, sequence_number } })),
);
/** Text under way, no finishReason. */
const geminiCut = sseText([
  { data: { candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] }, index: 0 }], modelVersion: 'gemini-up', responseId: 'g1' } },
]);

const CHAT_CUT = 'the Chat Completions stream ended before finish_reason';
const RESPONSES_CUT = 'the Responses stream ended before response.completed';
const GEMINI_CUT = 'the Gemini stream ended before a finishReason';
const IDLE = `the upstream sent nothing for ${IDLE_TIMEOUT_MS} ms`;

// ---- what the clients get ----------------------------------------------------------------------

const claudeFrame = (data: { type: string } & Record<string, unknown>): SseFrame => ({ event: data.type, data });
const claudeOpening = claudeFrame({
  type: 'message_start',
  message: {
    id: 'chatcmpl-up',
    type: 'message',
    role: 'assistant',
    model: 'gpt-up',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  },
});
const claudeText = (text: string): SseFrame[] => [
  claudeFrame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  claudeFrame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
  claudeFrame({ type: 'content_block_stop', index: 0 }),
];

const chatError = (message: string, code: string | null): SseFrame => ({ data: { error: { message, type: 'server_error', param: null, code } } });
const geminiError = (message: string): SseFrame => ({ data: { error: { code: 502, message, status: 'UNAVAILABLE' } } });
const geminiText = (text: string, modelVersion: string, responseId: string): SseFrame => ({
  data: { candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0 }], modelVersion, responseId },
});

/** Where the router's minted Responses id (`resp_` + 32 hex) stood. */
const ID = '<minted>';
const MESSAGE_ID = `msg_${ID}_0`;

/** The frames with the one minted Responses id replaced by {@link ID} wherever it (or its hex) appears. */
function withMintedId(frames: SseFrame[]): SseFrame[] {
  const text = JSON.stringify(frames);
  const minted = new Set(text.match(/resp_[0-9a-f]{32}/g));
  expect(minted.size).toBe(1);
  const hex = [...minted][0]!.slice('resp_'.length);
  return JSON.parse(text.replaceAll(hex, ID)) as SseFrame[];
}

/** Responses events, named after their type, numbered in order from 0. */
const responsesFrames = (events: ({ type: string } & Record<string, unknown>)[]): SseFrame[] =>
  events.map((data, sequence_number) => ({ event: data.type, data: { ...data, sequence_number } }));
const snapshot = (status: string, extra: Record<string, unknown> = {}) => ({
  id: `resp_${ID}`,
  object: 'response',
  created_at: 1,
  status,
  error: null,
  incomplete_details: null,
  model: 'gpt-up',
  output: [],
  parallel_tool_calls: true,
  tool_choice: 'auto',
  tools: [],
  ...extra,
});
const textPart = (text: string) => ({ type: 'output_text', annotations: [], text });
const completedMessage = (text: string) => ({ id: MESSAGE_ID, type: 'message', status: 'completed', content: [textPart(text)], role: 'assistant' });
const textAt = { item_id: MESSAGE_ID, output_index: 0, content_index: 0 };
/** From response.created to the first (and only) text delta of the message at output 0. */
const responsesTextOpening = (text: string) => [
  { type: 'response.created', response: snapshot('in_progress') },
  { type: 'response.in_progress', response: snapshot('in_progress') },
  { type: 'response.output_item.added', output_index: 0, item: { id: MESSAGE_ID, type: 'message', status: 'in_progress', content: [], role: 'assistant' } },
  { type: 'response.content_part.added', ...textAt, part: textPart('') },
  { type: 'response.output_text.delta', ...textAt, delta: text, logprobs: [] },
];
const responsesTextClosing = (text: string) => [
  { type: 'response.output_text.done', ...textAt, text, logprobs: [] },
  { type: 'response.content_part.done', ...textAt, part: textPart(text) },
  { type: 'response.output_item.done', output_index: 0, item: completedMessage(text) },
];
/** Responses' error signal: the error event, then response.failed with what was complete. */
const responsesFailure = (message: string, code: string, output: unknown[]) => [
  { type: 'error', code, message, param: null },
  { type: 'response.failed', response: snapshot('failed', { error: { code: 'server_error', message }, output }) },
];

// ---- the tests ---------------------------------------------------------------------------------

describe('a Chat upstream stream cut in the middle of a tool call', () => {
  const cut = () => sseAnswer([chatCutInToolCall]);

  it('reaches a Claude client as the text and the open tool block, then the error event: no content_block_stop for the tool, no message_delta', async () => {
    const answer = await streamThrough('claude', 'chat-up', cut());
    expect({ status: answer.status, contentType: answer.contentType }).toEqual({ status: 200, contentType: EVENT_STREAM });
    expect(sseFrames(answer.text)).toEqual([
      claudeOpening,
      ...claudeText('Let me check.'),
      claudeFrame({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'call_1', name: 'get_weather', input: {} } }),
      claudeFrame({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":"Par' } }),
      claudeFrame({ type: 'error', error: { type: 'api_error', message: CHAT_CUT } }),
    ]);
  });

  it('reaches a Responses client as the completed message and the open call, then error and response.failed: no arguments.done or item done for the call, no response.completed', async () => {
    const answer = await streamThrough('responses', 'chat-up', cut());
    expect({ status: answer.status, contentType: answer.contentType }).toEqual({ status: 200, contentType: EVENT_STREAM });
    const callId = `fc_${ID}_1`;
    expect(withMintedId(sseFrames(answer.text))).toEqual(
      responsesFrames([
        ...responsesTextOpening('Let me check.'),
        ...responsesTextClosing('Let me check.'),
        {
          type: 'response.output_item.added',
          output_index: 1,
          item: { id: callId, type: 'function_call', status: 'in_progress', call_id: 'call_1', name: 'get_weather', arguments: '' },
        },
        { type: 'response.function_call_arguments.delta', item_id: callId, output_index: 1, delta: '{"city":"Par' },
        // The failed response lists only the complete message, not the half-received call.
        ...responsesFailure(CHAT_CUT, 'stream_truncated', [completedMessage('Let me check.')]),
      ]),
    );
  });

  it('reaches a Gemini client as the text, then the error chunk: no functionCall part (the buffered call is dropped)', async () => {
    const answer = await streamThrough('gemini', 'chat-up', cut());
    expect({ status: answer.status, contentType: answer.contentType }).toEqual({ status: 200, contentType: EVENT_STREAM });
    expect(sseFrames(answer.text)).toEqual([geminiText('Let me check.', 'gpt-up', 'chatcmpl-up'), geminiError(CHAT_CUT)]);
  });

  it("reaches a Chat client as the upstream's own bytes, then the error chunk: no finish_reason, no [DONE]", async () => {
    const answer = await streamThrough('chat', 'chat-up', cut());
    expect({ status: answer.status, contentType: answer.contentType }).toEqual({ status: 200, contentType: EVENT_STREAM });
    expect(answer.text).toBe(chatCutInToolCall + sseText([chatError(CHAT_CUT, 'stream_truncated')]));
  });
});

describe('a Responses upstream cut before response.completed, and a Gemini upstream cut before a finishReason', () => {
  it('reach a Chat client as the text so far, then the error chunk (no finish_reason, no [DONE])', async () => {
    const fromResponses = await streamThrough('chat', 'responses-up', sseAnswer([responsesCut]));
    const responsesChunk = (delta: Record<string, unknown>) => chatChunk(delta, null, { id: 'resp_up', created: 1, model: 'gpt-up' });
    expect({ status: fromResponses.status, frames: sseFrames(fromResponses.text) }).toEqual({
      status: 200,
      frames: [responsesChunk({ role: 'assistant', content: '' }), responsesChunk({ content: 'Hel' }), chatError(RESPONSES_CUT, 'stream_truncated')],
    });

    const before = Math.floor(Date.now() / 1000);
    const fromGemini = await streamThrough('chat', 'gemini-up', sseAnswer([geminiCut]));
    const after = Math.ceil(Date.now() / 1000);
    const frames = sseFrames(fromGemini.text);
    // Gemini chunks carry no creation time: the gateway stamps its own clock.
    const created = (frames[0]?.data as { created: number }).created;
    expect(created).toBeGreaterThanOrEqual(before);
    expect(created).toBeLessThanOrEqual(after);
    const geminiChunk = (delta: Record<string, unknown>) => chatChunk(delta, null, { id: 'g1', created, model: 'gemini-up' });
    expect({ status: fromGemini.status, frames }).toEqual({
      status: 200,
      frames: [geminiChunk({ role: 'assistant', content: '' }), geminiChunk({ content: 'Hel' }), chatError(GEMINI_CUT, 'stream_truncated')],
    });
  });

  it('reach a Gemini client as the text so far, then the error chunk (no finishReason)', async () => {
    const fromResponses = await streamThrough('gemini', 'responses-up', sseAnswer([responsesCut]));
    expect({ status: fromResponses.status, frames: sseFrames(fromResponses.text) }).toEqual({
      status: 200,
      frames: [geminiText('Hel', 'gpt-up', 'resp_up'), geminiError(RESPONSES_CUT)],
    });
    // Same protocol: the upstream's own bytes pass through, then the error chunk.
    const fromGemini = await streamThrough('gemini', 'gemini-up', sseAnswer([geminiCut]));
    expect({ status: fromGemini.status, text: fromGemini.text }).toEqual({ status: 200, text: geminiCut + sseText([geminiError(GEMINI_CUT)]) });
  });
});

describe('an upstream that goes silent after its first chunk (stream idle timeout)', () => {
  const silentAfterHel = () => sseAnswer([sseText([chatChunk({ role: 'assistant', content: 'Hel' })])], 'hang');

  it('ends a Responses client stream with error and response.failed (the open message left out), and closes the upstream socket', async () => {
    const answer = await streamThrough('responses', 'silent-up', silentAfterHel());
    expect(answer.status).toBe(200);
    expect(withMintedId(sseFrames(answer.text))).toEqual(responsesFrames([...responsesTextOpening('Hel'), ...responsesFailure(IDLE, 'server_error', [])]));
    await expect.poll(() => answer.call.closed).toBe(true);
  });

  it('ends a Gemini client stream with a DEADLINE_EXCEEDED error chunk, and closes the upstream socket', async () => {
    const answer = await streamThrough('gemini', 'silent-up', silentAfterHel());
    expect(answer.status).toBe(200);
    expect(sseFrames(answer.text)).toEqual([
      geminiText('Hel', 'gpt-up', 'chatcmpl-up'),
      { data: { error: { code: 504, message: IDLE, status: 'DEADLINE_EXCEEDED' } } },
    ]);
    await expect.poll(() => answer.call.closed).toBe(true);
  });
});

describe('an upstream answering a stream request with 200 application/json', () => {
  const completion = {
    id: 'chatcmpl-up',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-up',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Sunny.' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  };
  const json = (body: string): ScriptedAnswer => ({ status: 200, contentType: 'application/json', chunks: [body], then: 'end' });

  it('has a readable answer translated into each client stream, ending normally', async () => {
    const streams: Record<Client, SseFrame[]> = { claude: [], responses: [], gemini: [], chat: [] };
    for (const client of Object.keys(streams) as Client[]) {
      const answer = await streamThrough(client, 'chat-up', json(JSON.stringify(completion)));
      expect({ client, status: answer.status, contentType: answer.contentType }).toEqual({ client, status: 200, contentType: EVENT_STREAM });
      streams[client] = client === 'responses' ? withMintedId(sseFrames(answer.text)) : sseFrames(answer.text);
    }
    expect(streams).toEqual({
      claude: [
        claudeOpening,
        ...claudeText('Sunny.'),
        claudeFrame({
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { input_tokens: 5, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        }),
        claudeFrame({ type: 'message_stop' }),
      ],
      responses: responsesFrames([
        ...responsesTextOpening('Sunny.'),
        ...responsesTextClosing('Sunny.'),
        {
          type: 'response.completed',
          response: snapshot('completed', {
            output: [completedMessage('Sunny.')],
            usage: {
              input_tokens: 5,
              input_tokens_details: { cached_tokens: 0 },
              output_tokens: 2,
              output_tokens_details: { reasoning_tokens: 0 },
              total_tokens: 7,
            },
          }),
        },
      ]),
      gemini: [
        geminiText('Sunny.', 'gpt-up', 'chatcmpl-up'),
        {
          data: {
            candidates: [{ finishReason: 'STOP', index: 0 }],
            usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 },
            modelVersion: 'gpt-up',
            responseId: 'chatcmpl-up',
          },
        },
      ],
      chat: [chatChunk({ role: 'assistant', content: '' }), chatChunk({ content: 'Sunny.' }), chatChunk({}, 'stop'), { data: '[DONE]' }],
    });
  });

  it('answers an unreadable one with 502 in each client protocol, naming the request id and nothing of the upstream', async () => {
    const message = `invalid Chat Completions answer (request id ${REQUEST_ID})`;
    const expected: Record<Client, unknown> = {
      claude: { type: 'error', error: { type: 'api_error', message } },
      responses: { error: { message, type: 'server_error', param: null, code: null } },
      gemini: { error: { code: 502, message, status: 'UNAVAILABLE' } },
      chat: { error: { message, type: 'server_error', param: null, code: null } },
    };
    for (const client of Object.keys(expected) as Client[]) {
      const answer = await streamThrough(client, 'chat-up', json('<html>bad gateway</html>'));
      expect({ client, status: answer.status, contentType: answer.contentType, body: JSON.parse(answer.text) as unknown }).toEqual({
        client,
        status: 502,
        contentType: 'application/json',
        body: expected[client],
      });
    }
  });
});
