/**
 * Function names for MCP tools offered to an upstream: `mcp__<server>__<tool>`, cut to a form
 * every protocol accepts (OpenAI, Claude and Converse take `[A-Za-z0-9_-]{1,64}`; Gemini also
 * wants a letter or `_` first), and made unique against the request's own tool names and each
 * other with a `_2`, `_3`... suffix. The same server and tool lists give the same names on every
 * turn, so calls in the history map back.
 */

/** Longest function name every protocol accepts. */
export const MAX_FUNCTION_NAME_LENGTH = 64;

const INVALID = /[^A-Za-z0-9_-]/g;

/** The name before de-duplication: only accepted characters, starting with a letter, at most 64. */
export function baseFunctionName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`.replace(INVALID, '_').slice(0, MAX_FUNCTION_NAME_LENGTH);
}

/** Hands out collision-free names; `taken` holds the names already in use (the client's tools). */
export class FunctionNames {
  private readonly taken: Set<string>;
  /** The suffix number each base name's search goes on from: a server listing one name many times costs no rescan. */
  private readonly nextSuffix = new Map<string, number>();

  constructor(taken: Iterable<string>) {
    this.taken = new Set(taken);
  }

  /** A fresh name for `tool` of `server`. */
  claim(server: string, tool: string): string {
    const base = baseFunctionName(server, tool);
    let name = base;
    let n = this.nextSuffix.get(base) ?? 2;
    for (; this.taken.has(name); n++) {
      const suffix = `_${n}`;
      name = base.slice(0, MAX_FUNCTION_NAME_LENGTH - suffix.length) + suffix;
    }
    this.nextSuffix.set(base, n);
    this.taken.add(name);
    return name;
  }
}
