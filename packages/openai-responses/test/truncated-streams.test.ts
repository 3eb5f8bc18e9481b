// Issue 17: a stream that ends must say how it ended. Golden sequences for the decoder (a
// Responses upstream cut before its terminal event) and the encoder (a Responses client whose
// upstream failed or was cut mid-tool-call: `error` then `response.failed` holding only the
// finished items; never `response.completed`).
import { streamEndedEarly, type LlmStreamEvent, type SseEvent } from '@llm/core';
import { errorsAsJson, runTransform, typedSseEvent } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

const sse = typedSseEvent;
const decode = (events: SseEvent[]): Promise<LlmStreamEvent[]> => runTransform(openaiResponses.stream.decode(), events);
const TRUNCATED = {
  kind: 'upstream',
  status: 502,
  message: 'the Responses stream ended before response.completed',
  protocol: 'openai-responses',
  code: 'stream_truncated',
};

describe('stream.decode: how a Responses stream ended', () => {
  const created = sse({ type: 'response.created', response: { id: 'resp_1', model: 'gpt-5', created_at: 1700000000, status: 'in_progress' } });
  const START = { type: 'start', id: 'resp_1', model: 'gpt-5', created: 1700000000 };

  it('a function call cut mid-arguments (no response.completed) ends in an upstream error, the call left open', async () => {
    const events = await decode([
      created,
      sse({
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '' },
      }),
      sse({ type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc_1', delta: '{"city":"Pa' }),
    ]);
    expect(errorsAsJson(events)).toEqual([
      START,
      { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'call_1', name: 'get_weather' } },
      { type: 'tool-args-delta', index: 0, json: '{"city":"Pa' },
      { type: 'error', error: TRUNCATED },
    ]);
  });

  it('text cut before the terminal event ends in the same error, the text block left open', async () => {
    const events = await decode([
      created,
      sse({ type: 'response.output_item.added', output_index: 0, item: { type: 'message', id: 'msg_1', role: 'assistant', content: [] } }),
      sse({ type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'output_text', text: '' } }),
      sse({ type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'Hel' }),
    ]);
    expect(errorsAsJson(events)).toEqual([
      START,
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'Hel' },
      { type: 'error', error: TRUNCATED },
    ]);
  });

  const callAdded = sse({
    type: 'response.output_item.added',
    output_index: 0,
    item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '' },
  });
  const callArgs = (delta: string) => sse({ type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc_1', delta });
  const CALL_OPENED = { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'call_1', name: 'get_weather' } };
  const completed = sse({ type: 'response.completed', response: { id: 'resp_1', model: 'gpt-5', status: 'completed', output: [] } });

  it.each([
    ['cut mid-arguments', '{"city":"Pa'],
    ['whose arguments parse but whose output_item.done never came', '{"city":"Paris"}'],
  ])('a function call %s, then response.completed: an upstream error, the call never completed', async (_label, json) => {
    const events = await decode([created, callAdded, callArgs(json), completed]);
    expect(errorsAsJson(events)).toEqual([
      START,
      CALL_OPENED,
      { type: 'tool-args-delta', index: 0, json },
      { type: 'error', error: { ...TRUNCATED, message: 'the Responses stream ended before response.output_item.done' } },
    ]);
  });

  it('response.incomplete (max_output_tokens) with a call open closes it under a `length` finish: the protocol said the output was cut', async () => {
    const incomplete = sse({
      type: 'response.incomplete',
      response: { id: 'resp_1', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [] },
    });
    const events = await decode([created, callAdded, callArgs('{"city":"Pa'), incomplete]);
    expect(events).toEqual([
      START,
      CALL_OPENED,
      { type: 'tool-args-delta', index: 0, json: '{"city":"Pa' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'length', rawReason: 'incomplete:max_output_tokens' },
    ]);
  });

  it('an empty stream is cut too', async () => {
    expect(errorsAsJson(await decode([]))).toEqual([{ type: 'error', error: TRUNCATED }]);
  });
});

