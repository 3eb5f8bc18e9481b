import fc from 'fast-check';
import { propertyRuns } from '@llm/test-utils/property-runs';
import { describe, expect, it } from 'vitest';
import { LlmStreamAccumulator, accumulateEvents, accumulateStream } from './accumulator.js';
import type { LlmAssistantContent } from './content.js';
import { LlmError } from './errors.js';
import type { LlmResponse } from './response.js';
import { responseToEvents } from './response-events.js';
import type { LlmStreamEvent } from './stream-event.js';

const usage = { inputTokens: 12, outputTokens: 30, reasoningTokens: 10, cacheReadTokens: 4 };

const TOOL_TURN: LlmStreamEvent[] = [
  { type: 'start', id: 'msg_1', model: 'claude-x', created: 1700000000 },
  { type: 'usage', usage: { inputTokens: 12, outputTokens: 1 } },
  { type: 'block-start', index: 0, block: { kind: 'reasoning', origin: { protocol: 'claude' } } },
  { type: 'reasoning-delta', index: 0, text: 'Let me ' },
  { type: 'reasoning-delta', index: 0, text: 'think.' },
  { type: 'reasoning-signature', index: 0, signature: 'sig-abc', origin: { protocol: 'claude', model: 'claude-x' } },
  { type: 'block-end', index: 0 },
  { type: 'block-start', index: 1, block: { kind: 'text' } },
  { type: 'text-delta', index: 1, text: 'Checking the ' },
  { type: 'text-delta', index: 1, text: 'weather.' },
  { type: 'citation', index: 1, citation: { kind: 'url', url: 'https://example.com', title: 'Example' } },
  { type: 'block-end', index: 1 },
  { type: 'block-start', index: 2, block: { kind: 'tool_call', id: 'toolu_1', name: 'get_weather' } },
  { type: 'tool-args-delta', index: 2, json: '{"city":' },
  { type: 'block-start', index: 3, block: { kind: 'tool_call', id: 'toolu_2', name: 'get_time' } },
  { type: 'tool-args-delta', index: 3, json: '{}' },
  { type: 'tool-args-delta', index: 2, json: '"Paris"}' },
  { type: 'block-end', index: 3 },
  { type: 'block-end', index: 2, extensions: { claude: { caller: 'direct' } } },
  { type: 'finish', reason: 'tool_calls', rawReason: 'tool_use', usage },
];

