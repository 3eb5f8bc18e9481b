import type { ProtocolId } from './protocol.js';

/**
 * Wire fields a codec does not model, kept per protocol so that a same-protocol round trip is
 * lossless (DESIGN.md, invariant 2). A codec writes only under its own protocol id and reads its
 * own entry back when encoding; other codecs ignore it (and report it where it mattered).
 *
 * @example
 * ```ts
 * { 'openai-chat': { logit_bias: { '50256': -100 } } }
 * ```
 */
export type Extensions = Partial<Record<ProtocolId, Record<string, unknown>>>;

/** Anything that can carry an extension bag. */
export interface WithExtensions {
  /** Unmodelled wire fields, per protocol. See {@link Extensions}. */
  extensions?: Extensions;
}

/** The bag of `protocol` on `target`, or `undefined`. */
export function getExtensions(
  target: WithExtensions | undefined,
  protocol: ProtocolId,
): Record<string, unknown> | undefined {
  return target?.extensions?.[protocol];
}

/**
 * Stores `fields` under `protocol` on `target` (merging with what is there). Does nothing when
 * `fields` is empty, so decoders can call it unconditionally without leaving empty bags around.
 */
export function setExtensions(
  target: WithExtensions,
  protocol: ProtocolId,
  fields: Record<string, unknown> | undefined,
): void {
  if (!fields) return;
  let empty = true;
  for (const _ in fields) {
    empty = false;
    break;
  }
  if (empty) return;
  const bag = (target.extensions ??= {});
  bag[protocol] = bag[protocol] ? { ...bag[protocol], ...fields } : fields;
}

/**
 * Copies the properties of `wire` whose names are not in `known` into a new object, or returns
 * `undefined` when there are none. Decoders use it to keep unknown fields.
 */
export function collectUnknown(
  wire: Record<string, unknown>,
  known: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  let rest: Record<string, unknown> | undefined;
  for (const key in wire) {
    if (known.has(key)) continue;
    (rest ??= {})[key] = wire[key];
  }
  return rest;
}
