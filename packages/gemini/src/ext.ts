import { getExtensions, setExtensions, type WithExtensions } from '@llm/core';

/** This codec's protocol id. */
export const PROTOCOL = 'gemini' as const;

/**
 * This codec's extension bag on `target`. Keys starting with `$` are bookkeeping for exact
 * same-protocol round trips (never written to the wire as such):
 * - `$syntheticId`: the call id was made up by the decoder (Gemini sent none).
 * - `$unsigned`: a Gemini function call that carried no thought signature.
 * - `$tool`: index of the wire Tool object a tool came from (several kinds may share one).
 * - `$schema`: the original `parameters` / `responseSchema` in Gemini's OpenAPI dialect.
 * - `$jsonSchema`: the schema came as `parametersJsonSchema` / `responseJsonSchema`.
 * - `$joined`: a user message that shared one wire content with the tool results before it.
 * - `$tools[i].functionDeclarations[j]` (request bag): that declaration's fields with no canonical
 *   meaning (`responseJsonSchema`, `behavior`, ...), named by their path so that a request going
 *   to another protocol reports each; the tool's own bag writes them back to Gemini.
 */
export function ownBag(target: WithExtensions | undefined): Record<string, unknown> | undefined {
  return getExtensions(target, PROTOCOL);
}

/** Adds `fields` to this codec's bag on `target` (nothing when empty). */
export function keep<T extends WithExtensions>(target: T, fields: Record<string, unknown> | undefined): T {
  setExtensions(target, PROTOCOL, fields);
  return target;
}

/** Copies the wire fields (not `$` bookkeeping) of `bag` onto `out`. */
export function writeWireFields(out: Record<string, unknown>, bag: Record<string, unknown> | undefined): void {
  if (bag) for (const key in bag) if (key.charCodeAt(0) !== 36) out[key] = bag[key];
}
