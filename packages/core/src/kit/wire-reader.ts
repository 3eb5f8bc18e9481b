import { LlmError } from '../errors.js';
import type { ProtocolId } from '../protocol.js';
import { describe, joinPath, parseJsonAt, type PathKey } from '../validate.js';
import { isJsonText } from './json-text.js';
import type { PathLike } from './part-path.js';

/**
 * Readers of untrusted wire input for one protocol, every one with the same argument order:
 * `(holder, key, parent)` reads `holder[key]`, found at the JSON path `parent` (`''` at the
 * body's root). Each checks one value and throws `LlmError` kind `invalid_request` naming the
 * path and the protocol, so a decoder never lets a `TypeError` escape and never repeats its
 * protocol id.
 *
 * Paths are joined only on the error branch: decoders run on every request, and the happy path
 * must not build strings. `parent` may be a {@link PathLike} joined only then (a decoder's ChildPath).
 */
export interface WireReader {
  readonly protocol: ProtocolId;
  /** The request or answer body itself: an object, or a 400 at `$`. */
  body(value: unknown): Record<string, unknown>;
  /** Required object `holder[key]`. */
  object(holder: WireHolder, key: PathKey, parent: PathLike): Record<string, unknown>;
  /** Optional object: `undefined` when absent or `null`. */
  optionalObject(holder: WireHolder, key: PathKey, parent: PathLike): Record<string, unknown> | undefined;
  /** Required array `holder[key]`. */
  array(holder: WireHolder, key: PathKey, parent: PathLike): unknown[];
  /** Optional array: `undefined` when absent or `null`. */
  optionalArray(holder: WireHolder, key: PathKey, parent: PathLike): unknown[] | undefined;
  /** Required string `holder[key]`. */
  string(holder: WireHolder, key: PathKey, parent: PathLike): string;
  /** Optional string: `undefined` when absent or `null`. */
  optionalString(holder: WireHolder, key: PathKey, parent: PathLike): string | undefined;
  /** Optional finite number. */
  optionalNumber(holder: WireHolder, key: PathKey, parent: PathLike): number | undefined;
  /** Optional non-negative integer. */
  optionalInteger(holder: WireHolder, key: PathKey, parent: PathLike): number | undefined;
  /** Optional boolean. */
  optionalBoolean(holder: WireHolder, key: PathKey, parent: PathLike): boolean | undefined;
  /** Required string `holder[key]` that is one of `allowed`. */
  oneOf<const T extends string>(holder: WireHolder, key: PathKey, parent: PathLike, allowed: readonly T[]): T;
  /** Throws the standard "expected X, got Y" error for `holder[key]`. */
  invalid(holder: WireHolder, key: PathKey, parent: PathLike, expected: string): never;
  /** JSON text `holder[key]` parsed, or a 400 saying it is not JSON. */
  json(holder: WireHolder, key: PathKey, parent: PathLike): unknown;
  /** Checks that `holder[key]` is JSON text without keeping its value; throws as {@link WireReader.json}. */
  jsonText(holder: WireHolder, key: PathKey, parent: PathLike): void;
}

/** An object or array a value is read from. */
export type WireHolder = Record<string, unknown> | readonly unknown[];

/** The {@link WireReader} of `protocol`: make one per codec, at module level. */
export function wireReader(protocol: ProtocolId): WireReader {
  function fail(holder: WireHolder, key: PathKey, parent: PathLike, expected: string): never {
    const value = (holder as Record<PathKey, unknown>)[key];
    throw LlmError.invalidRequest(joinPath(String(parent), key), `expected ${expected}, got ${describe(value)}`, protocol);
  }
  const at = (holder: WireHolder, key: PathKey): unknown => (holder as Record<PathKey, unknown>)[key];
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

  function json(holder: WireHolder, key: PathKey, parent: PathLike): unknown {
    const text = at(holder, key);
    if (typeof text !== 'string') return fail(holder, key, parent, 'JSON text');
    try {
      return JSON.parse(text);
    } catch {
      // Parsed again for the error, so that the path is joined only on this branch.
      return parseJsonAt(text, joinPath(String(parent), key), protocol);
    }
  }

  return {
    protocol,
    body(value) {
      if (isObject(value)) return value;
      throw LlmError.invalidRequest('$', `expected an object, got ${describe(value)}`, protocol);
    },
    object(holder, key, parent) {
      const value = at(holder, key);
      return isObject(value) ? value : fail(holder, key, parent, 'an object');
    },
    optionalObject(holder, key, parent) {
      const value = at(holder, key);
      if (value === undefined || value === null) return undefined;
      return isObject(value) ? value : fail(holder, key, parent, 'an object');
    },
    array(holder, key, parent) {
      const value = at(holder, key);
      return Array.isArray(value) ? value : fail(holder, key, parent, 'an array');
    },
    optionalArray(holder, key, parent) {
      const value = at(holder, key);
      if (value === undefined || value === null) return undefined;
      return Array.isArray(value) ? value : fail(holder, key, parent, 'an array');
    },
    string(holder, key, parent) {
      const value = at(holder, key);
      return typeof value === 'string' ? value : fail(holder, key, parent, 'a string');
    },
    optionalString(holder, key, parent) {
      const value = at(holder, key);
      if (value === undefined || value === null) return undefined;
      return typeof value === 'string' ? value : fail(holder, key, parent, 'a string');
    },
    optionalNumber(holder, key, parent) {
      const value = at(holder, key);
      if (value === undefined || value === null) return undefined;
      return typeof value === 'number' && Number.isFinite(value) ? value : fail(holder, key, parent, 'a number');
    },
    optionalInteger(holder, key, parent) {
      const value = at(holder, key);
      if (value === undefined || value === null) return undefined;
      return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fail(holder, key, parent, 'a non-negative integer');
    },
    optionalBoolean(holder, key, parent) {
      const value = at(holder, key);
      if (value === undefined || value === null) return undefined;
      return typeof value === 'boolean' ? value : fail(holder, key, parent, 'a boolean');
    },
    oneOf(holder, key, parent, allowed) {
      const value = at(holder, key);
      if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as (typeof allowed)[number];
      return fail(holder, key, parent, allowed.map((item) => `"${item}"`).join(' or '));
    },
    invalid: fail,
    json,
    jsonText(holder, key, parent) {
      const text = at(holder, key);
      // The error, with JSON.parse's own message, comes from a second read on the failure path.
      if (typeof text !== 'string' || !isJsonText(text)) json(holder, key, parent);
    },
  };
}
