import { getExtensions, type WithExtensions } from '@llm/core';

/** This codec's protocol id. */
export const PROTOCOL = 'claude' as const;

/**
 * Keys of our extension bag that are bookkeeping, not wire fields: they start with `$` and are
 * never written to the wire.
 * - `$blocks`: the top-level `system` was a block array (even of one plain block).
 * - `$separate`: this message started its own wire message (the encoder would otherwise merge it
 *   with the tool results before it).
 * - `$noContent`: a `tool_result` without `content`.
 * - `$block`: a json part inside a tool result that is a wire block kept whole.
 */
export function ownBag(target: WithExtensions | undefined): Record<string, unknown> | undefined {
  return getExtensions(target, PROTOCOL);
}

/** Copies the wire fields (not `$` bookkeeping) of `bag` onto `out`. */
export function writeBack(out: Record<string, unknown>, bag: Record<string, unknown> | undefined): void {
  if (!bag) return;
  for (const key in bag) if (key.charCodeAt(0) !== 36) out[key] = bag[key];
}

/**
 * The fields of `wire` the codec does not model: unknown keys, and known keys whose value is
 * `null` (the canonical model has no null, so the wire's explicit nulls travel here).
 */
export function restOf(wire: Record<string, unknown>, known: ReadonlySet<string>): Record<string, unknown> | undefined {
  let rest: Record<string, unknown> | undefined;
  for (const key in wire) {
    const value = wire[key];
    if (known.has(key) && value !== null) continue;
    (rest ??= {})[key] = value;
  }
  return rest;
}

/** Sets `target.extensions.claude` to `bag` when there is one. */
export function keep<T extends WithExtensions>(target: T, bag: Record<string, unknown> | undefined): T {
  if (bag) target.extensions = { [PROTOCOL]: bag };
  return target;
}
