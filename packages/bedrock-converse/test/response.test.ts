// Answers: exact golden decode, identity round trip, and answers from other protocols.
import type { LlmResponse, LlmWarning } from '@llm/core';
import { responseToEvents } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { bedrockConverse } from '../src/index.js';

const wire = {
  output: {
    message: {
      role: 'assistant',
      content: [
        { reasoningContent: { reasoningText: { text: 'Weather first.', signature: 'sig' } } },
        { text: 'Let me check.' },
        { toolUse: { toolUseId: 'tooluse_9', name: 'get_weather', input: { city: 'Oslo' } } },
      ],
    },
  },
  stopReason: 'tool_use',
  usage: { inputTokens: 10, outputTokens: 20, totalTokens: 130, cacheReadInputTokens: 80, cacheWriteInputTokens: 20 },
  metrics: { latencyMs: 321 },
  additionalModelResponseFields: { stop_sequence: null },
};

const canonical: LlmResponse = {
  id: '',
  model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  choices: [
    {
      index: 0,
      content: [
        { type: 'reasoning', text: 'Weather first.', signature: 'sig', origin: { protocol: 'bedrock-converse' } },
        { type: 'text', text: 'Let me check.' },
        { type: 'tool-call', id: 'tooluse_9', name: 'get_weather', arguments: { city: 'Oslo' } },
      ],
      finishReason: 'tool_calls',
      rawFinishReason: 'tool_use',
    },
  ],
  usage: {
    inputTokens: 110,
    outputTokens: 20,
    totalTokens: 130,
    cacheReadTokens: 80,
    cacheWriteTokens: 20,
    raw: { protocol: 'bedrock-converse', usage: wire.usage },
  },
  extensions: { 'bedrock-converse': { metrics: { latencyMs: 321 }, additionalModelResponseFields: { stop_sequence: null } } },
};

describe('Converse answers', () => {
  it('decode exactly: the model from the request, cache reads and writes added into the input', () => {
    expect(bedrockConverse.response.decode(wire, { model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' })).toEqual(canonical);
  });

  it('encode back to the same body', () => {
    expect(bedrockConverse.response.encode(bedrockConverse.response.decode(wire))).toEqual(wire);
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['tool_use', 'tool_calls'],
    ['guardrail_intervened', 'content_filter'],
    ['content_filtered', 'content_filter'],
    ['model_context_window_exceeded', 'context_exceeded'],
    ['malformed_tool_use', 'error'],
    ['something_new', 'other'],
  ])('stopReason %s is %s and comes back as it came', (stopReason, reason) => {
    const body = {
      output: { message: { role: 'assistant', content: [{ text: 'x' }] } },
      stopReason,
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      metrics: { latencyMs: 1 },
    };
    const decoded = bedrockConverse.response.decode(body);
    expect(decoded.choices[0]!.finishReason).toBe(reason);
    expect(bedrockConverse.response.encode(decoded)).toEqual(body);
  });

  it('refuses what is not a Converse answer with an upstream error naming the path', () => {
    expect(() => bedrockConverse.response.decode({ stopReason: 'end_turn' })).toThrow('invalid Bedrock Converse answer at output');
    expect(() => bedrockConverse.response.decode({ output: { message: { role: 'assistant', content: [] } } })).toThrow('at stopReason');
    expect(bedrockConverse.response.answerFault({ output: { message: {} }, stopReason: 'end_turn' })).toBeUndefined();
    expect(bedrockConverse.response.answerFault([])).toBe('$');
  });
});

describe('answers from other protocols', () => {
  it('are written with Converse words: a refusal is content_filtered, usage without the cached part, metrics zero', () => {
    const warnings: LlmWarning[] = [];
    const response: LlmResponse = {
      id: 'msg_1',
      model: 'claude-x',
      choices: [
        {
          index: 0,
          content: [
            { type: 'reasoning', text: 'hmm', signature: 'claude-sig', origin: { protocol: 'claude' } },
            { type: 'refusal', text: 'I cannot help.' },
          ],
          finishReason: 'refusal',
          rawFinishReason: 'refusal',
          logprobs: [],
        },
      ],
      usage: { inputTokens: 100, outputTokens: 5, cacheReadTokens: 60 },
    };
    expect(bedrockConverse.response.encode(response, { warn: (w) => warnings.push(w) })).toEqual({
      output: {
        message: {
          role: 'assistant',
          content: [{ reasoningContent: { reasoningText: { text: 'hmm' } } }, { text: 'I cannot help.' }],
        },
      },
      stopReason: 'content_filtered',
      usage: { inputTokens: 40, outputTokens: 5, totalTokens: 105, cacheReadInputTokens: 60 },
      metrics: { latencyMs: 0 },
    });
    // Claude's signature is not sent (the thinking's text is): reported, as a stream of it reports it.
    expect(warnings.map((w) => `${w.code}@${w.path}`)).toEqual(['dropped-field@choices[0].logprobs', 'foreign-state@choices[0].content[0]']);
  });

  it('report the usage sub-counts Converse has no field for (zero counts lose nothing), in answers and streams', () => {
    const warnings: string[] = [];
    const warn = (w: LlmWarning) => warnings.push(`${w.code}@${w.path}`);
    const answer = (reasoningTokens: number): LlmResponse => ({
      id: 'r',
      model: 'm',
      choices: [{ index: 0, content: [{ type: 'text', text: '42' }], finishReason: 'stop' }],
      usage: { inputTokens: 10, outputTokens: 300, reasoningTokens },
    });
    expect(bedrockConverse.response.encode(answer(250), { warn }).usage).toEqual({ inputTokens: 10, outputTokens: 300, totalTokens: 310 });
    bedrockConverse.response.encode(answer(0), { warn });
    const step = bedrockConverse.stream.encoder({ warn });
    for (const event of responseToEvents(answer(250))) step.transform(event, { enqueue: () => undefined });
    expect(warnings).toEqual(['dropped-field@usage.reasoningTokens', 'dropped-field@usage.reasoningTokens']);
  });
});
