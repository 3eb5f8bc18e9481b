import type { JsonSchema } from '../json.js';
import { isJsonObject } from '../json.js';
import { joinPath } from '../validate.js';
import type { SchemaContext } from './walk.js';
import { reportAt, sameJson } from './walk.js';

const LOWER_BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const UPPER_BOUNDS = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);
/** Annotations: the first value wins without a warning. */
const ANNOTATIONS = new Set(['title', 'description', 'examples', 'example', '$comment', 'default']);

/**
 * Folds `allOf` into its parent: properties are united (a property named twice gets its own
 * `allOf`, folded when that property is visited), `required` is united, `type` and `enum` are
 * intersected, bounds take the tighter value. Any other keyword two branches set differently
 * keeps the first value and is reported as `lossy-conversion`. Never mutates `node`.
 */
export function mergeAllOf(node: JsonSchema, path: string, context: SchemaContext | undefined): JsonSchema {
  const { allOf, ...base } = node;
  if (!Array.isArray(allOf)) return node;
  let merged: JsonSchema = base;
  allOf.forEach((branch, index) => {
    const at = joinPath(joinPath(path, 'allOf'), index);
    if (branch === true) return;
    if (!isJsonObject(branch)) {
      reportAt(context, 'dropped-field', at, 'an allOf branch that is not a schema object was dropped');
      return;
    }
    merged = mergeTwo(merged, mergeAllOf(branch, at, context), at, context);
  });
  return merged;
}

function mergeTwo(left: JsonSchema, right: JsonSchema, path: string, context: SchemaContext | undefined): JsonSchema {
  const out: JsonSchema = { ...left };
  for (const [key, value] of Object.entries(right)) {
    const current = out[key];
    if (current === undefined || sameJson(current, value)) {
      out[key] = value;
    } else if (key === 'properties' && isJsonObject(current) && isJsonObject(value)) {
      const properties: JsonSchema = { ...current };
      for (const [name, schema] of Object.entries(value)) {
        const existing = properties[name];
        properties[name] = existing === undefined || sameJson(existing, schema) ? schema : { allOf: [existing, schema] };
      }
      out.properties = properties;
    } else if (key === 'required' && Array.isArray(current) && Array.isArray(value)) {
      out.required = [...new Set([...current, ...value])];
    } else if (key === 'type') {
      const types = intersect(asList(current), asList(value));
      if (types.length === 0)
        reportAt(context, 'lossy-conversion', joinPath(path, key), `allOf branches have no type in common; kept ${JSON.stringify(current)}`);
      else out.type = types.length === 1 ? types[0] : types;
    } else if (key === 'enum' && Array.isArray(current) && Array.isArray(value)) {
      out.enum = current.filter((item) => value.some((other) => sameJson(item, other)));
    } else if (LOWER_BOUNDS.has(key) && typeof current === 'number' && typeof value === 'number') {
      out[key] = Math.max(current, value);
    } else if (UPPER_BOUNDS.has(key) && typeof current === 'number' && typeof value === 'number') {
      out[key] = Math.min(current, value);
    } else if (!ANNOTATIONS.has(key)) {
      reportAt(context, 'lossy-conversion', joinPath(path, key), `allOf branches disagree on ${key}; kept the first value`);
    }
  }
  return out;
}

function asList(type: unknown): unknown[] {
  return Array.isArray(type) ? type : [type];
}

function intersect(left: unknown[], right: unknown[]): unknown[] {
  // `integer` is a subset of `number`.
  const has = (list: unknown[], type: unknown) => list.includes(type) || (type === 'integer' && list.includes('number'));
  return [...left.filter((type) => has(right, type)), ...right.filter((type) => type === 'integer' && left.includes('number') && !left.includes('integer'))];
}
