import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../json.js';
import type { LlmWarning } from '../warnings.js';
import { inlineRefs, type RecursionMode } from './inline-refs.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function run(schema: JsonSchema, recursion: RecursionMode) {
  const warnings: LlmWarning[] = [];
  const output = inlineRefs(deepFreeze(schema), { path: 'schema', warn: (warning) => warnings.push(warning) }, recursion);
  return { output, warnings: warnings.map(({ code, path }) => ({ code, path })) };
}

describe('inlineRefs', () => {
  it('resolves escaped JSON pointers and refs inside definitions, and drops unused definitions', () => {
    expect(
      run(
        {
          $defs: { 'a/b': { type: 'string' }, 'c~d': { $ref: '#/$defs/a~1b' }, 'with space': { type: 'number' }, unused: { type: 'null' } },
          type: 'object',
          properties: { x: { $ref: '#/$defs/c~0d' }, y: { $ref: '#/$defs/with%20space' }, z: { $ref: '#/properties/x' } },
        },
        { mode: 'keep' },
      ),
    ).toEqual({
      output: { type: 'object', properties: { x: { type: 'string' }, y: { type: 'number' }, z: { type: 'string' } } },
      warnings: [],
    });
  });

  it('puts a $ref with conflicting constraints beside its target under allOf', () => {
    expect(
      run({ $defs: { A: { type: 'object', required: ['a'] } }, $ref: '#/$defs/A', required: ['b'], description: 'kept' }, { mode: 'keep' }).output,
    ).toEqual({
      allOf: [
        { type: 'object', required: ['a'] },
        { required: ['b'], description: 'kept' },
      ],
    });
  });

  it('returns a schema without $ref, $defs or definitions keys as it is, in both modes', () => {
    const schema = {
      type: 'object',
      properties: { path: { type: 'string' }, tags: { type: 'array', items: { type: 'string', enum: ['a'] } } },
      required: ['path'],
    };
    expect(run(schema, { mode: 'keep' }).output).toBe(schema);
    expect(run(schema, { mode: 'cut', depth: 2 }).output).toBe(schema);
    // A property named `definitions` is not a keyword, but the schema is copied the careful way.
    const named = { type: 'object', properties: { definitions: { type: 'string' } } };
    const copied = run(named, { mode: 'keep' }).output;
    expect(copied).not.toBe(named);
    expect(copied).toEqual(named);
  });

  it('does not enter data keywords', () => {
    const schema = { enum: [{ $ref: '#/nowhere' }], default: { $ref: '#' }, examples: [{ $defs: {} }] };
    expect(run(schema, { mode: 'keep' })).toEqual({ output: schema, warnings: [] });
  });

  it('detects mutual recursion and keeps one definition per cycle', () => {
    const schema = {
      $defs: {
        A: { type: 'object', properties: { b: { $ref: '#/$defs/B' } } },
        B: { type: 'object', properties: { a: { $ref: '#/$defs/A' } } },
      },
      $ref: '#/$defs/A',
    };
    expect(run(schema, { mode: 'keep' })).toEqual({
      output: {
        $ref: '#/$defs/A',
        $defs: { A: { type: 'object', properties: { b: { type: 'object', properties: { a: { $ref: '#/$defs/A' } } } } } },
      },
      warnings: [],
    });
    expect(run(schema, { mode: 'cut', depth: 1 })).toEqual({
      output: { type: 'object', properties: { b: { type: 'object', properties: { a: { type: 'object' } } } } },
      warnings: [{ code: 'lossy-conversion', path: 'schema.properties.b.properties.a' }],
    });
  });

  it('cuts a self-reference to the root', () => {
    expect(run({ type: 'array', items: { $ref: '#' } }, { mode: 'cut', depth: 2 })).toEqual({
      output: { type: 'array', items: { type: 'array', items: { type: 'array' } } },
      warnings: [{ code: 'lossy-conversion', path: 'schema.items.items' }],
    });
  });

  it('reports each unresolvable ref once, also when probing for recursion', () => {
    expect(
      run({ $defs: { L: { items: { $ref: '#/$defs/L' } } }, properties: { a: { $ref: 'other.json#/x' }, l: { $ref: '#/$defs/L' } } }, { mode: 'keep' }),
    ).toEqual({
      output: { properties: { a: {}, l: { $ref: '#/$defs/L' } }, $defs: { L: { items: { $ref: '#/$defs/L' } } } },
      warnings: [{ code: 'dropped-field', path: 'schema.properties.a.$ref' }],
    });
  });
});

describe('inlineRefs on exponentially growing schemas', () => {
  it('cuts once MAX_INLINED_NODES nodes are written with one warning instead of exhausting memory', async () => {
    const { MAX_INLINED_NODES } = await import('./inline-refs.js');
    // d0 uses d1 twice, d1 uses d2 twice, ...: 2^30 copies if inlined naively.
    const $defs: Record<string, unknown> = { d30: { type: 'string' } };
    for (let level = 0; level < 30; level++) {
      $defs[`d${level}`] = { type: 'object', properties: { a: { $ref: `#/$defs/d${level + 1}` }, b: { $ref: `#/$defs/d${level + 1}` } } };
    }
    const warnings: string[] = [];
    const context = { warn: (warning: { code: string; path?: string }) => warnings.push(`${warning.code} ${warning.path ?? ''}`) };
    const out = inlineRefs({ $ref: '#/$defs/d0', $defs } as never, context as never, { mode: 'cut', depth: 2 });
    expect(JSON.stringify(out).length).toBeLessThan(2_000_000);
    expect(warnings.filter((line) => line.startsWith('lossy-conversion'))).toHaveLength(1);
    expect(MAX_INLINED_NODES).toBe(10_000);
  });
});
