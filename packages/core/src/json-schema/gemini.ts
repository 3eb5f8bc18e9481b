import type { JsonSchema } from '../json.js';
import { isJsonObject } from '../json.js';
import { joinPath } from '../validate.js';
import { inlineRefs } from './inline-refs.js';
import { mergeAllOf } from './merge-all-of.js';
import { tupleToItems } from './tuple-items.js';
import type { SchemaContext } from './walk.js';
import { reportAt, rootPath, typesOf } from './walk.js';

/** The fields of Gemini's `Schema` object that this transform emits. */
const KEYWORDS = new Set([
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
/** Identification and comments: dropped without a warning, since they constrain nothing. */
const SILENT = new Set(['$schema', '$id', '$comment', '$anchor', '$dynamicAnchor', '$vocabulary']);
/** Formats Gemini accepts, by type. */
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  string: ['enum', 'date-time'],
  integer: ['int32', 'int64'],
  number: ['float', 'double'],
};
/** Keywords that belong to one type, for splitting `type: ["string", "number"]` into `anyOf`. */
const TYPE_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  string: ['minLength', 'maxLength', 'pattern', 'format', 'enum'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'format', 'enum'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'format', 'enum'],
  boolean: ['enum'],
  array: ['items', 'minItems', 'maxItems', 'uniqueItems', 'contains'],
  object: ['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties', 'propertyOrdering'],
};
/** How many times a recursive `$ref` is unrolled before it is cut. */
const RECURSION_DEPTH = 3;

/**
 * Rewrites a JSON Schema into the OpenAPI 3.0 subset Gemini reads in `functionDeclarations[].parameters`
 * and `generationConfig.responseSchema`. Refs are inlined (recursion unrolled 3 levels, then cut);
 * `type: [T, "null"]` and `anyOf` null branches become `nullable: true`; `allOf` is merged; `const`
 * becomes a one-value `enum`; enums become strings on a `string` type; exclusive bounds become
 * inclusive ones; formats, keywords and `required` names Gemini rejects are dropped. Every loss is
 * reported through `context` with its path. Never mutates `schema`.
 *
 * An empty `properties` object is left out (Gemini rejects it on OBJECT); a root that ends up `{}`
 * is for the codec to omit.
 *
 * @see https://ai.google.dev/api/caching#Schema
 */
export function toGeminiSchema(schema: JsonSchema, context?: SchemaContext): JsonSchema {
  const inlined = inlineRefs(schema, context, { mode: 'cut', depth: RECURSION_DEPTH });
  return encodeNode(inlined, rootPath(context), context);
}

function encodeNode(input: unknown, path: string, context: SchemaContext | undefined): JsonSchema {
  if (input === true || input === undefined) return {};
  if (!isJsonObject(input)) {
    reportAt(context, 'lossy-conversion', path, `schema ${JSON.stringify(input)} cannot be expressed; sent as an empty schema`);
    return {};
  }
  const node = normalize(input, path, context);
  const declared = isJsonObject(node.properties) ? Object.keys(node.properties) : [];
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    const at = joinPath(path, key);
    if (key === 'properties' && isJsonObject(value)) {
      const entries = Object.entries(value).map(([name, child]) => [name, encodeNode(child, joinPath(at, name), context)]);
      if (entries.length > 0) out.properties = Object.fromEntries(entries);
    } else if (key === 'items') {
      out.items = encodeNode(value, at, context);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out.anyOf = value.map((child, index) => encodeNode(child, joinPath(at, index), context));
    } else if (key === 'format') {
      const type = typesOf(node)?.[0] ?? 'untyped';
      if (typeof value === 'string' && FORMATS[type]?.includes(value)) out.format = value;
      else reportAt(context, 'dropped-field', at, `format ${JSON.stringify(value)} is not accepted by Gemini on a ${type} schema`);
    } else if (key === 'required' && Array.isArray(value)) {
      const kept = value.filter((name) => typeof name === 'string' && declared.includes(name));
      const unknown = value.filter((name) => !kept.includes(name));
      if (unknown.length > 0) reportAt(context, 'dropped-field', at, `required names no declared property: ${JSON.stringify(unknown)}`);
      if (kept.length > 0) out.required = kept;
    } else if (key === 'additionalProperties' && value === false) {
      // Gemini emits only declared properties, which is what `false` asks for.
    } else if (KEYWORDS.has(key)) {
      out[key] = value;
    } else if (!SILENT.has(key)) {
      reportAt(context, 'dropped-field', at, `${key} is not supported by Gemini's schema`);
    }
  }
  return out;
}

