// Issue 17: a stream that ends must say how it ended. Golden sequences for the decoder (a Chat
// upstream cut before its terminal) and the encoder (a Chat client whose upstream failed or was
// cut mid-tool-call: an error chunk after what was sent, no finish_reason, no [DONE]).
import { streamEndedEarly, type LlmStreamEvent, type SseEvent } from '@llm/core';
import { errorsAsJson, runTransform } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiChat } from '../src/index.js';

const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-4o' };
const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
  data: JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason: finish }] }),
  event: undefined,
  id: undefined,
});
const DONE: SseEvent = { data: '[DONE]', event: undefined, id: undefined };
const decode = (events: SseEvent[]): Promise<LlmStreamEvent[]> => runTransform(openaiChat.stream.decode(), events);
/** Encoded SSE events with their JSON payloads parsed, to compare whole. */
const encode = async (events: LlmStreamEvent[]): Promise<unknown[]> =>
  (await runTransform(openaiChat.stream.encode(), events)).map((event) => (event.data === '[DONE]' ? '[DONE]' : JSON.parse(event.data)));

const START = { type: 'start', id: 'chatcmpl-1', model: 'gpt-4o', created: 1700000000 };
const TRUNCATED = {
  kind: 'upstream',
  status: 502,
  message: 'the Chat Completions stream ended before finish_reason',
  protocol: 'openai-chat',
  code: 'stream_truncated',
};
const callStart = { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] };
const callArgs = (json: string) => ({ tool_calls: [{ index: 0, function: { arguments: json } }] });

describe('stream.decode: how a Chat stream ended', () => {
  it.each([
    ['no finish_reason, no [DONE]', []],
    ['then [DONE], as a proxy closing a cut stream sends it', [DONE]],
  ])('a tool call cut mid-arguments (%s) ends in an upstream error, the call left open, never completed', async (_label, end) => {
    const events = await decode([chunk({ role: 'assistant', content: null }), chunk(callStart), chunk(callArgs('{"city":"Pa')), ...end]);
    expect(errorsAsJson(events)).toEqual([
      START,
      { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'call_1', name: 'get_weather' } },
      { type: 'tool-args-delta', index: 0, json: '{"city":"Pa' },
      { type: 'error', error: TRUNCATED },
    ]);
  });

  it('[DONE] while a tool call is open fails even when its arguments parse: only finish_reason closes a call', async () => {
    const events = await decode([chunk({ content: 'Checking.' }), chunk(callStart), chunk(callArgs('{"city":"Paris"}')), DONE]);
    expect(errorsAsJson(events)).toEqual([
      START,
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'Checking.' },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'call_1', name: 'get_weather' } },
      { type: 'tool-args-delta', index: 1, json: '{"city":"Paris"}' },
      { type: 'error', error: TRUNCATED },
    ]);
  });

  it('[DONE] with a finished choice and another choice cut mid-call: the error, no finish for either', async () => {
    const second = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
      data: JSON.stringify({ ...head, choices: [{ index: 1, delta, finish_reason: finish }] }),
      event: undefined,
      id: undefined,
    });
    const events = await decode([chunk({ content: 'A' }, 'stop'), second(callStart), second(callArgs('{"ci')), DONE]);
    expect(errorsAsJson(events)).toEqual([
      START,
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'A' },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'call_1', name: 'get_weather' }, choice: 1 },
      { type: 'tool-args-delta', index: 1, json: '{"ci' },
      { type: 'error', error: TRUNCATED },
    ]);
  });

  it('an empty stream is cut too', async () => {
    expect(errorsAsJson(await decode([]))).toEqual([{ type: 'error', error: TRUNCATED }]);
  });

  it('a finish_reason without [DONE] is a complete answer (the usage chunk and [DONE] may be lost after it)', async () => {
    const events = await decode([chunk(callStart), chunk(callArgs('{"city":"Paris"}')), chunk({}, 'tool_calls')]);
    expect(events).toEqual([
      START,
      { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'call_1', name: 'get_weather' } },
      { type: 'tool-args-delta', index: 0, json: '{"city":"Paris"}' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'tool_calls', rawReason: 'tool_calls' },
    ]);
  });

  it('[DONE] without a finish_reason is the server ending the answer: it finishes as `other`', async () => {
    const events = await decode([chunk({ content: 'Hi' }), DONE]);
    expect(events).toEqual([
      START,
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'Hi' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'other' },
    ]);
  });
});

describe('stream.encode: a Chat client never sees a cut answer as complete', () => {
  const cutCall: LlmStreamEvent[] = [
    { type: 'start', id: 'chatcmpl-1', model: 'gpt-4o', created: 1700000000 },
    { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'toolu_1', name: 'get_weather' } },
    { type: 'tool-args-delta', index: 0, json: '{"city":"Pa' },
  ];
  const sent = [
    {
      ...head,
      choices: [
        {
          index: 0,
          delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
          finish_reason: null,
        },
      ],
    },
    { ...head, choices: [{ index: 0, delta: callArgs('{"city":"Pa'), finish_reason: null }] },
  ];

  it('an error mid-tool-call: the error chunk after what was sent; no finish_reason, no [DONE]', async () => {
    const wire = await encode([...cutCall, { type: 'error', error: streamEndedEarly('claude', 'message_stop') }]);
    expect(wire).toEqual([
      ...sent,
      { error: { message: 'the Claude stream ended before message_stop', type: 'server_error', param: null, code: 'stream_truncated' } },
    ]);
  });

  it('[start, tool call, partial arguments, error]: the opening and the fragment, then the error chunk; no finish_reason, no [DONE]', async () => {
    const wire = await encode([...cutCall, { type: 'error', error: streamEndedEarly('openai-responses', 'response.completed') }]);
    expect(wire).toEqual([
      ...sent,
      { error: { message: 'the Responses stream ended before response.completed', type: 'server_error', param: null, code: 'stream_truncated' } },
    ]);
  });

  it('empty input (not even a start) is one error chunk, never an empty body or a bare [DONE]', async () => {
    expect(await encode([])).toEqual([
      { error: { message: 'the upstream stream ended before it finished', type: 'server_error', param: null, code: 'stream_truncated' } },
    ]);
  });

  it('input that stops with neither finish nor error ends the same way, not with [DONE]', async () => {
    const wire = await encode(cutCall);
    expect(wire).toEqual([
      ...sent,
      { error: { message: 'the upstream stream ended before it finished', type: 'server_error', param: null, code: 'stream_truncated' } },
    ]);
  });
});
