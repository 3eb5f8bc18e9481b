/**
 * Responses groups tools under a `namespace` (Codex sends `functions`, `collaboration`,
 * `multi_agent_v1`, ...) and names the namespace on each call (`function_call.namespace`). The
 * canonical model has flat tool names, so a namespaced tool or call is named
 * `<namespace>.<name>`: OpenAI tool names cannot hold a dot, so the split is unambiguous, and
 * targets that reject dots get the name rewritten (and mapped back) by the router like any other.
 */

/** `namespace` + `name` -> the canonical qualified name. */
export function qualifiedName(namespace: string | undefined, name: string): string {
  return namespace === undefined ? name : `${namespace}.${name}`;
}

/** Where a qualified name splits (its first dot), or -1 for a name without a namespace. */
function namespaceDot(qualified: string): number {
  const dot = qualified.indexOf('.');
  return dot <= 0 || dot === qualified.length - 1 ? -1 : dot;
}

/** A canonical tool name -> its Responses `namespace` (if qualified) and own `name`. */
export function splitQualifiedName(qualified: string): { namespace?: string; name: string } {
  const dot = namespaceDot(qualified);
  if (dot < 0) return { name: qualified };
  return { namespace: qualified.slice(0, dot), name: qualified.slice(dot + 1) };
}

/** The `name` (and `namespace`, when qualified) fields of a call item, to spread into it. */
export function callNameFields<Name extends string | undefined>(qualified: Name): { name: Name | string; namespace?: string } {
  if (qualified === undefined) return { name: qualified };
  const split = splitQualifiedName(qualified);
  return split.namespace === undefined ? { name: split.name } : { name: split.name, namespace: split.namespace };
}

/**
 * Writes the `name` (and `namespace`, when qualified) fields of a call item onto `item`, in the
 * order {@link callNameFields} spreads them, without the two objects it makes: one call per turn
 * of an agent's loop goes through here.
 */
export function writeCallName(item: Record<string, unknown>, qualified: string): void {
  const dot = namespaceDot(qualified);
  if (dot < 0) item.name = qualified;
  else {
    item.name = qualified.slice(dot + 1);
    item.namespace = qualified.slice(0, dot);
  }
}

/** The canonical name of a call item: its `name`, qualified by its `namespace` if it has one. */
export function callItemName(item: Record<string, unknown>, name: string): string {
  return typeof item.namespace === 'string' ? qualifiedName(item.namespace, name) : name;
}
