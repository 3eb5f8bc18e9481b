// Property round trips: for generated Chat bodies and answers, decode then encode is the identity,
// and a stream of text and tool-argument fragments split anywhere accumulates to the joined values.
import { accumulateEvents, type LlmStreamEvent } from '@llm/core';
import { runTransform } from '@llm/test-utils';
import fc from 'fast-check';
import { propertyRuns } from '@llm/test-utils/property-runs';
import { describe, expect, it } from 'vitest';
import { openaiChat } from '../src/index.js';

/** Asserts decode then encode gives back every generated body. */
function roundTrips(bodies: fc.Arbitrary<unknown>, side: { decode(body: unknown): unknown; encode(value: never): unknown }): void {
  fc.assert(
    fc.property(bodies, (body) => {
      expect(side.encode(side.decode(structuredClone(body)) as never)).toEqual(body);
    }),
    propertyRuns(300),
  );
}
const text = fc.string({ maxLength: 40, unit: 'grapheme' });
const callId = fc.stringMatching(/^call_[A-Za-z0-9]{1,12}$/);
const toolName = fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/);
const jsonArgs = fc
  .dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.integer(), fc.boolean(), text), { maxKeys: 3 })
  .map((value) => JSON.stringify(value));
const textParts = fc.array(
  text.map((value) => ({ type: 'text', text: value })),
  { minLength: 1, maxLength: 3 },
);

const toolCall = fc.record({ id: callId, type: fc.constant('function'), function: fc.record({ name: toolName, arguments: jsonArgs }) });
const message = fc.oneof(
  fc.record({ role: fc.constantFrom('system', 'developer'), content: fc.oneof(text, textParts) }),
  fc.record({ role: fc.constant('user'), content: fc.oneof(text, textParts) }, { requiredKeys: ['role', 'content'] }),
  fc.record({ role: fc.constant('assistant'), content: text, tool_calls: fc.array(toolCall, { minLength: 1, maxLength: 3 }) }, { requiredKeys: ['role'] }),
  fc.record({ role: fc.constant('tool'), tool_call_id: callId, content: text }),
);
const request = fc.record(
  {
    model: fc.constantFrom('gpt-4o', 'gpt-4.1-mini', 'o3'),
    messages: fc.array(message, { minLength: 1, maxLength: 6 }),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    max_completion_tokens: fc.integer({ min: 1, max: 100_000 }),
    seed: fc.integer(),
    stop: fc.array(text, { minLength: 1, maxLength: 4 }),
    tools: fc.array(
      fc.record({
        type: fc.constant('function'),
        function: fc.record({ name: toolName, description: text, parameters: fc.constant({ type: 'object', properties: {} }) }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    tool_choice: fc.oneof(
      fc.constantFrom('auto', 'none', 'required'),
      toolName.map((name) => ({ type: 'function', function: { name } })),
    ),
    parallel_tool_calls: fc.boolean(),
    metadata: fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), text, { maxKeys: 3 }),
    x_vendor_field: fc.jsonValue(),
  },
  { requiredKeys: ['model', 'messages'] },
);

describe('property: request decode then encode is the identity', () => {
  it('on generated bodies (unknown top-level fields included)', () => {
    roundTrips(request, openaiChat.request);
  });
});

const answer = fc.record({
  id: fc.stringMatching(/^chatcmpl-[A-Za-z0-9]{1,10}$/),
  object: fc.constant('chat.completion'),
  created: fc.integer({ min: 0, max: 2_000_000_000 }),
  model: fc.constantFrom('gpt-4o', 'gpt-4.1'),
  choices: fc
    .array(
      fc.oneof(
        fc.record({
          message: fc.record({ role: fc.constant('assistant'), content: text, refusal: fc.constant(null) }),
          finish_reason: fc.constantFrom('stop', 'length', 'content_filter'),
        }),
        fc.record({
          message: fc.record({
            role: fc.constant('assistant'),
            content: fc.constant(null),
            refusal: fc.constant(null),
            tool_calls: fc.array(toolCall, { minLength: 1, maxLength: 3 }),
          }),
          finish_reason: fc.constant('tool_calls'),
        }),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((choices) => choices.map((choice, index) => ({ index, ...choice, logprobs: null }))),
  usage: fc
    .integer({ min: 0, max: 10_000 })
    .chain((prompt) =>
      fc.integer({ min: 0, max: 10_000 }).map((completion) => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion })),
    ),
});

describe('property: response decode then encode is the identity', () => {
  it('on generated answers with n choices, text or tool calls', () => {
    roundTrips(answer, openaiChat.response);
  });
});

describe('property: stream fragments accumulate to the joined text and arguments', () => {
  it('for any split of the text and of the arguments', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 8 }), jsonArgs, fc.array(fc.nat(), { maxLength: 5 }), async (pieces, args, cuts) => {
        const offsets = [...new Set(cuts.map((cut) => cut % (args.length + 1)))].sort((a, b) => a - b);
        const argPieces = [0, ...offsets, args.length].slice(1).map((end, index, all) => args.slice(index === 0 ? 0 : all[index - 1], end));
        const head = { id: 'chatcmpl-p', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o' };
        const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ ...head, choices: [{ index: 0, delta, finish_reason: finish }] });
        const payloads = [
          chunk({ role: 'assistant', content: '' }),
          ...pieces.map((piece) => chunk({ content: piece })),
          chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] }),
          ...argPieces.map((piece) => chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
          chunk({}, 'tool_calls'),
        ];
        const events = await runTransform<unknown, LlmStreamEvent>(openaiChat.stream.decode(), [
          ...payloads.map((payload) => ({ data: JSON.stringify(payload) })),
          { data: '[DONE]' },
        ]);
        const response = accumulateEvents(events);
        const joined = pieces.join('');
        expect(response.choices[0]?.finishReason).toBe('tool_calls');
        expect(response.choices[0]?.content).toEqual([
          ...(joined === '' ? [] : [{ type: 'text', text: joined }]),
          { type: 'tool-call', id: 'call_1', name: 'f', arguments: args },
        ]);
      }),
      propertyRuns(200),
    );
  });
});
