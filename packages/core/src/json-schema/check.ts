import { LlmError } from '../errors.js';
import { MAX_JSON_DEPTH } from '../json-depth.js';
import { isJsonObject } from '../json.js';
import type { PathKey } from '../validate.js';
import { describe, joinPath } from '../validate.js';
import { SUBSCHEMA_LIST_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS, SUBSCHEMA_KEYWORDS } from './walk.js';

/** The first structural fault found in a schema: where and what. */
export interface SchemaProblem {
  /** JSON path of the fault, under the path the schema was found at (`parameters.properties.city.type`); `''` for an unprefixed root. */
  path: string;
  message: string;
}

/** JSON Schema's type names (draft 2020-12 §6.1.1, with `integer`). */
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/**
 * A type name in any case: Gemini clients write its `Type` enum (`"OBJECT"`) in
 * `responseJsonSchema` too, Gemini accepts it, and the schema rewriters read it lowercased.
 */
function isTypeName(value: unknown): boolean {
  return typeof value === 'string' && (TYPES.has(value) || TYPES.has(value.toLowerCase()));
}

/** What a keyword's value must be. Keywords not listed (annotations, vendor extensions, data) are not checked. */
type Rule =
  | 'type'
  | 'schema'
  | 'schemas'
  | 'schema-or-schemas'
  | 'schema-map'
  | 'strings'
  | 'array'
  | 'string'
  | 'number'
  | 'positive'
  | 'bound'
  | 'count'
  | 'boolean'
  | 'dependencies'
  | 'string-arrays';

const RULES = new Map<string, Rule>([
  ['type', 'type'],
  // The subschema keywords are the walker's own lists (one place says which keywords hold schemas).
  ...SUBSCHEMA_KEYWORDS.filter((key) => key !== 'items').map((key) => [key, 'schema'] as const),
  ...SUBSCHEMA_LIST_KEYWORDS.map((key) => [key, 'schemas'] as const),
  ['items', 'schema-or-schemas'],
  ...SUBSCHEMA_MAP_KEYWORDS.filter((key) => key !== 'dependencies').map((key) => [key, 'schema-map'] as const),
  ['required', 'strings'],
  ['enum', 'array'],
  ...[
    '$ref',
    '$id',
    '$schema',
    '$anchor',
    '$dynamicRef',
    '$dynamicAnchor',
    '$comment',
    'pattern',
    'format',
    'title',
    'description',
    'contentEncoding',
    'contentMediaType',
  ].map((key) => [key, 'string'] as const),
  ['minimum', 'number'],
  ['maximum', 'number'],
  ['multipleOf', 'positive'],
  // A number since draft 6; a flag beside minimum / maximum in draft 4.
  ['exclusiveMinimum', 'bound'],
  ['exclusiveMaximum', 'bound'],
  ...['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains'].map((key) => [key, 'count'] as const),
  ...['uniqueItems', 'nullable', 'deprecated', 'readOnly', 'writeOnly'].map((key) => [key, 'boolean'] as const),
  ['dependencies', 'dependencies'],
  ['dependentRequired', 'string-arrays'],
]);

/**
 * A fault on its way up from where it was found: path segments are pushed innermost first, so the
 * happy path builds no paths at all and a fault's path is joined once at the top.
 */
interface Fault {
  keys: PathKey[];
  message: string;
}

/**
 * Checks that `schema` is structurally a JSON Schema, the kind of mistake an upstream answers
 * with a 400: `type` a known type name or an array of them, `properties` an object of schemas,
 * `items` a schema or an array of them, `required` an array of strings, `enum` an array,
 * `anyOf` / `oneOf` / `allOf` non-empty arrays of schemas, `additionalProperties` a boolean or a
 * schema, `$ref` a string, numeric keywords numbers. Unknown keywords pass (JSON Schema allows
 * them), and so do the values of data keywords (`const`, `default`, `examples`). One walk, no
 * allocation unless a fault is found; nesting deeper than `MAX_JSON_DEPTH` schema levels is a
 * fault. Returns the first fault (its path under `path`, where the schema sits), or `undefined`
 * for a valid schema.
 */
export function findSchemaProblem(schema: unknown, path = ''): SchemaProblem | undefined {
  const fault = checkSchema(schema, MAX_JSON_DEPTH);
  if (fault === undefined) return undefined;
  let at = path;
  for (let index = fault.keys.length - 1; index >= 0; index--) at = joinPath(at, fault.keys[index]);
  return { path: at, message: fault.message };
}

/**
 * {@link findSchemaProblem}, throwing `LlmError` kind `invalid_request` (400) with the fault's
 * path (`responseFormat.schema.properties.city.type: "strin" is not a JSON Schema type`).
 */
