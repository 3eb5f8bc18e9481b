import { describe, expect, it } from 'vitest';
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

  it('keeps recursive refs as $defs', () => {
    expect(toGeminiJsonSchema({ $defs: { T: { type: 'array', items: { $ref: '#/$defs/T' } } }, $ref: '#/$defs/T' })).toEqual({
      $ref: '#/$defs/T',
      $defs: { T: { type: 'array', items: { $ref: '#/$defs/T' } } },
    });
  });
});
