// An item's status is a wire string: one named like an Object.prototype member says no outcome.
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

describe('a code_interpreter_call whose status is not one of Responses’', () => {
  it('carries no result, and goes back to Responses as it came', () => {
    for (const status of ['constructor', 'toString']) {
      const item = { id: 'ci_1', type: 'code_interpreter_call', status, code: 'print(1)', container_id: 'cntr_1', outputs: null };
      const body = { id: 'resp_1', object: 'response', created_at: 1, status: 'completed', model: 'gpt-5', output: [item] };
      const decoded = openaiResponses.response.decode(structuredClone(body));
      expect(decoded.choices[0]!.content.map((part) => part.type)).toEqual(['code-execution']);
      expect((openaiResponses.response.encode(decoded) as typeof body).output).toEqual([item]);
    }
  });
});
