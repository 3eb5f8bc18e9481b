import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../json.js';
import { LlmError } from '../errors.js';
import type { LlmWarning } from '../warnings.js';
import { toGeminiSchema } from './gemini.js';

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
  const output = toGeminiSchema(deepFreeze(schema), { path, warn: (warning) => warnings.push(warning) });
  return { output, warnings: warnings.map(({ code, path: at }) => ({ code, path: at })) };
}

describe('toGeminiSchema', () => {
  it('keeps what Gemini accepts untouched and warns about nothing', () => {
    const schema = {
      type: 'object',
      title: 'Event',
      description: 'A calendar event',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 80, pattern: '^[a-z]+$', example: 'standup' },
        when: { type: 'string', format: 'date-time' },
        seats: { type: 'integer', format: 'int32', minimum: 1, maximum: 10 },
        score: { type: 'number', format: 'double', nullable: true },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, maxItems: 3 },
        shape: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
      required: ['name'],
      minProperties: 1,
      maxProperties: 6,
      propertyOrdering: ['name', 'when'],
    };
    expect(run(schema)).toEqual({ output: schema, warnings: [] });
  });

  it('drops identification keywords and additionalProperties: false silently', () => {
    expect(
      run({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'urn:event',
        $comment: 'generated',
        type: 'object',
        properties: { a: { type: 'string' } },
        additionalProperties: false,
      }),
    ).toEqual({ output: { type: 'object', properties: { a: { type: 'string' } } }, warnings: [] });
  });

  it('drops keywords Gemini rejects, each with a dropped-field warning at its path', () => {
    expect(
      run(
        {
          type: 'object',
          properties: {
            a: { type: 'string', default: 'x', contentEncoding: 'base64' },
            b: { type: 'array', items: { type: 'number' }, uniqueItems: true },
            c: { type: 'number', multipleOf: 2 },
          },
          additionalProperties: { type: 'string' },
          patternProperties: { '^x-': { type: 'string' } },
          not: { required: ['z'] },
          if: { properties: { a: { const: 'x' } } },
          then: { required: ['b'] },
          unevaluatedProperties: false,
          dependentRequired: { a: ['b'] },
        },
        'tools[2].parameters',
      ),
    ).toEqual({
      output: {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'number' } }, c: { type: 'number' } },
      },
      warnings: [
        { code: 'dropped-field', path: 'tools[2].parameters.properties.a.default' },
        { code: 'dropped-field', path: 'tools[2].parameters.properties.a.contentEncoding' },
        { code: 'dropped-field', path: 'tools[2].parameters.properties.b.uniqueItems' },
        { code: 'dropped-field', path: 'tools[2].parameters.properties.c.multipleOf' },
        { code: 'dropped-field', path: 'tools[2].parameters.additionalProperties' },
        { code: 'dropped-field', path: 'tools[2].parameters.patternProperties' },
        { code: 'dropped-field', path: 'tools[2].parameters.not' },
        { code: 'dropped-field', path: 'tools[2].parameters.if' },
        { code: 'dropped-field', path: 'tools[2].parameters.then' },
        { code: 'dropped-field', path: 'tools[2].parameters.unevaluatedProperties' },
        { code: 'dropped-field', path: 'tools[2].parameters.dependentRequired' },
      ],
    });
  });

  it('keeps only the formats Gemini accepts for each type', () => {
    expect(
      run(
        {
          type: 'object',
          properties: {
            when: { type: 'string', format: 'date-time' },
            day: { type: 'string', format: 'date' },
            mail: { type: 'string', format: 'email' },
            count: { type: 'integer', format: 'int64' },
            ratio: { type: 'number', format: 'float' },
            wrong: { type: 'integer', format: 'double' },
          },
        },
        'tools[0].parameters',
      ),
    ).toEqual({
      output: {
        type: 'object',
        properties: {
          when: { type: 'string', format: 'date-time' },
          day: { type: 'string' },
          mail: { type: 'string' },
          count: { type: 'integer', format: 'int64' },
          ratio: { type: 'number', format: 'float' },
          wrong: { type: 'integer' },
        },
      },
      warnings: [
        { code: 'dropped-field', path: 'tools[0].parameters.properties.day.format' },
        { code: 'dropped-field', path: 'tools[0].parameters.properties.mail.format' },
        { code: 'dropped-field', path: 'tools[0].parameters.properties.wrong.format' },
      ],
    });
  });

  it('regression #9 (litellm#6386): $ref/$defs are inlined for Gemini', () => {
    // The shape Pydantic emits for a nested model.
    const schema = {
      $defs: {
        Address: {
          type: 'object',
          title: 'Address',
          properties: { street: { type: 'string', title: 'Street' }, city: { type: 'string', title: 'City' } },
          required: ['street', 'city'],
        },
      },
      type: 'object',
      title: 'Person',
      properties: {
        name: { type: 'string', title: 'Name' },
        home: { $ref: '#/$defs/Address' },
        work: { $ref: '#/$defs/Address', description: 'Office address' },
      },
      required: ['name', 'home'],
    };
    const address = {
      type: 'object',
      title: 'Address',
      properties: { street: { type: 'string', title: 'Street' }, city: { type: 'string', title: 'City' } },
      required: ['street', 'city'],
    };
    expect(run(schema)).toEqual({
      output: {
        type: 'object',
        title: 'Person',
        properties: { name: { type: 'string', title: 'Name' }, home: address, work: { ...address, description: 'Office address' } },
        required: ['name', 'home'],
      },
      warnings: [],
    });
  });

  it('inlines draft-7 definitions and nested JSON pointers', () => {
    expect(
      run({
        definitions: { id: { type: 'string', pattern: '^[0-9]+$' } },
        type: 'object',
        properties: { a: { $ref: '#/definitions/id' }, b: { $ref: '#/properties/a' } },
      }),
    ).toEqual({
      output: {
        type: 'object',
        properties: { a: { type: 'string', pattern: '^[0-9]+$' }, b: { type: 'string', pattern: '^[0-9]+$' } },
      },
      warnings: [],
    });
  });

  it('unrolls a recursive $ref three levels, then cuts it with a warning', () => {
    const schema = {
      $defs: {
        Node: { type: 'object', properties: { value: { type: 'string' }, next: { $ref: '#/$defs/Node' } } },
      },
      $ref: '#/$defs/Node',
    };
    const level = (next: JsonSchema) => ({ type: 'object', properties: { value: { type: 'string' }, next } });
    expect(run(schema, 'response_format')).toEqual({
      output: level(level(level({ type: 'object' }))),
      warnings: [{ code: 'lossy-conversion', path: 'response_format.properties.next.properties.next.properties.next' }],
    });
  });

  it('reports a $ref it cannot resolve and keeps its siblings', () => {
    expect(
      run({
        type: 'object',
        properties: { a: { $ref: 'https://example.com/a.json', description: 'remote' }, b: { $ref: '#/$defs/missing' } },
      }),
    ).toEqual({
      output: { type: 'object', properties: { a: { description: 'remote' }, b: {} } },
      warnings: [
        { code: 'dropped-field', path: 'properties.a.$ref' },
        { code: 'dropped-field', path: 'properties.b.$ref' },
      ],
    });
  });

  it('regression #10 (litellm#6459): default is dropped from tool parameters', () => {
    expect(
      run(
        {
          type: 'object',
          properties: {
            unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
            days: { type: 'integer', default: 1 },
          },
          required: ['unit'],
        },
        'tools[0].parameters',
      ),
    ).toEqual({
      output: {
        type: 'object',
        properties: { unit: { type: 'string', enum: ['c', 'f'] }, days: { type: 'integer' } },
        required: ['unit'],
      },
      warnings: [
        { code: 'dropped-field', path: 'tools[0].parameters.properties.unit.default' },
        { code: 'dropped-field', path: 'tools[0].parameters.properties.days.default' },
      ],
    });
  });

  it('regression #24 (CLIProxyAPI PR #43): type arrays, allOf and exclusiveMinimum are rewritten', () => {
    expect(
      run(
        {
          type: 'object',
          properties: {
            name: { type: ['string', 'null'] },
            id: { type: ['string', 'integer'], minLength: 1, minimum: 0 },
            count: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 },
            ratio: { type: 'number', exclusiveMinimum: 0 },
            options: {
              allOf: [
                { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
                { properties: { b: { type: 'number' } }, required: ['b'] },
              ],
            },
          },
        },
        'tools[1].parameters',
      ),
    ).toEqual({
      output: {
        type: 'object',
        properties: {
          name: { type: 'string', nullable: true },
          id: {
            anyOf: [
              { type: 'string', minLength: 1 },
              { type: 'integer', minimum: 0 },
            ],
          },
          count: { type: 'integer', minimum: 1, maximum: 9 },
          ratio: { type: 'number', minimum: 0 },
          options: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a', 'b'] },
        },
      },
      warnings: [{ code: 'lossy-conversion', path: 'tools[1].parameters.properties.ratio.exclusiveMinimum' }],
    });
  });

  it('regression #44 (vercel/ai#4412): optional arrays and enums with a null anyOf branch become nullable', () => {
    expect(
      run({
        type: 'object',
        properties: {
          tags: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }], description: 'Tags' },
          color: { anyOf: [{ type: 'string', enum: ['red', 'blue'] }, { type: 'null' }] },
          size: { type: ['string', 'null'], enum: ['s', 'm', null] },
          either: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
        },
      }),
    ).toEqual({
      output: {
        type: 'object',
        properties: {
          tags: { type: 'array', items: { type: 'string' }, description: 'Tags', nullable: true },
          color: { type: 'string', enum: ['red', 'blue'], nullable: true },
          size: { type: 'string', enum: ['s', 'm'], nullable: true },
          either: { anyOf: [{ type: 'string' }, { type: 'number' }], nullable: true },
        },
      },
      warnings: [{ code: 'lossy-conversion', path: 'properties.either.oneOf' }],
    });
  });

  it('regression #45 (vercel/ai PR #18652): enums are strings on a STRING-typed schema', () => {
    expect(
      run({
        type: 'object',
        properties: {
          untyped: { enum: ['a', 'b'] },
          level: { type: 'integer', enum: [1, 2, 3] },
          flag: { enum: [true, false] },
          mode: { const: 'fast' },
          version: { const: 2 },
          upper: { type: 'STRING', enum: ['x'] },
        },
      }),
    ).toEqual({
      output: {
        type: 'object',
        properties: {
          untyped: { type: 'string', enum: ['a', 'b'] },
          level: { type: 'string', enum: ['1', '2', '3'] },
          flag: { type: 'string', enum: ['true', 'false'] },
          mode: { type: 'string', enum: ['fast'] },
          version: { type: 'string', enum: ['2'] },
          upper: { type: 'STRING', enum: ['x'] },
        },
      },
      warnings: [
        { code: 'lossy-conversion', path: 'properties.level.enum' },
        { code: 'lossy-conversion', path: 'properties.flag.enum' },
        { code: 'lossy-conversion', path: 'properties.version.enum' },
      ],
    });
  });

  it('turns a lone null type into nullable, with a warning', () => {
    expect(run({ type: 'object', properties: { nothing: { type: 'null', description: 'always null' } } })).toEqual({
      output: { type: 'object', properties: { nothing: { description: 'always null', nullable: true } } },
      warnings: [{ code: 'lossy-conversion', path: 'properties.nothing.type' }],
    });
  });

  it('converts draft-4 boolean exclusive bounds', () => {
    expect(
      run({
        type: 'object',
        properties: {
          a: { type: 'integer', minimum: 5, exclusiveMinimum: true },
          b: { type: 'number', maximum: 1, exclusiveMaximum: true },
          c: { type: 'number', minimum: 2, exclusiveMinimum: false },
        },
      }),
    ).toEqual({
      output: {
        type: 'object',
        properties: { a: { type: 'integer', minimum: 6 }, b: { type: 'number', maximum: 1 }, c: { type: 'number', minimum: 2 } },
      },
      warnings: [{ code: 'lossy-conversion', path: 'properties.b.exclusiveMaximum' }],
    });
  });

  it('keeps the tighter of an exclusive and an inclusive bound', () => {
    expect(run({ type: 'integer', minimum: 3, exclusiveMinimum: 0, maximum: 4, exclusiveMaximum: 9 }).output).toEqual({
      type: 'integer',
      minimum: 3,
      maximum: 4,
    });
  });

  it('merges allOf and reports keywords its branches disagree on', () => {
    expect(
      run({
        allOf: [
          { type: 'object', properties: { a: { type: 'string', maxLength: 5 } }, description: 'first' },
          { type: 'object', properties: { a: { type: 'string', maxLength: 3 } }, minProperties: 1, description: 'second' },
          { pattern: 'x' },
          { pattern: 'y' },
        ],
      }),
    ).toEqual({
      output: { type: 'object', properties: { a: { type: 'string', maxLength: 3 } }, description: 'first', minProperties: 1, pattern: 'x' },
      warnings: [{ code: 'lossy-conversion', path: 'allOf[3].pattern' }],
    });
  });

  it('turns examples into example, keeping the first', () => {
    expect(run({ type: 'string', examples: ['a', 'b'] })).toEqual({
      output: { type: 'string', example: 'a' },
      warnings: [{ code: 'lossy-conversion', path: 'examples' }],
    });
    expect(run({ type: 'string', examples: ['a'] })).toEqual({ output: { type: 'string', example: 'a' }, warnings: [] });
  });

  it('merges tuple positions into one items schema', () => {
    expect(run({ type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }], items: false })).toEqual({
      output: { type: 'array', items: { anyOf: [{ type: 'number' }, { type: 'string' }] }, maxItems: 2 },
      warnings: [{ code: 'lossy-conversion', path: 'prefixItems' }],
    });
  });

  it('removes required names with no property and empty properties objects', () => {
    expect(
      run({
        type: 'object',
        properties: { a: { type: 'string' }, empty: { type: 'object', properties: {} } },
        required: ['a', 'ghost'],
      }),
    ).toEqual({
      output: { type: 'object', properties: { a: { type: 'string' }, empty: { type: 'object' } }, required: ['a'] },
      warnings: [{ code: 'dropped-field', path: 'required' }],
    });
  });

  it('reads boolean subschemas', () => {
    expect(run({ type: 'array', items: true })).toEqual({ output: { type: 'array', items: {} }, warnings: [] });
    expect(run({ type: 'object', properties: { never: false } })).toEqual({
      output: { type: 'object', properties: { never: {} } },
      warnings: [{ code: 'lossy-conversion', path: 'properties.never' }],
    });
  });

  it('throws LlmError unsupported on a loss when the context is strict', () => {
    let error: unknown;
    try {
      toGeminiSchema({ type: 'string', default: 'x' }, { strict: true, path: 'tools[0].parameters' });
    } catch (caught) {
      error = caught;
    }
    expect(LlmError.isInstance(error) && { kind: error.kind, path: error.path, code: error.code }).toEqual({
      kind: 'unsupported',
      path: 'tools[0].parameters.default',
      code: 'dropped-field',
    });
  });
});