describe('LlmStreamAccumulator', () => {
  it('folds a tool turn with reasoning, interleaved calls and citations into a response', () => {
    expect(accumulateEvents(TOOL_TURN)).toEqual({
      id: 'msg_1',
      model: 'claude-x',
      created: 1700000000,
      usage,
      choices: [
        {
          index: 0,
          finishReason: 'tool_calls',
          rawFinishReason: 'tool_use',
          content: [
            {
              type: 'reasoning',
              text: 'Let me think.',
              signature: 'sig-abc',
              origin: { protocol: 'claude', model: 'claude-x' },
            },
            {
              type: 'text',
              text: 'Checking the weather.',
              citations: [{ kind: 'url', url: 'https://example.com', title: 'Example' }],
            },
            {
              type: 'tool-call',
              id: 'toolu_1',
              name: 'get_weather',
              arguments: '{"city":"Paris"}',
              extensions: { claude: { caller: 'direct' } },
            },
            { type: 'tool-call', id: 'toolu_2', name: 'get_time', arguments: '{}' },
          ],
        },
      ],
    } satisfies LlmResponse);
  });

  it('keeps several choices apart and orders them by index', () => {
    const response = accumulateEvents([
      { type: 'start', id: 'chatcmpl-1', model: 'gpt' },
      { type: 'block-start', index: 0, block: { kind: 'text' }, choice: 1 },
      { type: 'block-start', index: 1, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'B' },
      { type: 'text-delta', index: 1, text: 'A' },
      { type: 'logprobs', index: 1, logprobs: [{ token: 'A', logprob: -0.1 }] },
      { type: 'block-end', index: 0 },
      { type: 'block-end', index: 1 },
      { type: 'finish', reason: 'length', rawReason: 'length', choice: 1 },
      { type: 'finish', reason: 'stop', rawReason: 'stop', stopSequence: '###' },
    ]);
    expect(response.choices).toEqual([
      {
        index: 0,
        content: [{ type: 'text', text: 'A' }],
        logprobs: [{ token: 'A', logprob: -0.1 }],
        finishReason: 'stop',
        rawFinishReason: 'stop',
        stopSequence: '###',
      },
      { index: 1, content: [{ type: 'text', text: 'B' }], finishReason: 'length', rawFinishReason: 'length' },
    ]);
  });

  it('reports done only when every choice has finished', () => {
    const accumulator = new LlmStreamAccumulator();
    accumulator.push({ type: 'block-start', index: 0, block: { kind: 'text' } });
    accumulator.push({ type: 'block-start', index: 1, block: { kind: 'text' }, choice: 1 });
    accumulator.push({ type: 'finish', reason: 'stop' });
    expect(accumulator.done).toBe(false);
    accumulator.push({ type: 'finish', reason: 'stop', choice: 1 });
    expect(accumulator.done).toBe(true);
  });

  it('builds refusal, redacted reasoning and whole parts', () => {
    const response = accumulateEvents([
      { type: 'start' },
      { type: 'block-start', index: 0, block: { kind: 'reasoning', redacted: true, signature: 'opaque' } },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'refusal' } },
      { type: 'text-delta', index: 1, text: 'I cannot help with that.' },
      { type: 'block-end', index: 1 },
      {
        type: 'block-start',
        index: 2,
        block: { kind: 'part', part: { type: 'provider', protocol: 'claude', value: { type: 'server_tool_use' } } },
      },
      { type: 'block-end', index: 2 },
      { type: 'finish', reason: 'refusal', rawReason: 'refusal' },
    ]);
    expect(response.choices[0]?.content).toEqual([
      { type: 'reasoning', text: '', redacted: true, signature: 'opaque' },
      { type: 'refusal', text: 'I cannot help with that.' },
      { type: 'provider', protocol: 'claude', value: { type: 'server_tool_use' } },
    ]);
  });

  it('throws the stream error when asked for the response', () => {
    const error = new LlmError({ kind: 'overloaded', message: 'Overloaded', status: 529 });
    const accumulator = new LlmStreamAccumulator();
    accumulator.push({ type: 'start' });
    accumulator.push({ type: 'error', error });
    expect(accumulator.error).toBe(error);
    expect(accumulator.done).toBe(true);
    expect(() => accumulator.response()).toThrow(error);
  });

  it.each<[string, LlmStreamEvent[]]>([
    ['a delta for a block that never started', [{ type: 'text-delta', index: 4, text: 'x' }]],
    [
      'a block started twice',
      [
        { type: 'block-start', index: 0, block: { kind: 'text' } },
        { type: 'block-start', index: 0, block: { kind: 'text' } },
      ],
    ],
    [
      'text for a tool call',
      [
        { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'a', name: 'b' } },
        { type: 'text-delta', index: 0, text: 'x' },
      ],
    ],
    [
      'arguments for a text block',
      [
        { type: 'block-start', index: 0, block: { kind: 'text' } },
        { type: 'tool-args-delta', index: 0, json: '{}' },
      ],
    ],
    [
      'a delta after block-end',
      [
        { type: 'block-start', index: 0, block: { kind: 'text' } },
        { type: 'block-end', index: 0 },
        { type: 'text-delta', index: 0, text: 'late' },
      ],
    ],
  ])('rejects %s with an upstream error', (_, events) => {
    let caught: unknown;
    try {
      accumulateEvents(events);
    } catch (error) {
      caught = error;
    }
    expect(LlmError.isInstance(caught)).toBe(true);
    expect((caught as LlmError).kind).toBe('upstream');
  });

  it('accumulates ReadableStreams and async iterables', async () => {
    const stream = new ReadableStream<LlmStreamEvent>({
      start(controller) {
        for (const event of TOOL_TURN) controller.enqueue(event);
        controller.close();
      },
    });
    async function* iterate(): AsyncGenerator<LlmStreamEvent> {
      yield* TOOL_TURN;
    }
    const expected = accumulateEvents(TOOL_TURN);
    expect(await accumulateStream(stream)).toEqual(expected);
    expect(await accumulateStream(iterate())).toEqual(expected);
  });
});

