import { thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { LlmError } from '../errors.js';
import { MAX_JSON_DEPTH } from '../json-depth.js';
import { checkJsonSchema, findSchemaProblem } from './check.js';

describe('findSchemaProblem', () => {
  it('passes valid schemas of every draft, unknown keywords and data keywords included', () => {
    const valid = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      title: 'Weather',
      properties: {
        city: { type: 'string', minLength: 1, pattern: '^[A-Z]', format: 'hostname', default: 3, examples: 'any data' },
        unit: { enum: ['c', 'f', null], const: { any: 'thing' } },
        days: { type: ['integer', 'null'], minimum: 1, exclusiveMaximum: 14, multipleOf: 1 },
        legacy: { type: 'number', minimum: 0, exclusiveMinimum: true },
        tags: { type: 'array', items: [{ type: 'string' }, true], additionalItems: false, uniqueItems: true, minItems: 0, maxItems: '5' },
        tuple: { prefixItems: [{ type: 'string' }], items: false, contains: { const: 1 }, minContains: 1 },
        node: { $ref: '#/$defs/Node' },
        choice: { anyOf: [{ type: 'string' }, { type: 'null' }], oneOf: [true], allOf: [{}], not: false },
        nullable: { type: 'string', nullable: true, 'x-vendor': { type: 42 } },
      },
      required: ['city'],
      additionalProperties: { type: 'string' },
      patternProperties: { '^x-': {} },
      propertyNames: { pattern: '^[a-z]' },
      dependencies: { a: ['b'], c: { required: ['d'] } },
      dependentRequired: { e: ['f'] },
      dependentSchemas: { g: true },
      if: { properties: { unit: { const: 'c' } } },
      then: true,
      else: false,
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
      definitions: {},
      minProperties: 1,
    };
    expect(findSchemaProblem(valid)).toBeUndefined();
    expect(findSchemaProblem(true)).toBeUndefined();
    // Gemini CLI's routing classifier sends Gemini's Type enum spelling in responseJsonSchema.
    expect(
      findSchemaProblem({ type: 'OBJECT', properties: { choice: { type: 'STRING', enum: ['flash', 'pro'] }, n: { type: ['Integer', 'NULL'] } } }),
    ).toBeUndefined();
    expect(findSchemaProblem({})).toBeUndefined();
  });

  it.each([
    ['an unknown type name', { properties: { city: { type: 'strin' } } }, 'properties.city.type', '"strin" is not a JSON Schema type'],
    ['an unknown name in a type array', { type: ['string', 'text'] }, 'type[1]', '"text" is not a JSON Schema type'],
    ['a type that is neither', { type: 3 }, 'type', 'expected a JSON Schema type name or an array of them, got 3'],
    ['properties not an object', { properties: ['city'] }, 'properties', 'expected an object of schemas, got an array'],
    ['a property that is not a schema', { properties: { city: 'string' } }, 'properties.city', 'expected a schema (an object or a boolean), got "string"'],
    ['a property name needing quotes', { properties: { 'x-y': null } }, 'properties["x-y"]', 'expected a schema (an object or a boolean), got null'],
    ['items not a schema', { items: 'string' }, 'items', 'expected a schema (an object or a boolean), got "string"'],
    ['a tuple item not a schema', { items: [{}, 1] }, 'items[1]', 'expected a schema (an object or a boolean), got 1'],
    ['required not an array', { required: 'city' }, 'required', 'expected an array of strings, got "city"'],
    ['a required name not a string', { required: ['city', 1] }, 'required[1]', 'expected a string, got 1'],
    ['enum not an array', { enum: 'c' }, 'enum', 'expected an array, got "c"'],
    ['anyOf not an array', { anyOf: { type: 'string' } }, 'anyOf', 'expected a non-empty array of schemas, got an object'],
    ['an empty oneOf', { oneOf: [] }, 'oneOf', 'expected a non-empty array of schemas, got an array'],
    ['an allOf member not a schema', { allOf: [{}, []] }, 'allOf[1]', 'expected a schema (an object or a boolean), got an array'],
    [
      'additionalProperties neither boolean nor schema',
      { additionalProperties: 'no' },
      'additionalProperties',
      'expected a schema (an object or a boolean), got "no"',
    ],
    ['$ref not a string', { $ref: { path: '#' } }, '$ref', 'expected a string, got an object'],
    ['$defs not an object', { $defs: [] }, '$defs', 'expected an object of schemas, got an array'],
    ['a minimum that is not a number', { minimum: '0' }, 'minimum', 'expected a number, got "0"'],
    ['a multipleOf of 0', { multipleOf: 0 }, 'multipleOf', 'expected a number greater than 0, got 0'],
    ['an exclusive bound of another kind', { exclusiveMaximum: null }, 'exclusiveMaximum', 'expected a number, got null'],
    ['a negative count', { minItems: -1 }, 'minItems', 'expected a non-negative integer, got -1'],
    ['a fractional count', { maxLength: 1.5 }, 'maxLength', 'expected a non-negative integer, got 1.5'],
    ['a count string that is not a number', { maxItems: 'five' }, 'maxItems', 'expected a non-negative integer, got "five"'],
    ['a flag that is not a boolean', { uniqueItems: 'yes' }, 'uniqueItems', 'expected a boolean, got "yes"'],
    ['a description that is not a string', { description: 7 }, 'description', 'expected a string, got 7'],
    ['a dependency of another kind', { dependencies: { a: 'b' } }, 'dependencies.a', 'expected a schema (an object or a boolean), got "b"'],
    ['a dependentRequired entry with a number', { dependentRequired: { a: [1] } }, 'dependentRequired.a[0]', 'expected a string, got 1'],
    ['a root that is not a schema', 'object', '', 'expected a schema (an object or a boolean), got "object"'],
  ])('finds %s', (_, schema, path, message) => {
    expect(findSchemaProblem(schema)).toEqual({ path, message });
  });

  it('reports the first fault in key order, deep inside, under the given path', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'array', items: { anyOf: [{ type: 'string' }, { properties: { b: { type: 'int' } } }] } } },
      required: 5,
    };
    expect(findSchemaProblem(schema, 'tools[0].parameters')).toEqual({
      path: 'tools[0].parameters.properties.a.items.anyOf[1].properties.b.type',
      message: '"int" is not a JSON Schema type',
    });
  });

  it(`refuses schemas nested deeper than ${MAX_JSON_DEPTH} levels without overflowing the stack`, () => {
    let deep: unknown = { type: 'string' };
    for (let level = 0; level < 100_000; level++) deep = { items: deep };
    const problem = findSchemaProblem(deep);
    expect(problem).toEqual({ path: `items${'.items'.repeat(MAX_JSON_DEPTH - 1)}`, message: `schema nested deeper than ${MAX_JSON_DEPTH} levels` });
    let fits: unknown = { type: 'string' };
    for (let level = 1; level < MAX_JSON_DEPTH; level++) fits = { items: fits };
    expect(findSchemaProblem(fits)).toBeUndefined();
  });
});

describe('checkJsonSchema', () => {
  it('throws invalid_request naming the path, and returns for a valid schema', () => {
    expect(() => checkJsonSchema({ type: 'object' }, 'responseFormat.schema')).not.toThrow();
    const error = thrown(() => checkJsonSchema({ properties: { city: { type: 'strin' } } }, 'responseFormat.schema'));
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).toJSON()).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: 'responseFormat.schema.properties.city.type: "strin" is not a JSON Schema type',
      path: 'responseFormat.schema.properties.city.type',
    });
    expect(() => checkJsonSchema(7)).toThrow('$: expected a schema (an object or a boolean), got 7');
  });
});
