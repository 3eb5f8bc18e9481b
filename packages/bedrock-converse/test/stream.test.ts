// ConverseStream: exact golden decode, identity round trip of the events, folded streams agreeing
// with the JSON answer, cut streams and exception events.
import type { LlmStreamEvent, SseEvent } from '@llm/core';
import { accumulateEvents } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { bedrockConverse, createDecodeState, decodeEnd, decodeStep } from '../src/index.js';

const event = (name: string, payload: Record<string, unknown>): SseEvent => ({ event: name, data: JSON.stringify(payload), id: undefined });

const usage = { inputTokens: 12, outputTokens: 30, totalTokens: 42 };

/** What Bedrock sends for a thinking turn that calls a tool. */
const wire: SseEvent[] = [
  event('messageStart', { role: 'assistant' }),
  event('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Need ' } } }),
  event('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'weather.' } } }),
  event('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig-9' } } }),
  event('contentBlockStop', { contentBlockIndex: 0 }),
  event('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Checking' } }),
  event('contentBlockDelta', { contentBlockIndex: 1, delta: { text: '.' } }),
  event('contentBlockStop', { contentBlockIndex: 1 }),
  event('contentBlockStart', { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather' } } }),
  event('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{"city":' } } }),
  event('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '"Paris"}' } } }),
  event('contentBlockStop', { contentBlockIndex: 2 }),
  event('messageStop', { stopReason: 'tool_use' }),
  event('metadata', { usage, metrics: { latencyMs: 640 } }),
];

const origin = { protocol: 'bedrock-converse' as const };

const canonical: LlmStreamEvent[] = [
  { type: 'start', model: 'm' },
  { type: 'block-start', index: 0, block: { kind: 'reasoning', origin } },
  { type: 'reasoning-delta', index: 0, text: 'Need ' },
  { type: 'reasoning-delta', index: 0, text: 'weather.' },
  { type: 'reasoning-signature', index: 0, signature: 'sig-9', origin },
  { type: 'block-end', index: 0 },
  { type: 'block-start', index: 1, block: { kind: 'text' } },
  { type: 'text-delta', index: 1, text: 'Checking' },
  { type: 'text-delta', index: 1, text: '.' },
  { type: 'block-end', index: 1 },
  { type: 'block-start', index: 2, block: { kind: 'tool_call', id: 'tooluse_1', name: 'get_weather' } },
  { type: 'tool-args-delta', index: 2, json: '{"city":' },
  { type: 'tool-args-delta', index: 2, json: '"Paris"}' },
  { type: 'block-end', index: 2 },
  {
    type: 'finish',
    reason: 'tool_calls',
    rawReason: 'tool_use',
    usage: { inputTokens: 12, outputTokens: 30, totalTokens: 42, raw: { protocol: 'bedrock-converse', usage } },
    extensions: { 'bedrock-converse': { $metadata: { metrics: { latencyMs: 640 } } } },
  },
];

function decode(events: readonly SseEvent[], model?: string): LlmStreamEvent[] {
  const out: LlmStreamEvent[] = [];
  const state = createDecodeState(model === undefined ? {} : { model });
  const sink = { enqueue: (item: LlmStreamEvent) => void out.push(item) };
  for (const item of events) decodeStep(state, item, sink);
  decodeEnd(state, sink);
  return out;
}

function encode(events: readonly LlmStreamEvent[]): SseEvent[] {
  const out: SseEvent[] = [];
  const step = bedrockConverse.stream.encoder();
  const sink = { enqueue: (item: SseEvent) => void out.push(item) };
  for (const item of events) step.transform(item, sink);
  step.flush?.(sink);
  return out;
}

const strip = (events: SseEvent[]) => events.map(({ event: name, data }) => ({ event: name, data: JSON.parse(data) as unknown }));

