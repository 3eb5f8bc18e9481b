// Losses of tool results (an error flag, parts a tool output cannot hold, a foreign provider
// part): the encoder joins a result's path only when it reports one, and this pins the paths and
// the wire to what the encoder that joined them for every result gave.
import type { LlmRequest, LlmWarning } from '@llm/core';
import { TOOL_RESULTS_WITH_LOSSES } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

const request = TOOL_RESULTS_WITH_LOSSES as LlmRequest;

describe('tool result losses', () => {
  it("are reported at the result's path, the rest encoded as before", () => {
    const warnings: LlmWarning[] = [];
    const wire = openaiResponses.request.encode(request, { warn: (warning) => warnings.push(warning) });
    expect(warnings.map(({ code, path }) => ({ code, path }))).toEqual([
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
});
