import type { JsonSchema } from '../json.js';
import { isJsonObject } from '../json.js';
import { joinPath } from '../validate.js';
import type { CodecContext, LlmWarningCode } from '../warnings.js';
import { reportLoss } from '../warnings.js';

/** Options of the schema transforms: a codec context plus where the schema sits in the request. */
export type SchemaContext = CodecContext & {
  /** JSON path of the schema in the request, prefixed to every warning (`tools[2].parameters`). */
  path?: string;
};

/** Keywords whose value is one subschema (`items` may also be a draft-4 tuple array). */
export const SUBSCHEMA_KEYWORDS = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
];
/** Keywords whose value is an array of subschemas. */
export const SUBSCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords whose value maps names to subschemas (`dependencies` may also map to name lists). */
export const SUBSCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];

/** Rewrites one subschema found at `path`. */
export type SubschemaMapper = (schema: unknown, path: string) => unknown;

/**
 * A shallow copy of `node` whose subschemas (under `properties`, `items`, `anyOf`, ...) are replaced
 * by `map(subschema, path)`. Data keywords (`enum`, `const`, `default`, `examples`) are not entered.
 */
export function mapSubschemas(node: JsonSchema, path: string, map: SubschemaMapper): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    const at = joinPath(path, key);
    if (SUBSCHEMA_KEYWORDS.includes(key) && Array.isArray(value)) {
      out[key] = value.map((item, index) => map(item, joinPath(at, index)));
    } else if (SUBSCHEMA_KEYWORDS.includes(key)) {
      out[key] = map(value, at);
    } else if (SUBSCHEMA_LIST_KEYWORDS.includes(key) && Array.isArray(value)) {
      out[key] = value.map((item, index) => map(item, joinPath(at, index)));
    } else if (SUBSCHEMA_MAP_KEYWORDS.includes(key) && isJsonObject(value)) {
      out[key] = Object.fromEntries(
        // draft-4 `dependencies` mixes schemas and arrays of names; only schemas are entered.
        Object.entries(value).map(([name, item]) => [name, Array.isArray(item) ? item : map(item, joinPath(at, name))]),
      );
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Where a warning about `path` goes: the root of an unprefixed schema is `$`. */
export function reportAt(context: SchemaContext | undefined, code: LlmWarningCode, path: string, message: string): void {
  reportLoss(context, { code, path: path || '$', message });
}

/** The path prefix of a transform's root. */
export function rootPath(context: SchemaContext | undefined): string {
  return context?.path ?? '';
}

/** True when two JSON values are equal (key order matters, as it does not in JSON; good enough here). */
export function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

/** The JSON Schema types of a node, lowercased (`type: "STRING"` is Gemini's spelling). */
export function typesOf(node: JsonSchema): string[] | undefined {
  const { type } = node;
  if (typeof type === 'string') return [type.toLowerCase()];
  if (Array.isArray(type)) return type.filter((item): item is string => typeof item === 'string').map((item) => item.toLowerCase());
  return undefined;
}