/** Rewrites one node's own keywords (not its children) into forms Gemini has. */
function normalize(input: JsonSchema, path: string, context: SchemaContext | undefined): JsonSchema {
  let node = mergeAllOf(input, path, context);
  node = tupleToItems(node, path, context);
  const collapsed = nullability(node, path, context);
  if (collapsed !== undefined) return normalize(collapsed, path, context);
  node = constToEnum(node);
  node = nullableNode(node, path, context);
  node = enumsAsStrings(node, path, context);
  node = inclusiveBounds(node, path, context);
  return examplesToExample(node, path, context);
}

function isNull(type: unknown): boolean {
  return typeof type === 'string' && type.toLowerCase() === 'null';
}

function isNullSchema(schema: unknown): boolean {
  if (!isJsonObject(schema)) return false;
  const types = typesOf(schema);
  return (types !== undefined && types.length > 0 && types.every(isNull)) || (Object.hasOwn(schema, 'const') && schema.const === null);
}

/**
 * Takes `null` out of `type` arrays and `anyOf` / `oneOf` (Gemini rejects a null type, regression
 * #44) and sets `nullable` instead; a union left with one branch is merged into the node. Returns
 * the node to normalize again, or undefined when there was nothing to rewrite.
 */
function nullability(node: JsonSchema, path: string, context: SchemaContext | undefined): JsonSchema | undefined {
  const { type, anyOf, oneOf, ...rest } = node;
  if (!Array.isArray(type) && !isNull(type) && anyOf === undefined && oneOf === undefined) return undefined;
  let branches = Array.isArray(anyOf) ? anyOf : undefined;
  if (oneOf !== undefined) {
    const nonNull = Array.isArray(oneOf) ? oneOf.filter((branch) => !isNullSchema(branch)) : [];
    if (branches === undefined && Array.isArray(oneOf)) {
      // With at most one non-null branch, "exactly one" and "at least one" agree.
      if (nonNull.length > 1) reportAt(context, 'lossy-conversion', joinPath(path, 'oneOf'), 'oneOf sent as anyOf: Gemini has no oneOf');
      branches = oneOf;
    } else {
      reportAt(context, 'dropped-field', joinPath(path, 'oneOf'), 'oneOf beside anyOf is not supported by Gemini');
    }
  }
  const out: JsonSchema = { ...rest };
  const types = (Array.isArray(type) ? type : type === undefined ? [] : [type]).filter((item) => !isNull(item));
  const nullBranches = branches?.filter(isNullSchema).length ?? 0;
  if (types.length < (Array.isArray(type) ? type.length : type === undefined ? 0 : 1) || nullBranches > 0) out.nullable = true;
  branches = branches?.filter((branch) => !isNullSchema(branch));
  if (type !== undefined && types.length === 0 && (branches === undefined || branches.length === 0)) {
    reportAt(context, 'lossy-conversion', joinPath(path, 'type'), 'type null sent as nullable: Gemini has no null type');
  }
  if (types.length === 1) out.type = types[0];
  if (types.length > 1 && branches === undefined) return splitTypes(out, types as string[]);
  if (types.length > 1) {
    reportAt(context, 'lossy-conversion', joinPath(path, 'type'), `type ${JSON.stringify(type)} beside anyOf: kept ${JSON.stringify(types[0])}`);
    out.type = types[0];
  }
  if (branches?.length === 1) return { ...out, allOf: branches };
  if (branches !== undefined && branches.length > 1) out.anyOf = branches;
  if (type === undefined && branches?.length === 0) {
    reportAt(context, 'lossy-conversion', joinPath(path, 'anyOf'), 'a null-only union sent as nullable: Gemini has no null type');
  }
  const changed = Array.isArray(type) || isNull(type) || oneOf !== undefined || nullBranches > 0;
  return changed ? out : undefined;
}

