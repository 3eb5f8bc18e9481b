// Losses of tool results (an error flag, parts a tool output cannot hold, a foreign provider
// part): the encoder joins a result's path only when it reports one, and this pins the paths and
// the wire to what the encoder that joined them for every result gave.
import type { LlmRequest } from '@llm/core';
import { TOOL_RESULTS_WITH_LOSSES, encodeWithLosses } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

const request = TOOL_RESULTS_WITH_LOSSES as LlmRequest;

describe('tool result losses', () => {
  it("are reported at the result's path, the rest encoded as before", () => {
    const { wire, losses } = encodeWithLosses(openaiResponses.request.encode, request);
    expect(losses).toEqual([
      { code: 'dropped-field', path: 'messages[2].content[0].isError' },
      { code: 'lossy-conversion', path: 'messages[2].content[1].content[1]' },
      { code: 'dropped-field', path: 'messages[2].content[1].isError' },
      { code: 'dropped-part', path: 'messages[2].content[2]' },
    ]);
    expect(wire).toEqual({
      model: 'm',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'x' }] },
        { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
        { type: 'function_call', call_id: 'b', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'a', output: 'plain' },
        {
          type: 'function_call_output',
          call_id: 'b',
          output: [
            { type: 'input_text', text: 't' },
            { type: 'input_text', text: '{"k":1}' },
            { type: 'input_image', image_url: 'https://x/y.png', detail: 'auto' },
          ],
        },
      ],
    });
  });

  it('reports assistant parts at their paths, tool calls encoded without one', () => {
    const assistant = {
      model: 'm',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'x' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'r', signature: 's', origin: { protocol: 'claude' } },
            { type: 'text', text: 't', cache: {} },
            { type: 'tool-call', id: 'a', name: 'f', arguments: '{}' },
            { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } },
            { type: 'provider', protocol: 'gemini', value: { x: 1 } },
            { type: 'reasoning', text: 'no id' },
          ],
        },
      ],
    } as unknown as LlmRequest;
    const { wire, losses } = encodeWithLosses(openaiResponses.request.encode, assistant);
    expect(losses).toEqual([
      { code: 'foreign-state', path: 'messages[1].content[0]' },
      { code: 'dropped-part', path: 'messages[1].content[3]' },
      { code: 'dropped-part', path: 'messages[1].content[4]' },
      { code: 'dropped-part', path: 'messages[1].content[5]' },
      { code: 'dropped-field', path: 'messages[1].content[1].cache' },
    ]);
    expect(wire).toEqual({
      model: 'm',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'x' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 't', annotations: [] }] },
        { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
      ],
    });
  });
});
