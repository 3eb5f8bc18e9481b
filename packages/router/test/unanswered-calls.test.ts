// Issue 18: a Gemini history that goes on past a function call it never answered (Gemini accepts
// it) reaches Claude, Chat and Responses with a supplied result, which they require, over the
// real codecs.
import { claude } from '@llm/claude';
import type { Codec, LlmWarning } from '@llm/core';
import { gemini } from '@llm/gemini';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { describe, expect, it } from 'vitest';
import { bridge } from '../src/bridge.js';
import { answerEveryCall } from '../src/request-fixes.js';

/** Paris is never answered (and has no id: the Gemini codec makes up `call_0`); Rome is. */
const history = {
  contents: [
    { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
    {
      role: 'model',
      parts: [
        { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
        { functionCall: { id: 'rome', name: 'get_weather', args: { city: 'Rome' } } },
      ],
    },
    { role: 'user', parts: [{ functionResponse: { id: 'rome', name: 'get_weather', response: { output: 'sunny' } } }] },
    { role: 'user', parts: [{ text: 'Never mind, tell me a joke.' }] },
  ],
};

function translated(upstream: Codec, body: object, stream = false) {
  const warnings: LlmWarning[] = [];
  const out = bridge({ client: gemini, upstream, strict: true, warn: (warning) => warnings.push(warning) }).request(structuredClone(body), {
    model: 'gemini-2.5-flash',
    upstreamModel: 'm',
    stream,
  });
  return { body: out.body, warnings: warnings.filter((warning) => warning.code !== 'defaulted' || warning.path !== 'max_tokens') };
}

const warned = (target: string) => [
  {
    code: 'defaulted',
    path: 'messages[1].content[0]',
    message: `tool call call_0 (get_weather) has no result, which ${target} requires; sent with the result "no result was returned"`,
  },
];

const parisCall = { id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
const romeCall = { id: 'rome', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } };

describe('a Gemini history with an unanswered function call', () => {
  it('reaches Claude with an is_error tool_result before the given one, in call order, streaming or not (strict mode passes: nothing is lost)', () => {
    for (const stream of [false, true]) {
      expect(translated(claude, history, stream)).toEqual({
        body: {
          model: 'm',
          max_tokens: 4096,
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
            {
              role: 'assistant',
              content: [
                { type: 'tool_use', id: 'call_0', name: 'get_weather', input: { city: 'Paris' } },
                { type: 'tool_use', id: 'rome', name: 'get_weather', input: { city: 'Rome' } },
              ],
            },
            {
              role: 'user',
              content: [
                { type: 'tool_result', tool_use_id: 'call_0', content: 'no result was returned', is_error: true },
                { type: 'tool_result', tool_use_id: 'rome', content: 'sunny' },
                { type: 'text', text: 'Never mind, tell me a joke.' },
              ],
            },
          ],
          stream,
        },
        warnings: warned('claude'),
      });
    }
  });

  it('reaches Chat with a tool message for the call (Chat tool messages have no error flag)', () => {
    for (const stream of [false, true]) {
      const { body, warnings } = translated(openaiChat, history, stream);
      expect((body as { messages: unknown }).messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
        { role: 'assistant', tool_calls: [parisCall, romeCall] },
        { role: 'tool', tool_call_id: 'call_0', content: 'no result was returned' },
        { role: 'tool', tool_call_id: 'rome', content: 'sunny' },
        { role: 'user', content: [{ type: 'text', text: 'Never mind, tell me a joke.' }] },
      ]);
      expect(warnings).toEqual(warned('openai-chat'));
    }
  });

  it('reaches Responses with a function_call_output for the call', () => {
    for (const stream of [false, true]) {
      const { body, warnings } = translated(openaiResponses, history, stream);
      expect((body as { input: unknown }).input).toEqual([
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris and Rome?' }] },
        { type: 'function_call', call_id: 'call_0', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'rome', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'call_0', output: 'no result was returned' },
        { type: 'function_call_output', call_id: 'rome', output: 'sunny' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Never mind, tell me a joke.' }] },
      ]);
      expect(warnings).toEqual(warned('openai-responses'));
    }
  });

  it('answers a call no result follows at all, and one that ends the history', () => {
    const call = { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] };
    const question = { role: 'user', parts: [{ text: 'Weather in Paris?' }] };
    const afterwards = { contents: [question, call, { role: 'user', parts: [{ text: 'Never mind.' }] }] };
    expect((translated(openaiChat, afterwards).body as { messages: unknown }).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      { role: 'assistant', tool_calls: [parisCall] },
      { role: 'tool', tool_call_id: 'call_0', content: 'no result was returned' },
      { role: 'user', content: [{ type: 'text', text: 'Never mind.' }] },
    ]);
    const last = translated(claude, { contents: [question, call] });
    expect((last.body as { messages: unknown }).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_0', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_0', content: 'no result was returned', is_error: true }] },
    ]);
    expect(last.warnings).toEqual(warned('claude'));
  });

  it('is left as it is for a Gemini upstream, which accepts it', () => {
    const warnings: LlmWarning[] = [];
    const via = bridge({ client: openaiChat, upstream: gemini, warn: (warning) => warnings.push(warning) });
    const out = via.request({
      model: 'gemini-2.5-flash',
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', tool_calls: [parisCall] },
        { role: 'user', content: 'Never mind.' },
      ],
    });
    expect((out.body as { contents: unknown }).contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      {
        role: 'model',
        parts: [{ functionCall: { id: 'call_0', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'skip_thought_signature_validator' }],
      },
      { role: 'user', parts: [{ text: 'Never mind.' }] },
    ]);
    expect(warnings.map((warning) => `${warning.code}@${warning.path}`)).toEqual([]);
  });

  it('keeps an answered history the very same array (no copy)', () => {
    const messages = [
      { role: 'assistant' as const, content: [{ type: 'tool-call' as const, id: 'a', name: 'f', arguments: {} }] },
      { role: 'tool' as const, content: [{ type: 'tool-result' as const, toolCallId: 'a', content: 'ok' }] },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'thanks' }] },
    ];
    expect(answerEveryCall(messages, 'claude', true)).toBe(messages);
  });
});
