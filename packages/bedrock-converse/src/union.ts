/**
 * Converse content, tools, tool choices and stream deltas are unions written as an object with
 * exactly one member set (`{text: "…"}`, `{toolUse: {…}}`).
 */

/** The one key of a union-shaped wire object, or `undefined` when it has none or several. */
export function memberOf(block: Record<string, unknown>): string | undefined {
  let member: string | undefined;
  for (const key in block) {
    if (member !== undefined) return undefined;
    member = key;
  }
  return member;
}

/** True when `value` is an object whose keys are all in `known`. */
export function hasOnly(value: unknown, known: readonly string[]): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) if (!known.includes(key)) return false;
  return true;
}
