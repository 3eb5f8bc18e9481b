// Property round trips: for generated Converse bodies, answers and streams, decode then encode is
// the identity, and a stream of text and tool-input fragments split anywhere folds to the joined
// values.
import { accumulateEvents, type LlmStreamEvent, type SseEvent } from '@llm/core';
import { propertyRuns } from '@llm/test-utils/property-runs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bedrockConverse } from '../src/index.js';

const text = fc.string({ maxLength: 30, unit: 'grapheme' });
const id = fc.stringMatching(/^tooluse_[A-Za-z0-9]{1,10}$/);
const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,15}$/);
const base64 = fc.stringMatching(/^[A-Za-z0-9+/]{4,16}$/);
const json = fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.integer(), fc.boolean(), text), { maxKeys: 3 });
const cachePoint = fc.oneof(
  fc.constant({ cachePoint: { type: 'default' } }),
  fc.constantFrom('5m', '1h').map((ttl) => ({ cachePoint: { type: 'default', ttl } })),
);
const image = fc
  .record({ format: fc.constantFrom('png', 'jpeg', 'gif', 'webp'), source: base64.map((bytes) => ({ bytes })) })
  .map((value) => ({ image: value }));
const document = fc
  .oneof(
    fc.record({
      format: fc.constantFrom('pdf', 'csv', 'docx', 'txt', 'md'),
      name: fc.stringMatching(/^[A-Za-z0-9]{1,10}$/),
      source: base64.map((bytes) => ({ bytes })),
    }),
    fc.record({ name: fc.stringMatching(/^[A-Za-z0-9]{1,10}$/), source: text.map((value) => ({ text: value })) }),
  )
  .map((value) => ({ document: value }));
const toolResult = fc
  .record(
    {
      toolUseId: id,
      content: fc.array(
        fc.oneof(
          text.map((value) => ({ text: value })),
          json.map((value) => ({ json: value })),
          image,
        ),
        { maxLength: 3 },
      ),
      status: fc.constantFrom('success', 'error'),
    },
    { requiredKeys: ['toolUseId', 'content'] },
  )
  .map((value) => ({ toolResult: value }));
const toolUse = fc.record({ toolUseId: id, name, input: json }).map((value) => ({ toolUse: value }));
const reasoning = fc.oneof(
  fc.record({ text, signature: base64 }, { requiredKeys: ['text'] }).map((value) => ({ reasoningContent: { reasoningText: value } })),
  base64.map((value) => ({ reasoningContent: { redactedContent: value } })),
);
const guard = text.map((value) => ({ guardContent: { text: { text: value } } }));

const userBlock = fc.oneof(
  text.map((value) => ({ text: value })),
  image,
  document,
  toolResult,
  cachePoint,
  guard,
);
const assistantBlock = fc.oneof(
  text.map((value) => ({ text: value })),
  toolUse,
  reasoning,
  cachePoint,
);
const message = fc.oneof(
  fc.record({ role: fc.constant('user'), content: fc.array(userBlock, { maxLength: 5 }) }),
  fc.record({ role: fc.constant('assistant'), content: fc.array(assistantBlock, { maxLength: 5 }) }),
);
const tool = fc.oneof(
  fc
    .record(
      { name, description: text, inputSchema: json.map((value) => ({ json: { type: 'object', properties: value } })) },
      { requiredKeys: ['name', 'inputSchema'] },
    )
    .map((spec) => ({ toolSpec: spec })),
  cachePoint,
);
const request = fc.record(
  {
    messages: fc.array(message, { maxLength: 6 }),
    system: fc.array(
      fc.oneof(
        text.map((value) => ({ text: value })),
        cachePoint,
      ),
      { maxLength: 3 },
    ),
    inferenceConfig: fc.record(
      {
        maxTokens: fc.nat(),
        temperature: fc.double({ min: 0, max: 1, noNaN: true }),
        topP: fc.double({ min: 0, max: 1, noNaN: true }),
        stopSequences: fc.array(text, { maxLength: 3 }),
      },
      { requiredKeys: [] },
    ),
    toolConfig: fc.record(
      {
        tools: fc.array(tool, { maxLength: 3 }),
        toolChoice: fc.oneof(
          fc.constant({ auto: {} }),
          fc.constant({ any: {} }),
          name.map((value) => ({ tool: { name: value } })),
        ),
      },
      { requiredKeys: ['tools'] },
    ),
    requestMetadata: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), text, { maxKeys: 2 }),
    additionalModelRequestFields: json,
  },
  { requiredKeys: ['messages'] },
);

