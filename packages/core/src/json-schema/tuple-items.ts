import type { JsonSchema } from '../json.js';
import { joinPath } from '../validate.js';
import type { SchemaContext } from './walk.js';
import { reportAt } from './walk.js';

/**
 * Rewrites a tuple (`prefixItems`, or draft-4 `items: [...]`) as one `items` schema, `anyOf` the
 * positions, since neither OpenAI strict mode nor Gemini has tuples. Reported as
 * `lossy-conversion`: positions are no longer checked. Never mutates `node`.
 */
export function tupleToItems(node: JsonSchema, path: string, context: SchemaContext | undefined): JsonSchema {
  const { prefixItems, items, additionalItems, ...rest } = node;
  const tupleKey = Array.isArray(prefixItems) ? 'prefixItems' : Array.isArray(items) ? 'items' : undefined;
  if (tupleKey === undefined) return node;
  const positions = (tupleKey === 'prefixItems' ? prefixItems : items) as unknown[];
  // What may follow the positions: 2020-12 `items` beside `prefixItems`, draft-4 `additionalItems`.
  const tail = tupleKey === 'prefixItems' ? items : additionalItems;
  const branches = tail === undefined || tail === false || tail === true ? positions : [...positions, tail];
  reportAt(context, 'lossy-conversion', joinPath(path, tupleKey), 'tuple positions merged into one items schema (anyOf the positions)');
  const unique = branches.filter((branch, index) => branches.findIndex((other) => JSON.stringify(other) === JSON.stringify(branch)) === index);
  const merged: JsonSchema = { ...rest };
  if (unique.length === 1) merged.items = unique[0];
  else if (unique.length > 1) merged.items = { anyOf: unique };
  if (tail === false && merged.maxItems === undefined) merged.maxItems = positions.length;
  return merged;
}