describe('stream.encode: a Responses client never sees a cut answer as completed', () => {
  const cutCall: LlmStreamEvent[] = [
    { type: 'start', id: 'resp_1', model: 'gpt-5', created: 1700000000 },
    { type: 'block-start', index: 0, block: { kind: 'text' } },
    { type: 'text-delta', index: 0, text: 'Checking.' },
    { type: 'block-end', index: 0 },
    { type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'call_1', name: 'get_weather' } },
    { type: 'tool-args-delta', index: 1, json: '{"city":"Pa' },
  ];
  const SENT_TYPES = [
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.content_part.added',
    'response.output_text.delta',
    'response.output_text.done',
    'response.content_part.done',
    'response.output_item.done',
    'response.output_item.added',
    'response.function_call_arguments.delta',
  ];
  const finishedText = {
    id: 'msg_1_0',
    type: 'message',
    status: 'completed',
    content: [{ type: 'output_text', annotations: [], text: 'Checking.' }],
    role: 'assistant',
  };

  async function encode(events: LlmStreamEvent[]): Promise<Array<{ event: string | undefined; data: Record<string, unknown> }>> {
    return (await runTransform(openaiResponses.stream.encode(), events)).map((event) => ({ event: event.event, data: JSON.parse(event.data) }));
  }

  it.each([
    ['an error mid-tool-call', streamEndedEarly('gemini', 'a finishReason'), 'the Gemini stream ended before a finishReason'],
    ['input that stops with neither finish nor error', undefined, 'the upstream stream ended before it finished'],
  ])('%s: `error`, then `response.failed` without the cut call; no function_call_arguments.done, no response.completed', async (_label, error, message) => {
    const wire = await encode(error ? [...cutCall, { type: 'error', error }] : cutCall);
    expect(wire.map((event) => event.event)).toEqual([...SENT_TYPES, 'error', 'response.failed']);
    expect(wire.at(-2)!.data).toEqual({ type: 'error', code: 'stream_truncated', message, param: null, sequence_number: 10 });
    const failed = wire.at(-1)!.data;
    expect(failed.sequence_number).toBe(11);
    expect(failed.response).toMatchObject({ id: 'resp_1', status: 'failed', error: { code: 'server_error', message }, output: [finishedText] });
  });

  const response = (id: unknown, created: unknown, model: string, status: string, error: unknown = null) => ({
    id,
    object: 'response',
    created_at: created,
    status,
    error,
    incomplete_details: null,
    model,
    output: [],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
  });

  it('[start, tool call, partial arguments, error]: exactly the opening, the fragment, `error` and `response.failed` with no output', async () => {
    const wire = await encode([
      { type: 'start', id: 'resp_1', model: 'gpt-5', created: 1700000000 },
      { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'call_1', name: 'get_weather' } },
      { type: 'tool-args-delta', index: 0, json: '{"city":"Pa' },
      { type: 'error', error: streamEndedEarly('claude', 'message_stop') },
    ]);
    const message = 'the Claude stream ended before message_stop';
    expect(wire.map((event) => event.data)).toEqual([
      { type: 'response.created', response: response('resp_1', 1700000000, 'gpt-5', 'in_progress'), sequence_number: 0 },
      { type: 'response.in_progress', response: response('resp_1', 1700000000, 'gpt-5', 'in_progress'), sequence_number: 1 },
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { id: 'fc_1_0', type: 'function_call', status: 'in_progress', call_id: 'call_1', name: 'get_weather', arguments: '' },
        sequence_number: 2,
      },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1_0', output_index: 0, delta: '{"city":"Pa', sequence_number: 3 },
      { type: 'error', code: 'stream_truncated', message, param: null, sequence_number: 4 },
      { type: 'response.failed', response: response('resp_1', 1700000000, 'gpt-5', 'failed', { code: 'server_error', message }), sequence_number: 5 },
    ]);
    expect(wire.every((event) => event.event === event.data.type)).toBe(true);
  });

  it('empty input (not even a start): the opening, `error` and `response.failed`, never an empty body', async () => {
    const wire = await encode([]);
    const id = expect.stringMatching(/^resp_[0-9a-f]{32}$/);
    const created = expect.any(Number);
    const message = 'the upstream stream ended before it finished';
    expect(wire.map((event) => event.data)).toEqual([
      { type: 'response.created', response: response(id, created, '', 'in_progress'), sequence_number: 0 },
      { type: 'response.in_progress', response: response(id, created, '', 'in_progress'), sequence_number: 1 },
      { type: 'error', code: 'stream_truncated', message, param: null, sequence_number: 2 },
      { type: 'response.failed', response: response(id, created, '', 'failed', { code: 'server_error', message }), sequence_number: 3 },
    ]);
  });
});