describe('responseToEvents', () => {
  it('emits one block per part, usage on the last finish', () => {
    const response: LlmResponse = {
      id: 'r1',
      model: 'm',
      serviceTier: 'default',
      choices: [
        {
          index: 0,
          finishReason: 'tool_calls',
          content: [
            { type: 'text', text: 'Hi', signature: 'sig-t', origin: { protocol: 'gemini' } },
            { type: 'tool-call', id: 'c1', name: 'f', arguments: { a: 1 }, signature: 's', origin: { protocol: 'gemini' } },
          ],
        },
      ],
      usage: { inputTokens: 1, outputTokens: 2 },
    };
    expect(responseToEvents(response)).toEqual([
      { type: 'start', id: 'r1', model: 'm', serviceTier: 'default' },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'Hi' },
      { type: 'reasoning-signature', index: 0, signature: 'sig-t', origin: { protocol: 'gemini' } },
      { type: 'block-end', index: 0 },
      {
        type: 'block-start',
        index: 1,
        block: { kind: 'tool_call', id: 'c1', name: 'f', signature: 's', origin: { protocol: 'gemini' } },
      },
      { type: 'tool-args-delta', index: 1, json: '{"a":1}' },
      { type: 'block-end', index: 1 },
      { type: 'finish', reason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 2 } },
    ]);
  });

  it('is inverted by the accumulator (tool arguments come back as JSON text)', () => {
    const origin = fc.option(fc.record({ protocol: fc.constantFrom('claude', 'gemini', 'openai-responses' as const), model: fc.string() }), { nil: undefined });
    const text = fc.string({ maxLength: 20 });
    const part: fc.Arbitrary<LlmAssistantContent> = fc.oneof(
      fc.record({ type: fc.constant('text' as const), text }),
      fc.record({ type: fc.constant('refusal' as const), text }),
      fc.record(
        {
          type: fc.constant('reasoning' as const),
          text,
          format: fc.constantFrom('full' as const, 'summary' as const),
          signature: fc.string({ minLength: 1 }),
          id: fc.string({ minLength: 1 }),
          origin,
        },
        { requiredKeys: ['type', 'text'] },
      ),
      fc.record(
        {
          type: fc.constant('tool-call' as const),
          id: fc.string({ minLength: 1 }),
          name: fc.string({ minLength: 1 }),
          arguments: fc.dictionary(fc.string(), fc.jsonValue()).map((value) => JSON.stringify(value)),
          freeform: fc.constant(true as const),
          extensions: fc.constant({ 'openai-chat': { type: 'function' } }),
        },
        { requiredKeys: ['type', 'id', 'name', 'arguments'] },
      ),
      fc.record({
        type: fc.constant('image' as const),
        source: fc.record({ kind: fc.constant('url' as const), url: fc.webUrl() }),
      }),
    );
    const response: fc.Arbitrary<LlmResponse> = fc.record(
      {
        id: fc.string(),
        model: fc.string(),
        created: fc.nat(),
        choices: fc.uniqueArray(fc.nat(4), { minLength: 1, maxLength: 3 }).chain((indexes) =>
          fc.tuple(
            ...indexes
              .sort((a, b) => a - b)
              .map((index) =>
                fc.record(
                  {
                    index: fc.constant(index),
                    content: fc.array(part, { maxLength: 5 }),
                    finishReason: fc.constantFrom('stop' as const, 'length' as const, 'tool_calls' as const),
                    rawFinishReason: fc.string(),
                  },
                  { requiredKeys: ['index', 'content', 'finishReason'] },
                ),
              ),
          ),
        ),
        usage: fc.record({ inputTokens: fc.nat(), outputTokens: fc.nat() }),
      },
      { requiredKeys: ['id', 'model', 'choices'] },
    );
    fc.assert(
      fc.property(response, (value) => {
        expect(accumulateEvents(responseToEvents(value))).toEqual(value);
      }),
      // fc.jsonValue() arguments make each run ~2.5 ms.
      propertyRuns(100),
    );
  });
});