/** `type: ["string", "number"]` as `anyOf` of one branch per type, each with its own keywords. */
function splitTypes(node: JsonSchema, types: string[]): JsonSchema {
  const owned = new Set(types.flatMap((type) => TYPE_KEYWORDS[type.toLowerCase()] ?? []));
  const shared = Object.fromEntries(Object.entries(node).filter(([key]) => !owned.has(key)));
  const anyOf = types.map((type) => {
    const branch: JsonSchema = { type };
    for (const key of TYPE_KEYWORDS[type.toLowerCase()] ?? []) if (node[key] !== undefined) branch[key] = node[key];
    if (Array.isArray(branch.enum)) branch.enum = branch.enum.filter((value) => matchesType(value, type.toLowerCase()));
    return branch;
  });
  return { ...shared, anyOf };
}

function matchesType(value: unknown, type: string): boolean {
  if (type === 'integer') return Number.isInteger(value);
  return typeof value === type;
}

function constToEnum(node: JsonSchema): JsonSchema {
  if (!Object.hasOwn(node, 'const')) return node;
  const { const: value, ...rest } = node;
  return { ...rest, enum: [value] };
}

/** An `enum` listing null means nullable; a node left with no type and no values is reported. */
function nullableNode(node: JsonSchema, path: string, context: SchemaContext | undefined): JsonSchema {
  if (!Array.isArray(node.enum) || !node.enum.includes(null)) return node;
  const values = node.enum.filter((value) => value !== null);
  const { enum: _enum, ...rest } = node;
  if (values.length === 0) reportAt(context, 'lossy-conversion', joinPath(path, 'enum'), 'enum [null] sent as nullable: Gemini has no null type');
  return values.length > 0 ? { ...rest, enum: values, nullable: true } : { ...rest, nullable: true };
}

/**
 * Gemini takes enums only as strings on a STRING schema and rejects an enum without a type
 * (regression #45). Other values are sent as their JSON text, which changes the arguments' type.
 */
function enumsAsStrings(node: JsonSchema, path: string, context: SchemaContext | undefined): JsonSchema {
  if (!Array.isArray(node.enum)) return node;
  const values = node.enum;
  if (values.some((value) => typeof value !== 'string')) {
    reportAt(context, 'lossy-conversion', joinPath(path, 'enum'), `enum ${JSON.stringify(values)} sent as strings: Gemini accepts only string enums`);
  }
  const type = typesOf(node)?.[0] === 'string' ? node.type : 'string';
  return { ...node, type, enum: values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))) };
}

/**
 * Gemini has only inclusive bounds. On integers `exclusiveMinimum: n` is exactly `minimum: floor(n) + 1`;
 * on numbers the inclusive bound is the closest it can say, and is reported.
 */
function inclusiveBounds(node: JsonSchema, path: string, context: SchemaContext | undefined): JsonSchema {
  const out: JsonSchema = { ...node };
  const integer = typesOf(node)?.[0] === 'integer';
  for (const [exclusive, inclusive, step] of [
    ['exclusiveMinimum', 'minimum', 1],
    ['exclusiveMaximum', 'maximum', -1],
  ] as const) {
    const value = node[exclusive];
    if (value === undefined) continue;
    delete out[exclusive];
    const at = joinPath(path, exclusive);
    // Draft 4 spells it `exclusiveMinimum: true` beside `minimum`.
    const bound = value === true ? node[inclusive] : value;
    if (value === false) continue;
    if (typeof bound !== 'number') {
      reportAt(context, 'dropped-field', at, `${exclusive} ${JSON.stringify(value)} is not supported by Gemini's schema`);
      continue;
    }
    let converted = bound;
    if (integer) converted = step > 0 ? Math.floor(bound) + 1 : Math.ceil(bound) - 1;
    else reportAt(context, 'lossy-conversion', at, `${exclusive} ${bound} sent as inclusive ${inclusive}: Gemini has no exclusive bounds`);
    const current = value === true ? undefined : node[inclusive];
    out[inclusive] = typeof current !== 'number' ? converted : step > 0 ? Math.max(current, converted) : Math.min(current, converted);
  }
  return out;
}

/** Gemini has OpenAPI's single `example`; the first of `examples` takes its place. */
function examplesToExample(node: JsonSchema, path: string, context: SchemaContext | undefined): JsonSchema {
  const { examples, ...rest } = node;
  if (!Array.isArray(examples) || examples.length === 0 || rest.example !== undefined) return node;
  if (examples.length > 1) reportAt(context, 'lossy-conversion', joinPath(path, 'examples'), 'only the first of examples is kept, as example');
  return { ...rest, example: examples[0] };
}
