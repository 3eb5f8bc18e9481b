import type { Codec, LlmWarning } from '@llm/core';
import { claude } from '@llm/claude';
import { gemini } from '@llm/gemini';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { bridge } from '@llm/router';
import { describe, expect, it } from 'vitest';

/** The upstream body a client request becomes, and the warnings (`code@path`) on the way. */
function translate(client: Codec, upstream: Codec, body: unknown): { body: Record<string, unknown>; warnings: string[] } {
  const warnings: string[] = [];
  const via = bridge({ client, upstream, warn: (warning: LlmWarning) => warnings.push(`${warning.code}@${warning.path}`) });
  const out = via.request(body, client === gemini ? { model: 'm', stream: false } : {}) as { body: Record<string, unknown> };
  return { body: out.body, warnings };
}

const question = 'What is 2**100?';
const claudeRequest = {
  model: 'm',
  max_tokens: 100,
  tools: [{ type: 'code_execution_20250825', name: 'code_execution' }],
  messages: [{ role: 'user', content: question }],
};
const responsesRequest = { model: 'm', input: question, tools: [{ type: 'code_interpreter', container: { type: 'auto' } }] };
const geminiRequest = { contents: [{ role: 'user', parts: [{ text: question }] }], tools: [{ codeExecution: {} }] };

describe('hosted code execution tool across protocols', () => {
  it('Claude code_execution -> Responses code_interpreter in an automatic container, Gemini codeExecution; Chat has none (reported)', () => {
    expect(translate(claude, openaiResponses, claudeRequest)).toEqual({
      body: expect.objectContaining({ tools: [{ type: 'code_interpreter', container: { type: 'auto' } }] }),
      warnings: [],
    });
    expect(translate(claude, gemini, claudeRequest).body.tools).toEqual([{ codeExecution: {} }]);
    const chat = translate(claude, openaiChat, claudeRequest);
    expect(chat.body.tools).toBeUndefined();
    expect(chat.warnings).toEqual(['dropped-tool@tools[0]']);
  });

  it('Responses code_interpreter -> Claude and Gemini; a named container is a Responses setting, reported', () => {
    expect(translate(openaiResponses, claude, responsesRequest)).toEqual({
      body: expect.objectContaining({ tools: [{ type: 'code_execution_20250825', name: 'code_execution' }] }),
      warnings: ['defaulted@max_tokens'],
    });
    const named = translate(openaiResponses, gemini, { ...responsesRequest, tools: [{ type: 'code_interpreter', container: 'cntr_1' }] });
    expect(named.body.tools).toEqual([{ codeExecution: {} }]);
    expect(named.warnings).toEqual(['dropped-field@tools[0].container']);
  });

  it('Gemini codeExecution -> Claude and Responses; a tool choice forcing it is the Responses hosted-tool choice', () => {
    expect(translate(gemini, claude, geminiRequest).body.tools).toEqual([{ type: 'code_execution_20250825', name: 'code_execution' }]);
    expect(translate(gemini, openaiResponses, geminiRequest).body.tools).toEqual([{ type: 'code_interpreter', container: { type: 'auto' } }]);
    const forced = translate(claude, openaiResponses, { ...claudeRequest, tool_choice: { type: 'tool', name: 'code_execution' } });
    expect(forced.body.tool_choice).toEqual({ type: 'code_interpreter' });
    const toGemini = translate(claude, gemini, { ...claudeRequest, tool_choice: { type: 'tool', name: 'code_execution' } });
    expect(toGemini.body.toolConfig).toBeUndefined();
    expect(toGemini.warnings).toEqual(['dropped-field@tool_choice']);
  });

  it('same-protocol round trips stay exact', () => {
    const claudeTools = [{ type: 'code_execution_20250522', name: 'code_execution', cache_control: { type: 'ephemeral' } }];
    expect(claude.request.encode(claude.request.decode({ ...claudeRequest, tools: claudeTools }))).toEqual({ ...claudeRequest, tools: claudeTools });
    for (const container of [{ type: 'auto' }, 'cntr_1', { type: 'auto', file_ids: ['file_1'], memory_limit: '4g' }]) {
      const body = { ...responsesRequest, tools: [{ type: 'code_interpreter', container }] };
      expect(openaiResponses.request.encode(openaiResponses.request.decode(body))).toEqual(body);
    }
    const snake = { ...geminiRequest, tools: [{ code_execution: {} }, { googleSearch: {} }] };
    expect(gemini.request.encode(gemini.request.decode(snake, { model: 'm' }), { model: 'm' })).toEqual(snake);
  });
});
