import type { LlmStreamEvent, LlmTool } from '@llm/core';
import { collect, streamOf } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

const params = { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'], additionalProperties: false };
const lark = { type: 'grammar', syntax: 'lark', definition: 'start: /[\\s\\S]+/' };

/** The shape Codex CLI 0.169.0 sends for its default model (code mode): tools only in an `additional_tools` item. */
const codeModeRequest = {
  model: 'gpt-6.1-sol',
  stream: true,
  input: [
    {
      type: 'additional_tools',
      id: 'at_1',
      role: 'developer',
      tools: [
        {
          type: 'namespace',
          name: 'functions',
          description: 'Core tools',
          tools: [
            { type: 'custom', name: 'exec', description: 'Run JavaScript', format: lark },
            { type: 'function', name: 'wait', description: 'Wait', strict: false, parameters: params },
          ],
        },
        { type: 'namespace', name: 'clock', description: 'Time', tools: [{ type: 'function', name: 'sleep', strict: false, parameters: params }] },
      ],
    },
    { type: 'message', id: 'msg_1', role: 'developer', content: [{ type: 'input_text', text: 'You are Codex.' }] },
    { type: 'message', id: 'msg_2', role: 'user', content: [{ type: 'input_text', text: 'Read README.md' }] },
    {
      type: 'custom_tool_call',
      id: 'ctc_1',
      call_id: 'call_1',
      namespace: 'functions',
      name: 'exec',
      input: 'await tools.exec_command({cmd: "cat README.md"})',
    },
    { type: 'custom_tool_call_output', call_id: 'call_1', output: [{ type: 'input_text', text: 'MARKER: x' }] },
  ],
  tool_choice: 'auto',
  parallel_tool_calls: false,
  store: false,
};

describe('namespaced tools and additional_tools items (Codex)', () => {
  it('lifts the tools of an additional_tools item into the tool list, namespaced names qualified with a dot', () => {
    const request = openaiResponses.request.decode(codeModeRequest);
    expect(request.tools?.map((tool) => [tool.type, tool.name])).toEqual([
      ['custom', 'functions.exec'],
      ['function', 'functions.wait'],
      ['function', 'clock.sleep'],
    ]);
    expect((request.tools?.[0] as Extract<LlmTool, { type: 'custom' }>).format).toEqual(lark);
    // No message holds the item: the first message is the developer one, and the call is qualified.
    expect(request.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(request.messages[2]?.content[0]).toMatchObject({ type: 'tool-call', id: 'call_1', name: 'functions.exec', freeform: true });
  });

  it('re-encodes the item in place with its namespaces, and no top-level tools (identity)', () => {
    const request = openaiResponses.request.decode(structuredClone(codeModeRequest));
    expect(openaiResponses.request.encode(request)).toEqual(codeModeRequest);
  });

  it('keeps a top-level namespace beside plain tools (identity), and items after the last message stay at the end', () => {
    const wire = {
      model: 'gateway-custom-model',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
        { type: 'additional_tools', role: 'developer', tools: [{ type: 'function', name: 'late', parameters: params }] },
      ],
      tools: [
        { type: 'function', name: 'exec_command', strict: false, parameters: params },
        { type: 'namespace', name: 'multi_agent_v1', description: 'Agents', tools: [{ type: 'function', name: 'spawn_agent', parameters: params }] },
        { type: 'web_search', external_web_access: false },
      ],
    };
    const request = openaiResponses.request.decode(structuredClone(wire));
    expect(request.tools?.map((tool) => tool.name)).toEqual(['exec_command', 'multi_agent_v1.spawn_agent', 'web_search', 'late']);
    expect(openaiResponses.request.encode(request)).toEqual(wire);
  });

  it('writes a foreign qualified call name as a namespaced call, in JSON and streamed answers', async () => {
    const response = openaiResponses.response.encode({
      id: 'resp_1',
      model: 'm',
      choices: [{ index: 0, finishReason: 'tool_calls', content: [{ type: 'tool-call', id: 'call_9', name: 'collaboration.spawn_agent', arguments: '{}' }] }],
    });
    expect(response.output).toEqual([
      expect.objectContaining({ type: 'function_call', call_id: 'call_9', namespace: 'collaboration', name: 'spawn_agent', arguments: '{}' }),
    ]);

    const events: LlmStreamEvent[] = [
      { type: 'start', id: 'resp_2', model: 'm' },
      { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'call_1', name: 'functions.exec', freeform: true } },
      { type: 'tool-args-delta', index: 0, json: 'code()' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'tool_calls' },
    ];
    const wire = await collect(streamOf(events).pipeThrough(openaiResponses.stream.encode()));
    const added = wire.map((event) => JSON.parse(event.data)).find((data) => data.type === 'response.output_item.added');
    expect(added.item).toMatchObject({ type: 'custom_tool_call', call_id: 'call_1', namespace: 'functions', name: 'exec' });
    // Decoding that stream gives the qualified name back.
    const decoded = await collect(streamOf(wire).pipeThrough(openaiResponses.stream.decode()));
    expect(decoded.find((event) => event.type === 'block-start')).toEqual({
      type: 'block-start',
      index: 0,
      block: { kind: 'tool_call', id: 'call_1', name: 'functions.exec', freeform: true },
    });
  });

  it('a plain tool (no bag) named with a dot is written whole at the top level, never invented into a namespace group', () => {
    const body = openaiResponses.request.encode({
      model: 'm',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
      tools: [{ type: 'function', name: 'a.b', parameters: params }],
    });
    expect(body.tools).toEqual([{ type: 'function', name: 'a.b', parameters: params, strict: false }]);
  });
});
