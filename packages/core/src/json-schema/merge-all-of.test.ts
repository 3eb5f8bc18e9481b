import { describe, expect, it } from 'vitest';
import type { LlmWarning } from '../warnings.js';
import { mergeAllOf } from './merge-all-of.js';

describe('mergeAllOf', () => {
  it('intersects types and enums, takes the tighter bounds and unites required', () => {
    const warnings: LlmWarning[] = [];
    const input = Object.freeze({
      allOf: Object.freeze([
        { type: ['number', 'string'], enum: [1, 2, 'a'], minimum: 0, maximum: 10, required: ['a'] },
        { type: 'integer', enum: [2, 3, 'a'], minimum: 1, maximum: 20, required: ['b', 'a'] },
        true,
        { allOf: [{ maxLength: 4 }] },
      ]),
    });
    expect(mergeAllOf(input, 'p', { warn: (warning) => warnings.push(warning) })).toEqual({
      type: 'integer',
      enum: [2, 'a'],
      minimum: 1,
      maximum: 10,
      required: ['a', 'b'],
      maxLength: 4,
    });
    expect(warnings).toEqual([]);
  });

  it('reports types with nothing in common and branches that are not objects', () => {
    const warnings: LlmWarning[] = [];
    expect(mergeAllOf({ allOf: [{ type: 'string' }, { type: 'number' }, false] }, '', { warn: (warning) => warnings.push(warning) })).toEqual({
      type: 'string',
    });
    expect(warnings.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: 'lossy-conversion', path: 'allOf[1].type' },
      { code: 'dropped-field', path: 'allOf[2]' },
    ]);
  });

  it('returns a node without allOf as it is', () => {
    const node = { type: 'string' };
    expect(mergeAllOf(node, '', undefined)).toBe(node);
  });
});
