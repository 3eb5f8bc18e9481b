import type { HeaderReader } from '@llm/core';

/** A header map with lower-case names, as node:http and undici hand them over. */
export type HeaderMap = Record<string, string | string[] | undefined>;

/**
 * Read access to a header map that already has lower-case names (node's incoming headers,
 * undici's response headers), without copying it into a WHATWG `Headers` per call.
 */
export class HeaderMapReader implements HeaderReader {
  constructor(private readonly headers: HeaderMap) {}

  get(name: string): string | null {
    const value = this.headers[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}
