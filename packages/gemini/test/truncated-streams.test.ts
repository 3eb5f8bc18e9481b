// Issue 17: a stream that ends must say how it ended. Golden sequences for the decoder (a Gemini
// upstream that stopped before every candidate's finishReason) and the encoder (a Gemini client
// whose upstream failed or was cut mid-tool-call: the buffered call is dropped, an error chunk
// follows what was sent, no finishReason).
import { streamEndedEarly, type LlmStreamEvent, type SseEvent } from '@llm/core';
import { errorsAsJson, runTransform } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

const chunk = (payload: Record<string, unknown>): SseEvent => ({ data: JSON.stringify(payload), event: undefined, id: undefined });
const decode = (events: SseEvent[]): Promise<LlmStreamEvent[]> => runTransform(gemini.stream.decode(), events);
const TRUNCATED = { kind: 'upstream', status: 502, message: 'the Gemini stream ended before a finishReason', protocol: 'gemini', code: 'stream_truncated' };
const origin = { protocol: 'gemini', model: 'gemini-2.5-pro' };

describe('stream.decode: how a Gemini stream ended', () => {
  const head = { modelVersion: 'gemini-2.5-pro', responseId: 'r1' };
  const START = { type: 'start', id: 'r1', model: 'gemini-2.5-pro' };

  it('a Vertex call whose streamed arguments were cut ends in an upstream error: no arguments, no block-end', async () => {
    const partial = { name: 'get_weather', partialArgs: [{ jsonPath: '$.city', stringValue: 'Pa', willContinue: true }], willContinue: true };
    const events = await decode([chunk({ ...head, candidates: [{ content: { role: 'model', parts: [{ functionCall: partial }] }, index: 0 }] })]);
    expect(errorsAsJson(events)).toEqual([
      START,
      { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'call_r1_0', name: 'get_weather', origin } },
      { type: 'error', error: TRUNCATED },
    ]);
  });

  const callOpen = { name: 'get_weather', partialArgs: [{ jsonPath: '$.city', stringValue: 'Pa', willContinue: true }], willContinue: true };
  const CALL_OPENED = { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'call_r1_0', name: 'get_weather', origin } };
  const finishing = (finishReason: string) =>
    chunk({
      ...head,
      candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason, index: 0 }],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 5, totalTokenCount: 8 },
    });
  const opening = chunk({ ...head, candidates: [{ content: { role: 'model', parts: [{ functionCall: callOpen }] }, index: 0 }] });

  it('a Vertex call cut mid-arguments, then a STOP finish without the closing functionCall: an upstream error, the call never completed', async () => {
    const events = await decode([opening, finishing('STOP')]);
    expect(errorsAsJson(events)).toEqual([
      START,
      CALL_OPENED,
      { type: 'error', error: { ...TRUNCATED, message: 'the Gemini stream ended before the functionCall that closes its arguments' } },
    ]);
  });

  it('a Vertex call open at a MAX_TOKENS finish closes under a `length` finish: the reason says the output was cut', async () => {
    const events = await decode([opening, finishing('MAX_TOKENS')]);
    expect(events).toEqual([
      START,
      CALL_OPENED,
      { type: 'tool-args-delta', index: 0, json: '{"city":"Pa"}' },
      { type: 'block-end', index: 0 },
      {
        type: 'finish',
        reason: 'length',
        rawReason: 'MAX_TOKENS',
        usage: {
          inputTokens: 3,
          outputTokens: 5,
          totalTokens: 8,
          raw: { protocol: 'gemini', usage: { promptTokenCount: 3, candidatesTokenCount: 5, totalTokenCount: 8 } },
        },
      },
    ]);
  });

  it('one candidate of two without a finishReason: the stream was cut', async () => {
    const events = await decode([
      chunk({
        ...head,
        candidates: [
          { content: { role: 'model', parts: [{ text: 'A' }] }, index: 0 },
          { content: { role: 'model', parts: [{ text: 'B' }] }, index: 1 },
        ],
      }),
      chunk({ ...head, candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }] }),
    ]);
    expect(errorsAsJson(events)).toEqual([
      START,
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'A' },
      { type: 'block-start', index: 1, block: { kind: 'text' }, choice: 1 },
      { type: 'text-delta', index: 1, text: 'B' },
      { type: 'block-end', index: 0 },
      { type: 'error', error: TRUNCATED },
    ]);
  });

  it('a blocked prompt (promptFeedback, no candidates) is a complete answer', async () => {
    const events = await decode([chunk({ ...head, promptFeedback: { blockReason: 'SAFETY' } })]);
    expect(events).toEqual([
      { ...START, extensions: { gemini: { promptFeedback: { blockReason: 'SAFETY' } } } },
      { type: 'finish', reason: 'content_filter', rawReason: 'SAFETY' },
    ]);
  });
});

describe('stream.encode: a Gemini client never gets a cut call as complete', () => {
  const cutCall: LlmStreamEvent[] = [
    { type: 'start', id: 'r1', model: 'gpt-4o' },
    { type: 'block-start', index: 0, block: { kind: 'text' } },
    { type: 'text-delta', index: 0, text: 'Checking.' },
    { type: 'block-end', index: 0 },
    { type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'call_1', name: 'get_weather' } },
    { type: 'tool-args-delta', index: 1, json: '{"city":"Pa' },
  ];
  const SENT = { candidates: [{ content: { parts: [{ text: 'Checking.' }], role: 'model' }, index: 0 }], modelVersion: 'gpt-4o', responseId: 'r1' };

  it.each([
    ['an error mid-tool-call', streamEndedEarly('openai-responses', 'response.completed'), 'the Responses stream ended before response.completed'],
    ['input that stops with neither finish nor error', undefined, 'the upstream stream ended before it finished'],
  ])('%s: the buffered call is dropped and an error chunk follows the text', async (_label, error, message) => {
    const wire = await runTransform(gemini.stream.encode(), error ? [...cutCall, { type: 'error', error }] : cutCall);
    expect(wire.map((event) => JSON.parse(event.data))).toEqual([SENT, { error: { code: 502, message, status: 'UNAVAILABLE' } }]);
  });

  it('[start, tool call, partial arguments, error]: only the error chunk; no functionCall part, no finishReason', async () => {
    const wire = await runTransform(gemini.stream.encode(), [
      { type: 'start', id: 'r1', model: 'gpt-4o' },
      { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'call_1', name: 'get_weather' } },
      { type: 'tool-args-delta', index: 0, json: '{"city":"Pa' },
      { type: 'error', error: streamEndedEarly('claude', 'message_stop') },
    ]);
    expect(wire.map((event) => JSON.parse(event.data))).toEqual([
      { error: { code: 502, message: 'the Claude stream ended before message_stop', status: 'UNAVAILABLE' } },
    ]);
  });

  it('empty input: one error chunk, never an empty body', async () => {
    const wire = await runTransform(gemini.stream.encode(), []);
    expect(wire.map((event) => JSON.parse(event.data))).toEqual([
      { error: { code: 502, message: 'the upstream stream ended before it finished', status: 'UNAVAILABLE' } },
    ]);
  });
});
