// Issue 17: a stream that ends must say how it ended. Golden sequences for the decoder (a Claude
// upstream cut before message_stop) and the encoder (a Claude client whose upstream failed or
// was cut mid-tool-call: `event: error` after the partial block, no content_block_stop, no
// message_delta, no end_turn).
import { streamEndedEarly, type LlmStreamEvent, type SseEvent } from '@llm/core';
import { errorsAsJson, runTransform, typedSseEvent } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';

const sse = typedSseEvent;
const decode = (events: SseEvent[]): Promise<LlmStreamEvent[]> => runTransform(claude.stream.decode(), events);
const TRUNCATED = { kind: 'upstream', status: 502, message: 'the Claude stream ended before message_stop', protocol: 'claude', code: 'stream_truncated' };

describe('stream.decode: how a Claude stream ended', () => {
  const messageStart = sse({
    type: 'message_start',
    message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], usage: { input_tokens: 10, output_tokens: 1 } },
  });
  const toolStart = sse({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } });
  const args = (json: string) => sse({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: json } });
  const usage = (output: number) => ({
    inputTokens: 10,
    outputTokens: output,
    totalTokens: 10 + output,
    raw: { protocol: 'claude', usage: { input_tokens: 10, output_tokens: output } },
  });
  const BEFORE = [
    { type: 'start', id: 'msg_1', model: 'claude-sonnet-4-5' },
    { type: 'usage', usage: usage(1) },
    { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'toolu_1', name: 'get_weather' } },
  ];

  it('a tool call cut mid-input (no message_delta, no message_stop) ends in an upstream error, the call left open', async () => {
    const events = await decode([messageStart, toolStart, args('{"city":"Pa')]);
    expect(errorsAsJson(events)).toEqual([...BEFORE, { type: 'tool-args-delta', index: 0, json: '{"city":"Pa' }, { type: 'error', error: TRUNCATED }]);
  });

  const stop = (index: number) => sse({ type: 'content_block_stop', index });
  const delta = (stopReason: string) => sse({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 9 } });
  const messageStop = sse({ type: 'message_stop' });
  const CALL_CUT = { ...TRUNCATED, message: 'the Claude stream ended before content_block_stop' };

  it.each([
    ['message_stop right after the cut input', [args('{"city":"Pa'), messageStop]],
    ['message_delta (tool_use) and message_stop after the cut input', [args('{"city":"Pa'), delta('tool_use'), messageStop]],
    ['message_delta (tool_use), then the end of the stream', [args('{"city":"Pa'), delta('tool_use')]],
    ['input that parses, but no content_block_stop before message_stop', [args('{"city":"Paris"}'), delta('tool_use'), messageStop]],
  ])('a tool call without its content_block_stop, %s: an upstream error, the call never completed', async (_label, rest) => {
    const events = await decode([messageStart, toolStart, ...rest]);
    const json = JSON.parse(rest[0]!.data).delta.partial_json;
    expect(errorsAsJson(events)).toEqual([...BEFORE, { type: 'tool-args-delta', index: 0, json }, { type: 'error', error: CALL_CUT }]);
  });

  it('max_tokens with a call open closes it under a `length` finish: the stop reason says the output was cut', async () => {
    const events = await decode([messageStart, toolStart, args('{"city":"Pa'), delta('max_tokens'), messageStop]);
    expect(events).toEqual([
      ...BEFORE,
      { type: 'tool-args-delta', index: 0, json: '{"city":"Pa' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'length', rawReason: 'max_tokens', usage: usage(9) },
    ]);
  });

  it('a text block left open at message_stop still ends before the finish (only calls need their stop)', async () => {
    const textStart = sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    const text = sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } });
    const events = await decode([messageStart, textStart, text, delta('end_turn'), messageStop]);
    expect(events).toEqual([
      BEFORE[0],
      BEFORE[1],
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'Hi' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'stop', rawReason: 'end_turn', usage: usage(9) },
    ]);
  });

  it('a stream cut after message_delta finishes: that event carried the stop reason and the final usage', async () => {
    const events = await decode([messageStart, toolStart, args('{"city":"Paris"}'), stop(0), delta('tool_use')]);
    expect(events).toEqual([
      ...BEFORE,
      { type: 'tool-args-delta', index: 0, json: '{"city":"Paris"}' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'tool_calls', rawReason: 'tool_use', usage: usage(9) },
    ]);
  });
});

describe('stream.encode: a Claude client never sees a cut answer as complete', () => {
  const cutCall: LlmStreamEvent[] = [
    { type: 'start', id: 'msg_1', model: 'gpt-4o' },
    { type: 'block-start', index: 0, block: { kind: 'text' } },
    { type: 'text-delta', index: 0, text: 'Checking.' },
    { type: 'block-end', index: 0 },
    { type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'call_1', name: 'get_weather' } },
    { type: 'tool-args-delta', index: 1, json: '{"city":"Pa' },
  ];
  const SENT = [
    {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'gpt-4o',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Checking.' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'call_1', name: 'get_weather', input: {} } },
    { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":"Pa' } },
  ];

  async function encode(events: LlmStreamEvent[]): Promise<unknown[]> {
    const wire = await runTransform(claude.stream.encode(), events);
    for (const event of wire) expect(event.event).toBe(JSON.parse(event.data).type);
    return wire.map((event) => JSON.parse(event.data));
  }

  it.each([
    ['an error mid-tool-call', streamEndedEarly('openai-chat', 'finish_reason'), 'the Chat Completions stream ended before finish_reason'],
    ['input that stops with neither finish nor error', undefined, 'the upstream stream ended before it finished'],
  ])('%s: event: error right after the partial block', async (_label, error, message) => {
    const wire = await encode(error ? [...cutCall, { type: 'error', error }] : cutCall);
    expect(wire).toEqual([...SENT, { type: 'error', error: { type: 'api_error', message } }]);
  });

  it('[start, tool call, partial arguments, error]: message_start, the open block and its fragment, then event: error; no content_block_stop', async () => {
    const wire = await encode([
      { type: 'start', id: 'msg_1', model: 'gpt-4o' },
      { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'call_1', name: 'get_weather' } },
      { type: 'tool-args-delta', index: 0, json: '{"city":"Pa' },
      { type: 'error', error: streamEndedEarly('gemini', 'a finishReason') },
    ]);
    expect(wire).toEqual([
      SENT[0],
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'call_1', name: 'get_weather', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city":"Pa' } },
      { type: 'error', error: { type: 'api_error', message: 'the Gemini stream ended before a finishReason' } },
    ]);
  });

  it.each([
    ['empty input', [], 'the upstream stream ended before it finished'],
    [
      'an error before anything',
      [{ type: 'error', error: streamEndedEarly('openai-chat', 'finish_reason') }],
      'the Chat Completions stream ended before finish_reason',
    ],
  ] as Array<[string, LlmStreamEvent[], string]>)('%s: one event: error (no message to start), never an empty body', async (_label, events, message) => {
    expect(await encode(events)).toEqual([{ type: 'error', error: { type: 'api_error', message } }]);
  });
});
