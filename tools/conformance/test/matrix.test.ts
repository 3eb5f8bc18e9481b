import { describe, expect, it } from 'vitest';
import { MATRIX_PROTOCOLS, pairs, runMatrix } from '../src/matrix.js';
import { scenarios } from '../src/scenarios.js';

const results = await runMatrix();

describe('conformance matrix', () => {
  it('covers every pair of the enabled protocols, both modes, every scenario', () => {
    expect(MATRIX_PROTOCOLS).toEqual(['openai-chat', 'openai-responses', 'claude', 'gemini', 'bedrock-converse']);
    expect(pairs().length).toBe(25);
    expect(results.length).toBe(pairs().length * scenarios.length * 2);
  });

  for (const cell of results) {
    if (cell.status === 'n/a') continue;
    it(`${cell.scenario}: ${cell.client} -> ${cell.upstream} (${cell.mode})`, () => {
      // Meaning first (the detail says where it differs), then the exact warnings of the expected losses.
      expect(cell.detail).toBeUndefined();
      expect(cell.actual).toEqual(cell.expected);
      expect(cell.warnings).toEqual(cell.expectedWarnings);
    });
  }
});
