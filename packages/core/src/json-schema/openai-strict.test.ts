import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../json.js';
import type { LlmWarning } from '../warnings.js';
import { toOpenAIStrictSchema } from './openai-strict.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Runs the transform on a frozen input and returns the output with the warnings' code and path. */
function run(schema: JsonSchema, path?: string) {
  const warnings: LlmWarning[] = [];
  const output = toOpenAIStrictSchema(deepFreeze(schema), { path, warn: (warning) => warnings.push(warning) });
  return { output, warnings: warnings.map(({ code, path: at }) => ({ code, path: at })) };
}

const ANY_SCALAR = { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] };

describe('toOpenAIStrictSchema', () => {
  it('leaves a schema that is already strict unchanged, key order included', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Name', pattern: '^[a-z]+$' },
        when: { type: 'string', format: 'date-time' },
        size: { type: ['integer', 'null'], minimum: 0, exclusiveMaximum: 10, multipleOf: 2 },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, maxItems: 3 },
        kind: { const: 'event' },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['name', 'when', 'size', 'tags', 'kind', 'either'],
      additionalProperties: false,
    };
    expect(run(schema)).toEqual({ output: schema, warnings: [] });
    expect(JSON.stringify(run(schema).output)).toBe(JSON.stringify(schema));
    // Keys sorted (pydantic's order): the closing keywords stay where they were.
    const sorted = { additionalProperties: false, description: 'Point', properties: { x: { type: 'number' } }, required: ['x'], title: 'P', type: 'object' };
    expect(JSON.stringify(run(sorted).output)).toBe(JSON.stringify(sorted));
  });

  it('closes every object and makes optional properties required and nullable', () => {
    expect(
      run(
        {
          type: 'object',
          properties: {
            name: { type: 'string' },
            age: { type: 'integer' },
            unit: { type: 'string', enum: ['c', 'f'] },
            level: { enum: [1, 2] },
            either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
            fixed: { const: 'x' },
            address: { type: 'object', properties: { city: { type: 'string' } } },
          },
          required: ['name'],
        },
        'tools[0].function.parameters',
      ),
    ).toEqual({
      output: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          age: { type: ['integer', 'null'] },
          unit: { type: ['string', 'null'], enum: ['c', 'f', null] },
          level: { enum: [1, 2, null] },
          either: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
          fixed: { anyOf: [{ const: 'x' }, { type: 'null' }] },
          address: { type: ['object', 'null'], properties: { city: { type: ['string', 'null'] } }, required: ['city'], additionalProperties: false },
        },
        required: ['name', 'age', 'unit', 'level', 'either', 'fixed', 'address'],
        additionalProperties: false,
      },
      warnings: [
        { code: 'lossy-conversion', path: 'tools[0].function.parameters.properties.age' },
        { code: 'lossy-conversion', path: 'tools[0].function.parameters.properties.unit' },
        { code: 'lossy-conversion', path: 'tools[0].function.parameters.properties.level' },
        { code: 'lossy-conversion', path: 'tools[0].function.parameters.properties.either' },
        { code: 'lossy-conversion', path: 'tools[0].function.parameters.properties.fixed' },
        { code: 'lossy-conversion', path: 'tools[0].function.parameters.properties.address.properties.city' },
        { code: 'lossy-conversion', path: 'tools[0].function.parameters.properties.address.additionalProperties' },
        { code: 'lossy-conversion', path: 'tools[0].function.parameters.properties.address' },
        { code: 'lossy-conversion', path: 'tools[0].function.parameters.additionalProperties' },
      ],
    });
  });

  it('gives an object without properties empty properties and required', () => {
    expect(run({ type: 'object' })).toEqual({
      output: { type: 'object', properties: {}, required: [], additionalProperties: false },
      warnings: [{ code: 'lossy-conversion', path: 'additionalProperties' }],
    });
  });

  it('sets additionalProperties false, reporting a map schema it replaces', () => {
    expect(run({ type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'], additionalProperties: { type: 'number' } })).toEqual({
      output: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false },
      warnings: [
        { code: 'dropped-field', path: 'required' },
        { code: 'dropped-field', path: 'additionalProperties' },
      ],
    });
  });

  it('gives every array items and every untyped schema a type', () => {
    expect(
      run({
        type: 'object',
        properties: { list: { type: 'array' }, anything: { description: 'any value' }, implied: { properties: { a: { type: 'string' } }, required: ['a'] } },
        required: ['list', 'anything', 'implied'],
      }),
    ).toEqual({
      output: {
        type: 'object',
        properties: {
          list: { type: 'array', items: ANY_SCALAR },
          anything: { description: 'any value', ...ANY_SCALAR },
          implied: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false },
        },
        required: ['list', 'anything', 'implied'],
        additionalProperties: false,
      },
      warnings: [
        { code: 'lossy-conversion', path: 'properties.list.items' },
        { code: 'lossy-conversion', path: 'properties.anything' },
        { code: 'lossy-conversion', path: 'properties.implied.additionalProperties' },
        { code: 'lossy-conversion', path: 'additionalProperties' },
      ],
    });
  });

  it('drops keywords and formats strict mode rejects', () => {
    expect(
      run(
        {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          properties: {
            a: { type: 'string', default: 'x', minLength: 1, maxLength: 9, format: 'uri' },
            b: { type: 'array', items: { type: 'string' }, uniqueItems: true, contains: { const: 'x' } },
            c: { type: 'number', examples: [1] },
          },
          required: ['a', 'b', 'c'],
          patternProperties: { '^x-': { type: 'string' } },
          minProperties: 1,
          not: { required: ['z'] },
        },
        'text.format.schema',
      ),
    ).toEqual({
      output: {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'string' } }, c: { type: 'number' } },
        required: ['a', 'b', 'c'],
        additionalProperties: false,
      },
      warnings: [
        { code: 'dropped-field', path: 'text.format.schema.patternProperties' },
        { code: 'dropped-field', path: 'text.format.schema.minProperties' },
        { code: 'dropped-field', path: 'text.format.schema.not' },
        { code: 'dropped-field', path: 'text.format.schema.properties.a.default' },
        { code: 'dropped-field', path: 'text.format.schema.properties.a.minLength' },
        { code: 'dropped-field', path: 'text.format.schema.properties.a.maxLength' },
        { code: 'dropped-field', path: 'text.format.schema.properties.a.format' },
        { code: 'dropped-field', path: 'text.format.schema.properties.b.uniqueItems' },
        { code: 'dropped-field', path: 'text.format.schema.properties.b.contains' },
        { code: 'dropped-field', path: 'text.format.schema.properties.c.examples' },
        { code: 'lossy-conversion', path: 'text.format.schema.additionalProperties' },
      ],
    });
  });

  it('inlines non-recursive refs', () => {
    expect(
      run({
        $defs: { Point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
        type: 'object',
        properties: { from: { $ref: '#/$defs/Point' }, to: { $ref: '#/$defs/Point' } },
        required: ['from', 'to'],
      }),
    ).toEqual({
      output: {
        type: 'object',
        properties: {
          from: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'], additionalProperties: false },
          to: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'], additionalProperties: false },
        },
        required: ['from', 'to'],
        additionalProperties: false,
      },
      warnings: [
        { code: 'lossy-conversion', path: 'properties.from.additionalProperties' },
        { code: 'lossy-conversion', path: 'properties.to.additionalProperties' },
        { code: 'lossy-conversion', path: 'additionalProperties' },
      ],
    });
  });

  it('keeps a recursive definition in $defs and refers to it with $ref', () => {
    const node = {
      type: 'object',
      properties: { value: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
      required: ['value', 'children'],
    };
    expect(run({ $defs: { Node: node }, type: 'object', properties: { root: { $ref: '#/$defs/Node' } }, required: ['root'] })).toEqual({
      output: {
        type: 'object',
        properties: { root: { $ref: '#/$defs/Node' } },
        required: ['root'],
        additionalProperties: false,
        $defs: {
          Node: {
            type: 'object',
            properties: { value: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
            required: ['value', 'children'],
            additionalProperties: false,
          },
        },
      },
      warnings: [
        { code: 'lossy-conversion', path: 'additionalProperties' },
        { code: 'lossy-conversion', path: '$defs.Node.additionalProperties' },
      ],
    });
  });

  it('keeps recursion to the root as $ref "#" and unfolds a root that is a recursive ref', () => {
    expect(run({ type: 'object', properties: { next: { $ref: '#' } } })).toEqual({
      output: { type: 'object', properties: { next: { anyOf: [{ $ref: '#' }, { type: 'null' }] } }, required: ['next'], additionalProperties: false },
      warnings: [
        { code: 'lossy-conversion', path: 'properties.next' },
        { code: 'lossy-conversion', path: 'additionalProperties' },
      ],
    });
    const list = { type: 'object', properties: { next: { $ref: '#/definitions/List' } }, required: ['next'] };
    expect(run({ definitions: { List: list }, $ref: '#/definitions/List' }).output).toEqual({
      type: 'object',
      properties: { next: { $ref: '#/$defs/List' } },
      required: ['next'],
      additionalProperties: false,
      $defs: { List: { type: 'object', properties: { next: { $ref: '#/$defs/List' } }, required: ['next'], additionalProperties: false } },
    });
  });

  it('merges allOf, turns oneOf into anyOf, and reads OpenAPI nullable and uppercase types', () => {
    expect(
      run({
        type: 'object',
        properties: {
          merged: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { properties: { b: { type: 'string' } } }], required: ['a', 'b'] },
          choice: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          maybe: { type: 'STRING', nullable: true },
        },
        required: ['merged', 'choice', 'maybe'],
      }),
    ).toEqual({
      output: {
        type: 'object',
        properties: {
          merged: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a', 'b'], additionalProperties: false },
          choice: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
          maybe: { type: ['string', 'null'] },
        },
        required: ['merged', 'choice', 'maybe'],
        additionalProperties: false,
      },
      warnings: [
        { code: 'lossy-conversion', path: 'properties.merged.additionalProperties' },
        { code: 'lossy-conversion', path: 'properties.choice.oneOf' },
        { code: 'lossy-conversion', path: 'additionalProperties' },
      ],
    });
  });

  it('rewrites draft-4 boolean exclusive bounds as numbers', () => {
    expect(run({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: false }).output).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 5,
    });
  });

  it('reads Gemini int64 count strings as numbers', () => {
    expect(run({ type: 'array', items: { type: 'string' }, minItems: '1', maxItems: '5' })).toEqual({
      output: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5 },
      warnings: [],
    });
  });

  it('merges tuple positions into items', () => {
    expect(run({ type: 'array', items: [{ type: 'number' }, { type: 'number' }] })).toEqual({
      output: { type: 'array', items: { type: 'number' } },
      warnings: [{ code: 'lossy-conversion', path: 'items' }],
    });
  });
});
