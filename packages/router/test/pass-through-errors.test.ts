// A same-protocol stream is passed through byte for byte; when it ends without saying how (cut,
// failed read, idle timeout), the router adds the client protocol's error signal after the
// upstream's bytes: exactly one, and never a second opening (issue 17 follow-up: a Claude client
// got `message_start` twice, a Responses client `response.created` twice).
import { claude } from '@llm/claude';
import { gemini } from '@llm/gemini';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import type { ProtocolId } from '@llm/core';
import { describe, expect, it } from 'vitest';
import type { UpstreamResponse } from '../src/config.js';
import { createHandler } from '../src/handler.js';
import { answer } from './upstream-answer.js';

const sse = (event: string | undefined, data: unknown): string => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

interface Case {
  protocol: ProtocolId;
  path: string;
  body: unknown;
  /** The upstream's stream, started and cut before its terminal event. */
  upstream: string[];
  /** The client's error signal after the upstream's bytes: for the cut stream, for the silent one (idle timeout of 50 ms). */
  cutSignal: string;
  timeoutSignal: string;
}

const responseId = 'resp_up1';
const silence = 'the upstream sent nothing for 50 ms';
/** A Responses stream's error signal: `error`, then `response.failed` (numbered after the two openings it does not resend). */
function responsesFailure(code: string, message: string): string {
  const response = {
    id: responseId,
    object: 'response',
    created_at: 1,
    status: 'failed',
    error: { code: 'server_error', message },
    incomplete_details: null,
    model: 'm',
    output: [],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
  };
  return (
    sse('error', { type: 'error', code, message, param: null, sequence_number: 2 }) +
    sse('response.failed', { type: 'response.failed', response, sequence_number: 3 })
  );
}
const cases: Case[] = [
  {
    protocol: 'claude',
    path: '/v1/messages',
    body: { model: 'm', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] },
    upstream: [
      sse('message_start', {
        type: 'message_start',
        message: {
          id: 'msg_up1',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 3, output_tokens: 0 },
        },
      }),
      sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } }),
    ],
    cutSignal: sse('error', { type: 'error', error: { type: 'api_error', message: 'the Claude stream ended before message_stop' } }),
    timeoutSignal: sse('error', { type: 'error', error: { type: 'timeout_error', message: silence } }),
  },
  {
    protocol: 'openai-chat',
    path: '/v1/chat/completions',
    body: { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] },
    upstream: [
      sse(undefined, {
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }],
      }),
    ],
    cutSignal: sse(undefined, {
      error: { message: 'the Chat Completions stream ended before finish_reason', type: 'server_error', param: null, code: 'stream_truncated' },
    }),
    timeoutSignal: sse(undefined, { error: { message: silence, type: 'server_error', param: null, code: null } }),
  },
  {
    protocol: 'openai-responses',
    path: '/v1/responses',
    body: { model: 'm', stream: true, input: 'hi' },
    upstream: [
      sse('response.created', {
        type: 'response.created',
        sequence_number: 0,
        response: { id: responseId, object: 'response', created_at: 1, status: 'in_progress', model: 'm', output: [] },
      }),
      sse('response.in_progress', {
        type: 'response.in_progress',
        sequence_number: 1,
        response: { id: responseId, object: 'response', created_at: 1, status: 'in_progress', model: 'm', output: [] },
      }),
      sse('response.output_item.added', {
        type: 'response.output_item.added',
        sequence_number: 2,
        output_index: 0,
        item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] },
      }),
    ],
    // `error`, then `response.failed` for the upstream's response (its id, model and creation time), nothing opened again.
    cutSignal: responsesFailure('stream_truncated', 'the Responses stream ended before response.completed'),
    timeoutSignal: responsesFailure('server_error', silence),
  },
  {
    protocol: 'gemini',
    path: '/v1beta/models/m:streamGenerateContent?alt=sse',
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    upstream: [sse(undefined, { candidates: [{ index: 0, content: { role: 'model', parts: [{ text: 'Hel' }] } }], modelVersion: 'm' })],
    cutSignal: sse(undefined, { error: { code: 502, message: 'the Gemini stream ended before a finishReason', status: 'UNAVAILABLE' } }),
    timeoutSignal: sse(undefined, { error: { code: 504, message: silence, status: 'DEADLINE_EXCEEDED' } }),
  },
];

function router(protocol: ProtocolId, upstreamAnswer: UpstreamResponse, streamIdleTimeoutMs?: number) {
  return createHandler({
    codecs: { claude, 'openai-chat': openaiChat, 'openai-responses': openaiResponses, gemini },
    upstreams: { main: { protocol, baseUrl: 'http://upstream.test', apiKey: 'k', streamIdleTimeoutMs } },
    routes: [{ match: '*', upstream: 'main' }],
    transport: async () => upstreamAnswer,
    maxRetries: 0,
  });
}

const post = (path: string, body: unknown) =>
  new Request(`http://router.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The SSE events of `text`, each as its own text (`\n\n` included). */
const eventsOf = (text: string): string[] => text.split(/(?<=\n\n)/);

describe.each(cases)('a passed-through $protocol stream', (test) => {
  it('cut before its terminal event: the upstream bytes, then exactly one error signal', async () => {
    const response = await router(test.protocol, answer(200, 'text/event-stream', test.upstream))(post(test.path, test.body));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.startsWith(test.upstream.join(''))).toBe(true);
    expect(eventsOf(text.slice(test.upstream.join('').length))).toEqual(eventsOf(test.cutSignal));
  });

  it('silent past streamIdleTimeoutMs: the upstream bytes, then exactly one timeout error signal', async () => {
    const response = await router(test.protocol, answer(200, 'text/event-stream', test.upstream, { hang: true }), 50)(post(test.path, test.body));
    const text = await response.text();
    expect(text.startsWith(test.upstream.join(''))).toBe(true);
    expect(eventsOf(text.slice(test.upstream.join('').length))).toEqual(eventsOf(test.timeoutSignal));
  });
});
