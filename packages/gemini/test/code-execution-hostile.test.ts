// A code result's outcome is a wire string: one named like an Object.prototype member is no outcome.
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

describe('a codeExecutionResult whose outcome is not one of Gemini’s', () => {
  it('reads as a failed run and goes back to Gemini as it came, even when named like a prototype member', () => {
    for (const outcome of ['constructor', 'toString', '__proto__']) {
      const body = {
        candidates: [{ index: 0, finishReason: 'STOP', content: { role: 'model', parts: [{ codeExecutionResult: { outcome, output: 'x' } }] } }],
        modelVersion: 'gemini-2.5-flash',
        responseId: 'r1',
      };
      const decoded = gemini.response.decode(structuredClone(body));
      const part = decoded.choices[0]!.content[0]!;
      expect(part).toMatchObject({ type: 'code-execution-result', outcome: 'failed', output: 'x' });
      expect((gemini.response.encode(decoded) as typeof body).candidates[0]!.content.parts).toEqual([{ codeExecutionResult: { outcome, output: 'x' } }]);
    }
  });
});
