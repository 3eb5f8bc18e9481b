import type { WithExtensions } from '@llm/core';
import { getExtensions } from '@llm/core';

/** This codec's protocol id. */
export const PROTOCOL = 'openai-chat' as const;

/**
 * Markers this codec keeps in its own extension bag to remember wire shape choices (a string vs
 * an array `content`, `max_tokens` vs `max_completion_tokens`). They start with `$` and are
 * never written to the wire.
 */
export const MARK = '$';

/**
 * Like core `collectUnknown`, but also keeps known fields whose value is `null` (the canonical
 * model has no null, so a round trip would otherwise drop them). `nullDefaults` names the keys
 * whose `null` the encoder writes anyway (a response message's `content: null`).
 */
export function collectRest(
  wire: Record<string, unknown>,
  known: ReadonlySet<string>,
  nullDefaults?: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  let rest: Record<string, unknown> | undefined;
  for (const key in wire) {
    const value = wire[key];
    if (known.has(key) && (value !== null || nullDefaults?.has(key))) continue;
    (rest ??= {})[key] = value;
  }
  return rest;
}

/** Writes the codec's extension fields (markers excluded) onto `out`. */
export function writeRest(out: Record<string, unknown>, source: WithExtensions | undefined): Record<string, unknown> | undefined {
  const bag = getExtensions(source, PROTOCOL);
  if (!bag) return undefined;
  for (const key in bag) if (key.charCodeAt(0) !== 36) out[key] = bag[key];
  return bag;
}

/** Adds a marker to a target's bag. */
export function mark(target: WithExtensions, key: string, value: unknown): void {
  const extensions = (target.extensions ??= {});
  (extensions[PROTOCOL] ??= {})[MARK + key] = value;
}

/** Reads a marker. */
export function marker(target: WithExtensions | undefined, key: string): unknown {
  return target?.extensions?.[PROTOCOL]?.[MARK + key];
}

const DATA_URL = /^data:([^;,]+)?((?:;[^;,]*)*);base64,/;

/** Splits a `data:<type>;base64,<data>` URL, or `undefined` when it is not one. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  if (!url.startsWith('data:')) return undefined;
  const match = DATA_URL.exec(url);
  if (!match || match[2]) return undefined;
  return { mediaType: match[1] ?? '', data: url.slice(match[0].length) };
}

/** A `data:` URL. */
export function dataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}