describe('ConverseStream', () => {
  it('decodes every event kind exactly', () => {
    expect(decode(wire, 'm')).toEqual(canonical);
  });

  it('encodes back to the same events', () => {
    expect(strip(encode(decode(wire, 'm')))).toEqual(strip(wire));
  });

  it('folds into what the JSON answer decodes to, and each encodes to the other', () => {
    const json = {
      output: {
        message: {
          role: 'assistant',
          content: [
            { reasoningContent: { reasoningText: { text: 'Need weather.', signature: 'sig-9' } } },
            { text: 'Checking.' },
            { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } },
          ],
        },
      },
      stopReason: 'tool_use',
      usage,
      metrics: { latencyMs: 640 },
    };
    const folded = accumulateEvents(decode(wire, 'm'));
    expect(bedrockConverse.response.encode(folded)).toEqual(json);
    // And the JSON answer replayed as a stream is the stream Bedrock sent (text in one delta each).
    const replayed = strip(encode(decode(encode(eventsOf(bedrockConverse.response.decode(json, { model: 'm' }))))));
    expect(replayed.map((item) => item.event)).toEqual([
      'messageStart',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockStop',
      'contentBlockDelta',
      'contentBlockStop',
      'contentBlockStart',
      'contentBlockDelta',
      'contentBlockStop',
      'messageStop',
      'metadata',
    ]);
    expect(replayed.at(-1)).toEqual({ event: 'metadata', data: { usage, metrics: { latencyMs: 640 } } });
  });

  it('holds the finish from messageStop until metadata, and still finishes when the stream ends after messageStop', () => {
    const cut = decode([
      event('messageStart', { role: 'assistant' }),
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }),
      event('messageStop', { stopReason: 'end_turn' }),
    ]);
    expect(cut.slice(-2)).toEqual([
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'stop', rawReason: 'end_turn' },
    ]);
  });

  it('ends a stream cut before messageStop, or mid tool call, with an upstream error', () => {
    const early = decode([event('messageStart', { role: 'assistant' }), event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } })]);
    expect(early.at(-1)).toMatchObject({
      type: 'error',
      error: { kind: 'upstream', code: 'stream_truncated', message: 'the Bedrock Converse stream ended before messageStop' },
    });
    const midCall = decode([
      event('messageStart', { role: 'assistant' }),
      event('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: 't', name: 'f' } } }),
      event('messageStop', { stopReason: 'tool_use' }),
    ]);
    expect(midCall.at(-1)).toMatchObject({ type: 'error', error: { kind: 'upstream', message: 'the Bedrock Converse stream ended before contentBlockStop' } });
  });

  it('turns an exception event into the error it names', () => {
    const events = decode([
      event('messageStart', { role: 'assistant' }),
      event('throttlingException', { message: 'Too many requests, please wait before trying again.' }),
    ]);
    const last = events.at(-1)!;
    expect(last.type).toBe('error');
    const error = (last as Extract<LlmStreamEvent, { type: 'error' }>).error;
    expect({ kind: error.kind, status: error.status, code: error.code, message: error.message }).toEqual({
      kind: 'rate_limit',
      status: 429,
      code: 'ThrottlingException',
      message: 'Too many requests, please wait before trying again.',
    });
    // And encodes back to the same event.
    expect(strip(encode(events))).toEqual(
      strip([event('messageStart', { role: 'assistant' }), event('throttlingException', { message: 'Too many requests, please wait before trying again.' })]),
    );
  });

  it('refuses a payload that is not JSON, and events out of order', () => {
    expect(decode([{ event: 'messageStart', data: 'nope', id: undefined }])[0]).toMatchObject({ type: 'error', error: { kind: 'upstream' } });
    expect(decode([event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'x' } })])[0]).toMatchObject({
      type: 'error',
      error: { kind: 'upstream', message: 'unexpected Bedrock Converse stream event: contentBlockDelta before messageStart' },
    });
  });

  it('refuses an event nested deeper than MAX_JSON_DEPTH with an upstream error', () => {
    const deep = `${'{"a":'.repeat(200)}1${'}'.repeat(200)}`;
    const events = decode([event('messageStart', { role: 'assistant' }), { event: 'contentBlockDelta', data: deep, id: undefined }]);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { kind: 'upstream', protocol: 'bedrock-converse' } });
  });

  it('redacted reasoning streams as one delta and comes back', () => {
    const events = [
      event('messageStart', { role: 'assistant' }),
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { redactedContent: 'AAEC' } } }),
      event('contentBlockStop', { contentBlockIndex: 0 }),
      event('messageStop', { stopReason: 'end_turn' }),
      event('metadata', { usage, metrics: { latencyMs: 1 } }),
    ];
    expect(decode(events)[1]).toEqual({ type: 'block-start', index: 0, block: { kind: 'reasoning', redacted: true, signature: 'AAEC', origin } });
    expect(strip(encode(decode(events)))).toEqual(strip(events));
  });

  it('a stream that ends with neither finish nor error tells the Converse client so', () => {
    expect(strip(encode([{ type: 'start' }]))).toEqual([
      { event: 'messageStart', data: { role: 'assistant' } },
      { event: 'internalServerException', data: { message: 'the upstream stream ended before it finished' } },
    ]);
  });
});

function eventsOf(response: Parameters<typeof bedrockConverse.response.encode>[0]): LlmStreamEvent[] {
  // Core's responseToEvents, imported lazily to keep this file's imports to the public API.
  return responseEvents(response);
}

import { responseToEvents as responseEvents } from '@llm/core';
