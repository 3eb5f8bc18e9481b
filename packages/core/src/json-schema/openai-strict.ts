import type { JsonSchema } from '../json.js';
import { isJsonObject } from '../json.js';
import { joinPath } from '../validate.js';
import { inlineRefs } from './inline-refs.js';
import { mergeAllOf } from './merge-all-of.js';
import { tupleToItems } from './tuple-items.js';
import type { SchemaContext } from './walk.js';
import { reportAt, rootPath, typesOf } from './walk.js';

/** Keywords strict mode accepts (the Structured Outputs "supported schemas" list). */
const KEYWORDS = new Set([
  'type',
  'title',
  'description',
  'enum',
  'const',
  'anyOf',
  '$ref',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);
/** Identification and comments: dropped without a warning, since they constrain nothing. */
const SILENT = new Set(['$schema', '$id', '$comment', '$anchor', '$dynamicAnchor', '$vocabulary', 'nullable']);
/** String formats strict mode accepts. */
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
/** Stands in for an untyped schema: strict mode needs a type, and cannot leave an object open. */
const ANY_SCALAR: JsonSchema = { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] };

/**
 * Rewrites a JSON Schema into the subset OpenAI accepts with `strict: true` (Chat `tools[].function`
 * and `response_format.json_schema`, Responses `tools[]` and `text.format`): every object gets
 * `additionalProperties: false` and lists all its properties in `required`, formerly optional ones
 * made nullable; arrays always have `items`; refs are inlined, except recursive ones, which strict
 * mode supports as `$ref` to `#` or `#/$defs/<name>` and are kept that way; `allOf` is merged,
 * `oneOf` becomes `anyOf`, and keywords or formats strict mode rejects (`default`, `minLength`,
 * `patternProperties`, ...) are dropped. Every loss is reported through `context` with its path.
 * Never mutates `schema`.
 *
 * Strict mode also wants an object at the root; a root of another type is left for the codec.
 *
 * @see https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
 */
export function toOpenAIStrictSchema(schema: JsonSchema, context?: SchemaContext): JsonSchema {
  const path = rootPath(context);
  const { $defs, ...inlined } = inlineRefs(schema, context, { mode: 'keep' });
  const defs = isJsonObject($defs) ? $defs : {};
  // A root that is itself a recursive ref: strict mode wants the object at the root, so unfold it once.
  const rootRef = typeof inlined.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(inlined.$ref)?.[1] : undefined;
  const { $ref: _ref, ...siblings } = inlined;
  const root = rootRef !== undefined && isJsonObject(defs[rootRef]) ? { ...defs[rootRef], ...siblings } : inlined;
  const out = encodeNode(root, path, context);
  const defsPath = joinPath(path, '$defs');
  const entries = Object.entries(defs).map(([name, def]) => [name, encodeNode(def, joinPath(defsPath, name), context)]);
  return entries.length > 0 ? { ...out, $defs: Object.fromEntries(entries) } : out;
}

function encodeNode(input: unknown, path: string, context: SchemaContext | undefined): JsonSchema {
  if (!isJsonObject(input)) {
    if (input !== true) reportAt(context, 'lossy-conversion', path, `schema ${JSON.stringify(input)} cannot be expressed in strict mode; sent as any scalar`);
    return ANY_SCALAR;
  }
  const node = normalize(input, path, context);
  const types = typesOf(node);
  if (types === undefined && !['anyOf', 'enum', 'const', '$ref'].some((key) => Object.hasOwn(node, key))) {
    reportAt(context, 'lossy-conversion', path, 'a schema without a type sent as any scalar: strict mode needs a type and closed objects');
    const { description, title } = node;
    return { ...(title === undefined ? {} : { title }), ...(description === undefined ? {} : { description }), ...ANY_SCALAR };
  }
  const out: JsonSchema = {};
  const object = types?.includes('object') === true;
  for (const [key, value] of Object.entries(node)) {
    const at = joinPath(path, key);
    if (key === 'type') out.type = Array.isArray(value) ? types : types?.[0];
    else if (key === 'properties' || key === 'required' || key === 'additionalProperties') {
      // Holds the key's place, filled in below: an already strict schema comes out byte for byte as it went in.
      if (object) out[key] = undefined;
    } else if (key === 'items') out.items = encodeNode(value, at, context);
    else if (key === 'anyOf' && Array.isArray(value)) out.anyOf = value.map((child, index) => encodeNode(child, joinPath(at, index), context));
    // Gemini's Schema spells int64 counts as decimal strings (proto3 JSON); strict mode wants numbers.
    else if ((key === 'minItems' || key === 'maxItems') && typeof value === 'string' && /^\d+$/.test(value)) out[key] = Number(value);
    else if (key === 'format' && !(typeof value === 'string' && FORMATS.has(value))) {
      reportAt(context, 'dropped-field', at, `format ${JSON.stringify(value)} is not supported in strict mode`);
    } else if (KEYWORDS.has(key)) out[key] = value;
    else if (!SILENT.has(key)) reportAt(context, 'dropped-field', at, `${key} is not supported in strict mode`);
  }
  if (object) Object.assign(out, closeObject(node, path, context));
  if (types?.includes('array') && out.items === undefined) {
    reportAt(context, 'lossy-conversion', joinPath(path, 'items'), 'an array without items gets any-scalar items: strict mode requires items');
    out.items = ANY_SCALAR;
  }
  return node.nullable === true ? makeNullable(out) : out;
}

