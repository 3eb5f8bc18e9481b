import { describe, expect, it } from 'vitest';
import type { LlmResponseFormat } from '../request.js';
import type { LlmFunctionTool } from '../tools.js';
import type { LlmWarning } from '../warnings.js';
import { isStrictResponseFormat, isStrictTool, strictResponseSchema, strictToolParameters } from './openai-strict-request.js';

type SchemaFormat = Extract<LlmResponseFormat, { type: 'json-schema' }>;

describe('OpenAI strict encoding of a request', () => {
  it('sends a tool strict when the upstream enforces schemas or the client asked for it', () => {
    const tool: LlmFunctionTool = { type: 'function', name: 'f' };
    expect([isStrictTool(tool, undefined), isStrictTool(tool, { strictTools: true })]).toEqual([false, true]);
    expect([isStrictTool({ ...tool, strict: true }, undefined), isStrictTool({ ...tool, strict: false }, { strictTools: true })]).toEqual([true, true]);
    expect(isStrictTool({ ...tool, strict: false }, {})).toBe(false);
  });

  it('sends a response schema strict when enforced, asked for, or unnamed (Gemini and Claude schemas are always enforced)', () => {
    const named: SchemaFormat = { type: 'json-schema', name: 'w', schema: {} };
    expect(isStrictResponseFormat(named, undefined)).toBe(false);
    expect(isStrictResponseFormat(named, { strictTools: true })).toBe(true);
    expect(isStrictResponseFormat({ ...named, strict: true }, undefined)).toBe(true);
    expect(isStrictResponseFormat({ type: 'json-schema', schema: {} }, undefined)).toBe(true);
    expect(isStrictResponseFormat({ type: 'json-schema', schema: {}, strict: false }, undefined)).toBe(false);
  });

  it('rewrites parameters with warnings at the canonical path, a tool without parameters as the empty closed object', () => {
    const warnings: LlmWarning[] = [];
    const tool: LlmFunctionTool = { type: 'function', name: 'f', parameters: { type: 'object', properties: { a: { type: 'string' } } } };
    expect(strictToolParameters(tool, 2, { warn: (warning) => warnings.push(warning) })).toEqual({
      type: 'object',
      properties: { a: { type: ['string', 'null'] } },
      required: ['a'],
      additionalProperties: false,
    });
    expect(warnings.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: 'lossy-conversion', path: 'tools[2].parameters.properties.a' },
      { code: 'lossy-conversion', path: 'tools[2].parameters.additionalProperties' },
    ]);
    warnings.length = 0;
    expect(strictToolParameters({ type: 'function', name: 'now' }, 0, { warn: (warning) => warnings.push(warning) })).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
      required: [],
    });
    expect(warnings).toEqual([]);
  });

  it('checks a schema before rewriting it', () => {
    expect(() => strictToolParameters({ type: 'function', name: 'f', parameters: { type: 'obj' } }, 1, undefined)).toThrow(
      'tool "f": parameters.type: "obj" is not a JSON Schema type',
    );
    expect(() => strictResponseSchema({ type: 'json-schema', schema: { anyOf: [] } }, undefined)).toThrow(
      'response format: schema.anyOf: expected a non-empty array of schemas, got an array',
    );
  });
});
