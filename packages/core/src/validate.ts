import { LlmError } from './errors.js';
import type { ProtocolId } from './protocol.js';

/**
 * Readers for untrusted wire input. Each checks one value and throws `LlmError` kind
 * `invalid_request` naming its JSON path, so a decoder never lets a `TypeError` escape.
 *
 * Paths are built only when something is wrong: callers pass the parent path and the key, and
 * the string is joined inside the error branch (decoders run on every request, so the happy path
 * must not concatenate strings).
 */

/** A JSON path segment: an object key or an array index. */
export type PathKey = string | number;

/** `parent` + `key` as a JSON path: `a.b`, `a[0]`, or `key` alone at the root. */
export function joinPath(parent: string, key?: PathKey): string {
  if (key === undefined) return parent || '$';
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (!isPlainName(key)) return `${parent}[${JSON.stringify(key)}]`;
  return parent ? `${parent}.${key}` : key;
}

/**
 * The path of part `index` of the message at `messagePath` (`messages[2].content[1]`): encoders
 * join it only where they report a loss at the part, most parts reporting none.
 */
export function contentPartPath(messagePath: string, index: number): string {
  return joinPath(joinPath(messagePath, 'content'), index);
}

/**
 * `^[A-Za-z_$][A-Za-z0-9_$]*$`, by character codes: codecs join a path for every part they read,
 * and a loop over a short key costs a fraction of a regular expression test.
 */
function isPlainName(key: string): boolean {
  if (key.length === 0) return false;
  for (let at = 0; at < key.length; at++) {
    const code = key.charCodeAt(at);
    const letter = (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
    if (!letter && (at === 0 || code < 48 || code > 57)) return false;
  }
  return true;
}

/** A short description of a value for error messages: `a string`, `null`, `an array`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return value.length > 40 ? `a string` : `"${value}"`;
    case 'number':
      return String(value);
    case 'boolean':
      return String(value);
    case 'undefined':
      return 'nothing';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

/** Throws the standard "expected X, got Y" error for `parent.key`. */
export function invalid(parent: string, key: PathKey | undefined, expected: string, got: unknown, protocol?: ProtocolId): never {
  throw LlmError.invalidRequest(joinPath(parent, key), `expected ${expected}, got ${describe(got)}`, protocol);
}

/** `value` as an object, or throws. */
export function readObject(value: unknown, parent: string, key?: PathKey, protocol?: ProtocolId): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  return invalid(parent, key, 'an object', value, protocol);
}

/** `value` as an array, or throws. */
export function readArray(value: unknown, parent: string, key?: PathKey, protocol?: ProtocolId): unknown[] {
  if (Array.isArray(value)) return value;
  return invalid(parent, key, 'an array', value, protocol);
}

/** Required string property `object[key]`. */
export function readString(object: Record<string, unknown>, key: string, parent: string, protocol?: ProtocolId): string {
  const value = object[key];
  if (typeof value === 'string') return value;
  return invalid(parent, key, 'a string', value, protocol);
}

/** Optional string property: `undefined` when absent (or `null`), else must be a string. */
export function readOptionalString(object: Record<string, unknown>, key: string, parent: string, protocol?: ProtocolId): string | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  return invalid(parent, key, 'a string', value, protocol);
}

/** Optional finite number property. */
export function readOptionalNumber(object: Record<string, unknown>, key: string, parent: string, protocol?: ProtocolId): number | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return invalid(parent, key, 'a number', value, protocol);
}

/** Optional non-negative integer property. */
export function readOptionalInteger(object: Record<string, unknown>, key: string, parent: string, protocol?: ProtocolId): number | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  return invalid(parent, key, 'a non-negative integer', value, protocol);
}

/** Optional boolean property. */
export function readOptionalBoolean(object: Record<string, unknown>, key: string, parent: string, protocol?: ProtocolId): boolean | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  return invalid(parent, key, 'a boolean', value, protocol);
}

/** Required property `object[key]` whose value is one of `allowed`. */
export function readEnum<const T extends string>(
  object: Record<string, unknown>,
  key: string,
  allowed: readonly T[],
  parent: string,
  protocol?: ProtocolId,
): T {
  const value = object[key];
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  return invalid(parent, key, allowed.map((item) => `"${item}"`).join(' or '), value, protocol);
}

/** Parses JSON text found at `path`, or throws `invalid_request` saying it is not JSON. */
export function parseJsonAt(text: string, path: string, protocol?: ProtocolId): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new LlmError({
      kind: 'invalid_request',
      message: `${path}: expected JSON text, got ${describe(text)} (${(error as Error).message})`,
      path,
      protocol,
      cause: error,
    });
  }
}
