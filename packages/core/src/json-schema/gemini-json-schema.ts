import type { JsonSchema } from '../json.js';
import { inlineRefs } from './inline-refs.js';
import type { SchemaContext } from './walk.js';

/**
 * Prepares a JSON Schema for Gemini's `parametersJsonSchema` / `responseJsonSchema`, which take
 * standard JSON Schema (unlike `parameters` / `responseSchema`, for which see `toGeminiSchema`). Only
 * makes it self-contained: local `$ref`s are inlined, and recursive ones are kept as
 * `$ref: "#/$defs/<name>"` with those definitions at the root. Never mutates `schema`. `path`, when
 * given, is where the schema sits in the request (warnings name it); it overrides `context.path`.
 *
 * @see https://ai.google.dev/api/caching#FunctionDeclaration
 */
export function toGeminiJsonSchema(schema: JsonSchema, context?: SchemaContext, path?: string): JsonSchema {
  return inlineRefs(schema, context, { mode: 'keep' }, path);
}
