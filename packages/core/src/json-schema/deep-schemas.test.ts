// Issue 17: no schema walker recurses without a bound. A schema nested past MAX_JSON_DEPTH is an
// invalid_request naming its path (never `RangeError: Maximum call stack size exceeded`), and
// refs whose inlining would nest without end are cut to their type with a warning.
import { thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import type { LlmError } from '../errors.js';
import type { JsonSchema } from '../json.js';
import type { LlmWarning } from '../warnings.js';
import { toGeminiJsonSchema } from './gemini-json-schema.js';
import { toGeminiSchema } from './gemini.js';
import { MAX_INLINED_DEPTH } from './inline-refs.js';
import { toOpenAIStrictSchema } from './openai-strict.js';

/** `{type:"object", properties:{a: …}}` nested `levels` deep, ending in `{type:"string"}`. */
const deepSchema = (levels: number): Record<string, unknown> =>
  JSON.parse(`${'{"type":"object","properties":{"a":'.repeat(levels)}{"type":"string"}${'}}'.repeat(levels)}`);

const thrownBy = (run: () => unknown): LlmError => thrown(run) as LlmError;

const TRANSFORMS = [
  ['toOpenAIStrictSchema', toOpenAIStrictSchema],
  ['toGeminiSchema', toGeminiSchema],
  ['toGeminiJsonSchema', (schema: JsonSchema, context?: { path?: string }) => toGeminiJsonSchema(schema, context)],
] as const;

describe.each(TRANSFORMS)('%s on a schema nested too deep', (_name, transform) => {
  it.each([5_000, 100_000])('%i levels: invalid_request naming the path', (levels) => {
    const error = thrownBy(() => transform(deepSchema(levels), { path: 'tools[0].parameters' }));
    expect(error.toJSON()).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: 'tools[0].parameters.properties.a.properties.a.properties.a.properties.a….properties.a: JSON nested deeper than 128 levels',
      path: 'tools[0].parameters.properties.a.properties.a.properties.a.properties.a….properties.a',
    });
  });

  it('a deep but allowed schema (60 levels of properties) is rewritten', () => {
    expect(() => transform(deepSchema(60), { path: 'tools[0].parameters' })).not.toThrow();
  });
});

describe('refs whose inlining nests without end', () => {
  // 1,000 definitions, each holding the next: 1,000 levels once inlined, though the text is flat.
  const chain: JsonSchema = { $ref: '#/$defs/d0', $defs: {} };
  for (let at = 0; at < 1_000; at++) (chain.$defs as JsonSchema)[`d${at}`] = { type: 'object', properties: { next: { $ref: `#/$defs/d${at + 1}` } } };
  (chain.$defs as JsonSchema).d1000 = { type: 'string' };

  it.each(TRANSFORMS)('%s cuts the chain at MAX_INLINED_DEPTH with one warning', (_name, transform) => {
    const warnings: LlmWarning[] = [];
    const out = transform(chain, { path: 'tools[0].parameters', warn: (warning: LlmWarning) => warnings.push(warning) } as { path: string });
    let depth = 0;
    for (let node: unknown = out; node && typeof node === 'object' && 'properties' in node; depth++)
      node = (node as { properties: { next: unknown } }).properties.next;
    expect(depth).toBeLessThanOrEqual(MAX_INLINED_DEPTH + 1);
    expect(warnings.filter((warning) => warning.message.includes(`nested deeper than ${MAX_INLINED_DEPTH} levels once $refs are inlined`))).toHaveLength(1);
  });
});