export function checkJsonSchema(schema: unknown, path = ''): void {
  const problem = findSchemaProblem(schema, path);
  if (problem !== undefined) throw LlmError.invalidRequest(problem.path || '$', problem.message);
}

function fault(message: string, key?: PathKey): Fault {
  return { keys: key === undefined ? [] : [key], message };
}

/** `fault` one level further out, under `key`. */
function under(found: Fault, key: PathKey): Fault {
  found.keys.push(key);
  return found;
}

function checkSchema(value: unknown, room: number): Fault | undefined {
  if (typeof value === 'boolean') return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fault(`expected a schema (an object or a boolean), got ${describe(value)}`);
  if (room === 0) return fault(`schema nested deeper than ${MAX_JSON_DEPTH} levels`);
  const node = value as Record<string, unknown>;
  for (const key in node) {
    const rule = RULES.get(key);
    if (rule === undefined) continue;
    const found = checkKeyword(rule, node[key], room - 1);
    if (found !== undefined) return under(found, key);
  }
  return undefined;
}

function checkKeyword(rule: Rule, value: unknown, room: number): Fault | undefined {
  switch (rule) {
    case 'type':
      if (typeof value === 'string') return isTypeName(value) ? undefined : fault(`${describe(value)} is not a JSON Schema type`);
      if (!Array.isArray(value)) return fault(`expected a JSON Schema type name or an array of them, got ${describe(value)}`);
      for (let index = 0; index < value.length; index++) {
        if (!isTypeName(value[index])) return fault(`${describe(value[index])} is not a JSON Schema type`, index);
      }
      return undefined;
    case 'schema':
      return checkSchema(value, room);
    case 'schemas':
      if (!Array.isArray(value) || value.length === 0) return fault(`expected a non-empty array of schemas, got ${describe(value)}`);
      return checkList(value, room);
    case 'schema-or-schemas':
      return Array.isArray(value) ? checkList(value, room) : checkSchema(value, room);
    case 'schema-map': {
      if (!isJsonObject(value)) return fault(`expected an object of schemas, got ${describe(value)}`);
      for (const name in value) {
        const found = checkSchema(value[name], room);
        if (found !== undefined) return under(found, name);
      }
      return undefined;
    }
    case 'strings':
      return checkStrings(value);
    case 'array':
      return Array.isArray(value) ? undefined : fault(`expected an array, got ${describe(value)}`);
    case 'string':
      return typeof value === 'string' ? undefined : fault(`expected a string, got ${describe(value)}`);
    case 'number':
      return typeof value === 'number' ? undefined : fault(`expected a number, got ${describe(value)}`);
    case 'positive':
      return typeof value === 'number' && value > 0 ? undefined : fault(`expected a number greater than 0, got ${describe(value)}`);
    case 'bound':
      return typeof value === 'number' || typeof value === 'boolean' ? undefined : fault(`expected a number, got ${describe(value)}`);
    case 'count':
      // Gemini's Schema spells these int64 counts as decimal strings (proto3 JSON), and its decoder keeps them.
      if (typeof value === 'number' ? Number.isInteger(value) && value >= 0 : typeof value === 'string' && /^\d+$/.test(value)) return undefined;
      return fault(`expected a non-negative integer, got ${describe(value)}`);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : fault(`expected a boolean, got ${describe(value)}`);
    case 'dependencies': {
      // Draft 4-7: each entry is a schema or the names that property requires.
      if (!isJsonObject(value)) return fault(`expected an object of schemas or arrays of strings, got ${describe(value)}`);
      for (const name in value) {
        const entry = value[name];
        const found = Array.isArray(entry) ? checkStrings(entry) : checkSchema(entry, room);
        if (found !== undefined) return under(found, name);
      }
      return undefined;
    }
    case 'string-arrays': {
      if (!isJsonObject(value)) return fault(`expected an object of arrays of strings, got ${describe(value)}`);
      for (const name in value) {
        const found = checkStrings(value[name]);
        if (found !== undefined) return under(found, name);
      }
      return undefined;
    }
    default: {
      const unreachable: never = rule;
      return unreachable;
    }
  }
}

function checkList(list: unknown[], room: number): Fault | undefined {
  for (let index = 0; index < list.length; index++) {
    const found = checkSchema(list[index], room);
    if (found !== undefined) return under(found, index);
  }
  return undefined;
}

function checkStrings(value: unknown): Fault | undefined {
  if (!Array.isArray(value)) return fault(`expected an array of strings, got ${describe(value)}`);
  for (let index = 0; index < value.length; index++) {
    if (typeof value[index] !== 'string') return fault(`expected a string, got ${describe(value[index])}`, index);
  }
  return undefined;
}
