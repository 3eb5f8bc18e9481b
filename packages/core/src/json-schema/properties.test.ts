import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '@llm/test-utils/property-runs';
import type { JsonSchema } from '../json.js';
import { isJsonObject } from '../json.js';
import { toGeminiSchema } from './gemini.js';
import { findSchemaProblem } from './check.js';
import { toOpenAIStrictSchema } from './openai-strict.js';

const GEMINI_KEYWORDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'items',
  'minimum',
  'maximum',
]);

const name = fc.constantFrom('a', 'b', 'c', 'when', 'x-y');
const type = fc.constantFrom('string', 'number', 'integer', 'boolean', 'array', 'object', 'null');
const scalar = fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constant(null));

/** Schemas of any shape the transforms meet: unions, refs, tuples, draft-4 and OpenAPI spellings. */
/** Bounded by an explicit depth: fast-check's depth bias alone let this record explode in memory. */
/** `minBranches` 1 keeps `anyOf` / `oneOf` / `allOf` / `prefixItems` non-empty, so every schema drawn is valid. */
function schemaAt(depth: number, minBranches = 0): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(fc.boolean(), fc.constantFrom({ $ref: '#/$defs/D' }, { $ref: '#' }, { $ref: '#/nowhere' }), fc.record({ type }, { requiredKeys: [] }));
  if (depth === 0) return leaf;
  const child = schemaAt(depth - 1, minBranches);
  const node = fc.record(
    {
      type: fc.oneof(type, fc.uniqueArray(type, { minLength: 1, maxLength: 3 })),
      properties: fc.dictionary(name, child, { maxKeys: 3 }),
      required: fc.uniqueArray(name, { maxLength: 3 }),
      additionalProperties: fc.oneof(fc.boolean(), child),
      items: fc.oneof(child, fc.array(child, { maxLength: 2 })),
      prefixItems: fc.array(child, { minLength: minBranches, maxLength: 2 }),
      anyOf: fc.array(child, { minLength: minBranches, maxLength: 3 }),
      oneOf: fc.array(child, { minLength: minBranches, maxLength: 2 }),
      allOf: fc.array(child, { minLength: minBranches, maxLength: 2 }),
      not: child,
      enum: fc.array(scalar, { minLength: 1, maxLength: 3 }),
      const: scalar,
      default: scalar,
      examples: fc.array(scalar, { maxLength: 2 }),
      format: fc.constantFrom('date-time', 'date', 'email', 'int32', 'double', 'uri'),
      minimum: fc.integer({ min: -3, max: 3 }),
      exclusiveMinimum: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.boolean()),
      exclusiveMaximum: fc.double({ min: -3, max: 3, noNaN: true }),
      minLength: fc.nat(3),
      nullable: fc.boolean(),
      description: fc.string({ maxLength: 5 }),
      $defs: fc.record({ D: child }),
      $schema: fc.constant('https://json-schema.org/draft/2020-12/schema'),
    },
    { requiredKeys: [] },
  );
  return fc.oneof({ weight: 3, arbitrary: node }, { weight: 1, arbitrary: leaf });
}
const schema = schemaAt(3);
const rootSchema = schema.filter(isJsonObject) as fc.Arbitrary<JsonSchema>;
const validRootSchema = schemaAt(3, 1).filter(isJsonObject) as fc.Arbitrary<JsonSchema>;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Every schema node of an output, following only the keywords the dialects keep. */
function* nodes(node: unknown): Generator<JsonSchema> {
  if (!isJsonObject(node)) return;
  yield node;
  if (isJsonObject(node.properties)) for (const child of Object.values(node.properties)) yield* nodes(child);
  if (isJsonObject(node.$defs)) for (const child of Object.values(node.$defs)) yield* nodes(child);
  if (Array.isArray(node.anyOf)) for (const child of node.anyOf) yield* nodes(child);
  yield* nodes(node.items);
}

describe('schema transform properties', () => {
  it('toGeminiSchema emits only keywords Gemini accepts, no null type and only string enums', () => {
    fc.assert(
      fc.property(rootSchema, (input) => {
        // Plain checks gathered into one assertion: inlined recursive refs reach thousands of nodes.
        const problems: string[] = [];
        for (const node of nodes(toGeminiSchema(deepFreeze(input)))) {
          const extra = Object.keys(node).filter((key) => !GEMINI_KEYWORDS.has(key));
          if (extra.length > 0) problems.push(`keywords ${extra.join(',')}`);
          if (!(typeof node.type === 'string' || node.type === undefined)) problems.push(`type ${JSON.stringify(node.type)}`);
          if (node.type === 'null') problems.push('null type');
          if (node.enum !== undefined && !(node.type === 'string' && (node.enum as unknown[]).every((value) => typeof value === 'string')))
            problems.push(`enum ${JSON.stringify(node.enum)}`);
          if (isJsonObject(node.properties) && Object.keys(node.properties).length === 0) problems.push('empty properties');
          if (Array.isArray(node.required))
            for (const required of node.required)
              if (!Object.hasOwn(node.properties ?? {}, required as string)) problems.push(`required ${String(required)} not a property`);
        }
        expect(problems).toEqual([]);
      }),
      // Recursive refs inline up to the node budget (~30 ms a run): a few runs with a fixed seed.
      propertyRuns(20),
    );
  });

  it('toOpenAIStrictSchema closes every object, lists every property as required and gives arrays items', () => {
    fc.assert(
      fc.property(rootSchema, (input) => {
        const output = toOpenAIStrictSchema(deepFreeze(input));
        const problems: string[] = [];
        for (const node of nodes(output)) {
          const types = Array.isArray(node.type) ? node.type : [node.type];
          if (types.includes('object')) {
            if (node.additionalProperties !== false) problems.push('open object');
            if (JSON.stringify(node.required) !== JSON.stringify(Object.keys(node.properties as object)))
              problems.push(`required ${JSON.stringify(node.required)}`);
          }
          if (types.includes('array') && !isJsonObject(node.items)) problems.push('array without items');
          for (const key of ['allOf', 'oneOf', 'not', 'default', 'prefixItems', 'nullable', '$schema'])
            if (Object.hasOwn(node, key)) problems.push(`keyword ${key}`);
          if (typeof node.$ref === 'string' && node.$ref !== '#' && !Object.hasOwn((output.$defs ?? {}) as object, node.$ref.slice('#/$defs/'.length)))
            problems.push(`dangling ${node.$ref}`);
        }
        expect(problems).toEqual([]);
      }),
      propertyRuns(60),
    );
  });

  it('toOpenAIStrictSchema turns every valid schema into a valid one (findSchemaProblem finds nothing)', () => {
    fc.assert(
      fc.property(validRootSchema, (input) => {
        // Encoders check a schema before rewriting it: an invalid input (an empty anyOf) never gets here.
        expect(findSchemaProblem(input)).toBeUndefined();
        expect(findSchemaProblem(toOpenAIStrictSchema(input))).toBeUndefined();
      }),
      propertyRuns(60),
    );
  });

  it('neither transform mutates its input, and both are deterministic', () => {
    fc.assert(
      fc.property(rootSchema, (input) => {
        const before = structuredClone(input);
        expect(toGeminiSchema(input)).toEqual(toGeminiSchema(input));
        expect(toOpenAIStrictSchema(input)).toEqual(toOpenAIStrictSchema(input));
        expect(input).toEqual(before);
      }),
      propertyRuns(10),
    );
  });
});