/** Rewrites one node's own keywords into forms strict mode has. */
function normalize(input: JsonSchema, path: string, context: SchemaContext | undefined): JsonSchema {
  let node = mergeAllOf(input, path, context);
  node = tupleToItems(node, path, context);
  if (node.oneOf !== undefined) {
    const { oneOf, ...rest } = node;
    if (Array.isArray(oneOf) && node.anyOf === undefined) {
      const nonNull = oneOf.filter((branch) => !(isJsonObject(branch) && typesOf(branch)?.join() === 'null'));
      // With at most one non-null branch, "exactly one" and "at least one" agree.
      if (nonNull.length > 1) reportAt(context, 'lossy-conversion', joinPath(path, 'oneOf'), 'oneOf sent as anyOf: strict mode has no oneOf');
      node = { ...rest, anyOf: oneOf };
    } else {
      reportAt(context, 'dropped-field', joinPath(path, 'oneOf'), 'oneOf beside anyOf is not supported in strict mode');
      node = rest;
    }
  }
  if (node.type === undefined && isJsonObject(node.properties)) node = { type: 'object', ...node };
  if (node.type === undefined && node.items !== undefined) node = { type: 'array', ...node };
  for (const [exclusive, inclusive] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    // Draft 4 spelled exclusive bounds as a flag beside the inclusive one.
    if (typeof node[exclusive] !== 'boolean') continue;
    const { [exclusive]: flag, [inclusive]: bound, ...rest } = node;
    node = flag === true && bound !== undefined ? { ...rest, [exclusive]: bound } : { ...rest, ...(bound === undefined ? {} : { [inclusive]: bound }) };
  }
  return node;
}

/** `properties` all required (optional ones made nullable) and `additionalProperties: false`. */
function closeObject(node: JsonSchema, path: string, context: SchemaContext | undefined): JsonSchema {
  const declared = isJsonObject(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required) ? node.required : [];
  const propertiesPath = joinPath(path, 'properties');
  const properties: JsonSchema = {};
  for (const [name, child] of Object.entries(declared)) {
    const at = joinPath(propertiesPath, name);
    const encoded = encodeNode(child, at, context);
    if (required.includes(name)) {
      properties[name] = encoded;
    } else {
      reportAt(context, 'lossy-conversion', at, 'optional property made required and nullable: strict mode requires every property');
      properties[name] = makeNullable(encoded);
    }
  }
  const unknown = required.filter((name) => typeof name !== 'string' || !Object.hasOwn(declared, name));
  if (unknown.length > 0) reportAt(context, 'dropped-field', joinPath(path, 'required'), `required names no declared property: ${JSON.stringify(unknown)}`);
  const { additionalProperties } = node;
  if (additionalProperties === undefined) {
    // JSON Schema objects are open by default: closing one forbids what it allowed.
    reportAt(
      context,
      'lossy-conversion',
      joinPath(path, 'additionalProperties'),
      'open object closed (additionalProperties: false): strict mode allows no undeclared properties',
    );
  } else if (additionalProperties !== false) {
    reportAt(
      context,
      'dropped-field',
      joinPath(path, 'additionalProperties'),
      'strict mode allows no undeclared properties: additionalProperties set to false',
    );
  }
  return { properties, required: Object.keys(declared), additionalProperties: false };
}

/** The schema or null, in the form strict mode accepts: a `type` array, an enum with null, or `anyOf`. */
function makeNullable(schema: JsonSchema): JsonSchema {
  const { type, anyOf } = schema;
  if (Array.isArray(anyOf)) {
    return anyOf.some((branch) => isJsonObject(branch) && branch.type === 'null') ? schema : { ...schema, anyOf: [...anyOf, { type: 'null' }] };
  }
  if (Object.hasOwn(schema, 'const') || Object.hasOwn(schema, '$ref') || (type === undefined && !Array.isArray(schema.enum))) {
    return { anyOf: [schema, { type: 'null' }] };
  }
  const out: JsonSchema = { ...schema };
  if (typeof type === 'string' && type !== 'null') out.type = [type, 'null'];
  if (Array.isArray(type) && !type.includes('null')) out.type = [...type, 'null'];
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
  return out;
}