const answer = fc.record(
  {
    output: fc.array(assistantBlock, { maxLength: 5 }).map((content) => ({ message: { role: 'assistant', content } })),
    stopReason: fc.constantFrom('end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'guardrail_intervened', 'content_filtered', 'something_new'),
    usage: fc.record(
      { inputTokens: fc.nat(), outputTokens: fc.nat(), totalTokens: fc.nat(), cacheReadInputTokens: fc.nat(), cacheWriteInputTokens: fc.nat() },
      { requiredKeys: ['inputTokens', 'outputTokens', 'totalTokens'] },
    ),
    metrics: fc.nat().map((latencyMs) => ({ latencyMs })),
  },
  { requiredKeys: ['output', 'stopReason'] },
);

describe('Converse round trips (properties)', () => {
  it('request bodies: decode then encode is the identity', () => {
    fc.assert(
      fc.property(request, fc.constantFrom('amazon.nova-pro-v1:0', 'anthropic.claude-3-7-sonnet-20250219-v1:0'), (body, model) => {
        // Bedrock refuses tool blocks without a toolConfig; the encoder declares the called tools then.
        fc.pre(body.toolConfig !== undefined || !JSON.stringify(body.messages).includes('"toolUse"'));
        expect(bedrockConverse.request.encode(bedrockConverse.request.decode(structuredClone(body), { model }))).toEqual(body);
      }),
      propertyRuns(300),
    );
  });

  it('answers: decode then encode is the identity', () => {
    fc.assert(
      fc.property(answer, (body) => {
        expect(bedrockConverse.response.encode(bedrockConverse.response.decode(structuredClone(body)))).toEqual(body);
      }),
      propertyRuns(300),
    );
  });

  it('a streamed text and tool input split anywhere fold to the joined values, and re-encode to the same events', () => {
    const pieces = fc.array(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(pieces, pieces, (textPieces, inputPieces) => {
        const input = JSON.stringify({ q: inputPieces.join('') });
        const cut = Math.floor(input.length / 2);
        const events: SseEvent[] = [
          { event: 'messageStart', data: '{"role":"assistant"}' },
          ...textPieces.map((piece) => ({ event: 'contentBlockDelta', data: JSON.stringify({ contentBlockIndex: 0, delta: { text: piece } }) })),
          { event: 'contentBlockStop', data: '{"contentBlockIndex":0}' },
          { event: 'contentBlockStart', data: JSON.stringify({ contentBlockIndex: 1, start: { toolUse: { toolUseId: 't', name: 'f' } } }) },
          ...[input.slice(0, cut), input.slice(cut)].map((part) => ({
            event: 'contentBlockDelta',
            data: JSON.stringify({ contentBlockIndex: 1, delta: { toolUse: { input: part } } }),
          })),
          { event: 'contentBlockStop', data: '{"contentBlockIndex":1}' },
          { event: 'messageStop', data: '{"stopReason":"tool_use"}' },
          { event: 'metadata', data: '{"usage":{"inputTokens":1,"outputTokens":2,"totalTokens":3},"metrics":{"latencyMs":4}}' },
        ];
        const decoded: LlmStreamEvent[] = [];
        const decoder = bedrockConverse.stream.decoder();
        for (const event of events) decoder.transform(event, { enqueue: (item) => void decoded.push(item) });
        decoder.flush?.({ enqueue: (item) => void decoded.push(item) });
        const folded = accumulateEvents(decoded);
        expect(folded.choices[0]!.content).toEqual([
          { type: 'text', text: textPieces.join('') },
          { type: 'tool-call', id: 't', name: 'f', arguments: input },
        ]);
        const encoded: SseEvent[] = [];
        const encoder = bedrockConverse.stream.encoder();
        for (const event of decoded) encoder.transform(event, { enqueue: (item) => void encoded.push(item) });
        encoder.flush?.({ enqueue: (item) => void encoded.push(item) });
        expect(encoded.map(({ event, data }) => ({ event, data: JSON.parse(data) }))).toEqual(
          events.map(({ event, data }) => ({ event, data: JSON.parse(data) })),
        );
      }),
      propertyRuns(200),
    );
  });
});
