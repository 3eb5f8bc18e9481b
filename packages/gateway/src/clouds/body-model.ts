/**
 * The `model` of an upstream request body, read and swapped without parsing the whole body when
 * it can be: the codecs write `model` as the body's first field, so a body that starts
 * `{"model":"<name>"` is handled on those bytes alone (a request of megabytes of history costs a
 * copy, not a parse and a re-serialization). Any other body (a pass-through of a client's own
 * bytes, an escaped name) takes the exact slow path: JSON.parse.
 */

import { withoutTopLevelMember } from './top-level-member.js';

const PREFIX = '{"model":"';
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const CLOSE = 0x7d;

/** A request body as the router sends it, as bytes. */
export function bodyBytes(body: string | Uint8Array | undefined): Uint8Array {
  if (body === undefined) return new Uint8Array();
  return typeof body === 'string' ? encoder.encode(body) : body;
}

/** Where the leading `"model":"..."` ends: the model and the index of the byte after its closing quote. */
function leadingModel(bytes: Uint8Array): { model: string; end: number } | undefined {
  if (bytes.length < PREFIX.length + 2) return undefined;
  for (let i = 0; i < PREFIX.length; i++) if (bytes[i] !== PREFIX.charCodeAt(i)) return undefined;
  for (let i = PREFIX.length; i < bytes.length && i < PREFIX.length + 512; i++) {
    const byte = bytes[i];
    if (byte === BACKSLASH) return undefined;
    if (byte === QUOTE) {
      const next = bytes[i + 1];
      return next === COMMA || next === CLOSE ? { model: decoder.decode(bytes.subarray(PREFIX.length, i)), end: i + 1 } : undefined;
    }
  }
  return undefined;
}

function parsedObject(bytes: Uint8Array): Record<string, unknown> {
  const value: unknown = JSON.parse(decoder.decode(bytes));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('the request body is not a JSON object');
  return value as Record<string, unknown>;
}

function modelOf(object: Record<string, unknown>): string {
  if (typeof object.model !== 'string' || object.model === '') throw new Error('the request body names no model');
  return object.model;
}

/** The body's `model`. Throws when it has none (the router always sends one). */
export function readModel(bytes: Uint8Array): string {
  return leadingModel(bytes)?.model ?? modelOf(parsedObject(bytes));
}

/**
 * The body's `model`, and the body with `model` removed and `fields` written first in its place
 * (Vertex and Bedrock take the model in the URL and an `anthropic_version` in the body).
 */
export function swapModel(bytes: Uint8Array, fields: Readonly<Record<string, unknown>>): { model: string; body: Uint8Array<ArrayBuffer> } {
  const leading = leadingModel(bytes);
  if (leading && Object.keys(fields).length > 0) {
    // `{"a":1,"b":2}` less its `}`, then the original bytes from the `,` or `}` after the model.
    const start = encoder.encode(JSON.stringify(fields).slice(0, -1));
    const body = new Uint8Array(start.length + bytes.length - leading.end);
    body.set(start);
    body.set(bytes.subarray(leading.end), start.length);
    return { model: leading.model, body };
  }
  const object = parsedObject(bytes);
  const model = modelOf(object);
  delete object.model;
  return { model, body: encoder.encode(JSON.stringify({ ...fields, ...object })) };
}

/** The body less its top-level `key` (one pass over the bytes; parsed only when that cannot tell). */
export function dropMember(bytes: Uint8Array<ArrayBuffer>, key: string): Uint8Array<ArrayBuffer> {
  const fast = withoutTopLevelMember(bytes, key);
  if (fast) return fast as Uint8Array<ArrayBuffer>;
  const object = parsedObject(bytes);
  delete object[key];
  return encoder.encode(JSON.stringify(object));
}
