// Losses of tool results (an error flag, parts a tool output cannot hold, a foreign provider
// part): the encoder joins a result's path only when it reports one, and this pins the paths and
// the wire to what the encoder that joined them for every result gave.
import type { LlmRequest } from '@llm/core';
import { TOOL_RESULTS_WITH_LOSSES, encodeWithLosses } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiChat } from '../src/index.js';

const request = TOOL_RESULTS_WITH_LOSSES as LlmRequest;

describe('tool result losses', () => {
  it("are reported at the result's path, the rest encoded as before", () => {
    const { wire, losses } = encodeWithLosses(openaiChat.request.encode, request);
    expect(losses).toEqual([
      { code: 'dropped-field', path: 'messages[2].content[0]' },
      { code: 'dropped-part', path: 'messages[2].content[1][2]' },
      { code: 'dropped-field', path: 'messages[2].content[1]' },
      { code: 'dropped-part', path: 'messages[2].content[2]' },
    ]);
    expect(wire).toEqual({
      model: 'm',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'x' }] },
        {
          role: 'assistant',
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } },
            { id: 'b', type: 'function', function: { name: 'f', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'a', content: 'plain' },
        {
          role: 'tool',
          tool_call_id: 'b',
          content: [
            { type: 'text', text: 't' },
            { type: 'text', text: '{"k":1}' },
          ],
        },
      ],
    });
  });
});
