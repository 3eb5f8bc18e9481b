import { describe, expect, it } from 'vitest';
import type { LlmWarning } from '../warnings.js';
import { toGeminiJsonSchema } from './gemini-json-schema.js';

describe('toGeminiJsonSchema', () => {
  it('inlines refs and keeps everything else of standard JSON Schema', () => {
    const input = Object.freeze({
      $defs: Object.freeze({ Unit: Object.freeze({ type: 'string', enum: Object.freeze(['c', 'f']), default: 'c' }) }),
      type: 'object',
      properties: Object.freeze({ unit: Object.freeze({ $ref: '#/$defs/Unit' }), when: Object.freeze({ type: ['string', 'null'], format: 'date' }) }),
      additionalProperties: false,
    });
    expect(toGeminiJsonSchema(input)).toEqual({
      type: 'object',
      properties: { unit: { type: 'string', enum: ['c', 'f'], default: 'c' }, when: { type: ['string', 'null'], format: 'date' } },
      additionalProperties: false,
    });
  });

  it('returns a schema without refs as it is, and names the given path in warnings', () => {
    const plain = { type: 'object', properties: { city: { type: 'string' } } };
    expect(toGeminiJsonSchema(plain, undefined, 'tools[0].parameters')).toBe(plain);
    const warnings: LlmWarning[] = [];
    const context = { warn: (warning: LlmWarning) => warnings.push(warning), path: 'elsewhere' };
    toGeminiJsonSchema({ type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } }, context, 'tools[2].parameters');
    expect(warnings.map(({ code, path }) => [code, path])).toEqual([['dropped-field', 'tools[2].parameters.properties.a.$ref']]);
    expect(context.path).toBe('elsewhere');
  });

  it('keeps recursive refs as $defs', () => {
    expect(toGeminiJsonSchema({ $defs: { T: { type: 'array', items: { $ref: '#/$defs/T' } } }, $ref: '#/$defs/T' })).toEqual({
      $ref: '#/$defs/T',
      $defs: { T: { type: 'array', items: { $ref: '#/$defs/T' } } },
    });
  });
});
