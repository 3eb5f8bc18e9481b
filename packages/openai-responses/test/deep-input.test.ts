// Issue 17: walkers must not recurse without a bound. A library caller that hands the codec a
// request whose tool schema nests 5,000 or 100,000 levels gets invalid_request naming the path,
// never `RangeError: Maximum call stack size exceeded`.
import { LlmError } from '@llm/core';
import { thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

/** `{type:"object", properties:{a: …}}` nested `levels` deep, ending in `{type:"string"}`. */
const deepSchema = (levels: number): Record<string, unknown> =>
  JSON.parse(`${'{"type":"object","properties":{"a":'.repeat(levels)}{"type":"string"}${'}}'.repeat(levels)}`);

describe('request.decode: a tool schema nested past MAX_JSON_DEPTH', () => {
  it.each([5_000, 100_000])('%i levels: invalid_request naming the path', (levels) => {
    const error = thrown(() =>
      openaiResponses.request.decode({ model: 'gpt-5', input: 'hi', tools: [{ type: 'function', name: 'f', parameters: deepSchema(levels) }] }),
    );
    expect(LlmError.isInstance(error)).toBe(true);
    const path = 'tools[0].parameters.properties.a.properties.a.properties….a.properties';
    expect((error as LlmError).toJSON()).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: `${path}: JSON nested deeper than 128 levels`,
      path,
      protocol: 'openai-responses',
    });
  });
});
