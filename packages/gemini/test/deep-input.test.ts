// Issue 17: walkers must not recurse without a bound. A library caller that hands the codec a
// request whose tool schema nests 5,000 or 100,000 levels gets invalid_request naming the path,
// never `RangeError: Maximum call stack size exceeded`.
import { LlmError, type LlmRequest } from '@llm/core';
import { thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

/** `{type:"object", properties:{a: …}}` nested `levels` deep, ending in `{type:"string"}`. */
const deepSchema = (levels: number): Record<string, unknown> =>
  JSON.parse(`${'{"type":"object","properties":{"a":'.repeat(levels)}{"type":"string"}${'}}'.repeat(levels)}`);

describe('request.decode: a tool schema nested past MAX_JSON_DEPTH', () => {
  it.each([5_000, 100_000])('%i levels: invalid_request naming the path', (levels) => {
    const error = thrown(() =>
      gemini.request.decode({
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        tools: [{ functionDeclarations: [{ name: 'f', parametersJsonSchema: deepSchema(levels) }] }],
      }),
    );
    expect(LlmError.isInstance(error)).toBe(true);
    const path = 'tools[0].functionDeclarations[0].parametersJsonSchema.properties.a.properties….a.properties';
    expect((error as LlmError).toJSON()).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: `${path}: JSON nested deeper than 128 levels`,
      path,
      protocol: 'gemini',
    });
  });
});

describe('Gemini OpenAPI schemas and encoded JSON schemas', () => {
  it('a responseSchema nested past MAX_JSON_DEPTH names its path', () => {
    const error = thrown(() =>
      gemini.request.decode({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { responseSchema: deepSchema(5_000) } }),
    );
    expect((error as LlmError).path).toBe('generationConfig.responseSchema.properties.a.properties.a.properties.a….properties.a');
  });

  it('a canonical request built in code with a 5,000-level schema is refused when encoded', () => {
    const request: LlmRequest = {
      model: 'gemini-2.5-pro',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [{ type: 'function', name: 'f', parameters: deepSchema(5_000) }],
    };
    const error = thrown(() => gemini.request.encode(request));
    expect(LlmError.isInstance(error)).toBe(true);
    expect((error as LlmError).toJSON()).toMatchObject({
      kind: 'invalid_request',
      status: 400,
      path: 'tools[0].parameters.properties.a.properties.a.properties.a.properties.a….properties.a',
    });
  });
});
