import { getExtensions, type WithExtensions } from '@llm/core';

/** This codec's protocol id. */
export const PROTOCOL = 'openai-responses' as const;

/**
 * Keys of our extension bag that are bookkeeping, not wire fields: they start with `$` and are
 * never written to the wire.
 * - `$item`: on a part, the fields of the message item it opened (`id`, `status`, `phase`, `type`).
 * - `$string`: the message item's content was a bare string.
 * - `$input`: a system message that was an `input` item, not `instructions`.
 * - `$summary` / `$content`: a reasoning item's summary / content arrays when the canonical text
 *   cannot say them exactly.
 */
export function ownBag(target: WithExtensions | undefined): Record<string, unknown> | undefined {
  return getExtensions(target, PROTOCOL);
}

/** Copies the wire fields (not `$` bookkeeping) of `bag` onto `out`. */
export function writeBack(out: Record<string, unknown>, bag: Record<string, unknown> | undefined): void {
  if (!bag) return;
  for (const key in bag) if (key.charCodeAt(0) !== 36) out[key] = bag[key];
}
