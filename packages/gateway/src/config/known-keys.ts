import type * as v from 'valibot';

/** The parts of valibot's schema objects this walk reads (they are plain objects). */
export interface SchemaNode {
  type: string;
  entries?: Record<string, SchemaNode>;
  wrapped?: SchemaNode;
  item?: SchemaNode;
  value?: SchemaNode;
  options?: SchemaNode[];
}

/** The schemas a value at `node` may match: optional wrappers unwrapped, unions spread. */
export function alternatives(node: SchemaNode): SchemaNode[] {
  if (node.wrapped) return alternatives(node.wrapped);
  if (node.type === 'union' && node.options) return node.options.flatMap(alternatives);
  return [node];
}

/** The nodes a value at `key` inside a value matching `nodes` may match. */
function childNodes(nodes: readonly SchemaNode[], key: string | number): SchemaNode[] {
  return nodes.flatMap((node) => {
    if (node.entries) return node.entries[key] ? alternatives(node.entries[key]) : [];
    if (node.type === 'record' && node.value) return alternatives(node.value);
    if (node.type === 'array' && node.item && typeof key === 'number') return alternatives(node.item);
    return [];
  });
}

function keysOf(nodes: readonly SchemaNode[]): string[] {
  return [...new Set(nodes.flatMap((node) => (node.entries ? Object.keys(node.entries) : [])))];
}

/** A field the schema does not know, with the known fields beside it. */
export interface UnknownField {
  path: (string | number)[];
  known: string[];
}

/**
 * Every field of `value` that the schema has no place for, at any depth (valibot's strict objects
 * stop at the first unknown key of each object, and a person fixing a config wants them all).
 */
export function unknownFields(schema: v.GenericSchema, value: unknown): UnknownField[] {
  const found: UnknownField[] = [];
  const walk = (nodes: SchemaNode[], item: unknown, path: (string | number)[]) => {
    if (nodes.length === 0 || typeof item !== 'object' || item === null) return;
    if (Array.isArray(item)) {
      item.forEach((element, i) => walk(childNodes(nodes, i), element, [...path, i]));
      return;
    }
    // The alternatives an object can be (`ledger: false | { path }` is an object here); only an
    // object whose every such alternative is strict (not a record, not a loose object) has unknown keys.
    const objects = nodes.filter((node) => node.entries || node.type === 'record');
    const strict = objects.length > 0 && objects.every((node) => node.type === 'strict_object');
    const known = keysOf(objects);
    for (const [key, child] of Object.entries(item)) {
      if (strict && !known.includes(key)) found.push({ path: [...path, key], known });
      else walk(childNodes(nodes, key), child, [...path, key]);
    }
  };
  walk(alternatives(schema as unknown as SchemaNode), value, []);
  return found;
}
