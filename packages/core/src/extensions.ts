import type { ProtocolId } from './protocol.js';
import { reportLoss, type CodecContext } from './warnings.js';

/**
 * Wire fields a codec does not model, kept per protocol so that a same-protocol round trip is
 * lossless (`encode(decode(x))` gives `x` back). A codec writes only under its own protocol id
 * and reads its own entry back when encoding; other codecs ignore it (and report it where it
 * mattered).
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
export function getExtensions(target: WithExtensions | undefined, protocol: ProtocolId): Record<string, unknown> | undefined {
  return target?.extensions?.[protocol];
}

/**
 * Stores `fields` under `protocol` on `target` (merging with what is there). Does nothing when
 * `fields` is empty, so decoders can call it unconditionally without leaving empty bags around.
 */
export function setExtensions(target: WithExtensions, protocol: ProtocolId, fields: Record<string, unknown> | undefined): void {
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
export function collectUnknown(wire: Record<string, unknown>, known: ReadonlySet<string>): Record<string, unknown> | undefined {
  let rest: Record<string, unknown> | undefined;
  for (const key in wire) {
    if (known.has(key)) continue;
    (rest ??= {})[key] = wire[key];
  }
  return rest;
}

/**
 * Reports, as `dropped-field` losses, the wire fields a `source` codec kept in its extension bag
 * (fields it has no canonical meaning for) when the value goes to another protocol, where no
 * codec writes them. Plain keys are wire fields; a `$`-key holding an object keeps the unmapped
 * members of the wire object it is named after (`$reasoning.context` -> `reasoning.context`);
 * other `$`-keys are bookkeeping.
 */
export function reportForeignExtensions(
  target: WithExtensions | undefined,
  source: ProtocolId,
  destination: ProtocolId,
  context: CodecContext | undefined,
): void {
  const bag = getExtensions(target, source);
  if (!bag || source === destination) return;
  const drop = (path: string) =>
    reportLoss(context, { code: 'dropped-field', path, message: `${source} field ${path} has no ${destination} equivalent`, protocol: source });
  for (const key in bag) {
    const value = bag[key];
    if (key.charCodeAt(0) !== 36) drop(key);
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const member in value) if (member.charCodeAt(0) !== 36) drop(`${key.slice(1)}.${member}`);
    }
  }
}
