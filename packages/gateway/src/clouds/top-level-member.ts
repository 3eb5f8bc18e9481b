/**
 * Removes one top-level member with a literal value (`"stream":true`) from a JSON object's bytes,
 * in one pass over them without parsing: strings are skipped (with their escapes), nesting is
 * counted, so the same key inside a message or a tool's input is never touched. Returns the
 * bytes unchanged when the member is absent, and undefined when its value is not a literal
 * (`true`, `false`, `null`, a number) or the bytes are not an object: the caller then parses.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(bytes: Uint8Array, at: number): number {
  while (isSpace(bytes[at])) at++;
  return at;
}

/** A literal value's bytes: letters, digits, sign, point and exponent. */
function isLiteralByte(byte: number | undefined): boolean {
  return (
    byte !== undefined && ((byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte === 0x2d || byte === 0x2b || byte === 0x2e || byte === 0x45)
  );
}

export function withoutTopLevelMember(bytes: Uint8Array, key: string): Uint8Array | undefined {
  const quoted = new TextEncoder().encode(JSON.stringify(key));
  let at = skipSpace(bytes, 0);
  if (bytes[at] !== OPEN_OBJECT) return undefined;
  let depth = 0;
  /** The `{` or `,` before the top-level member being read, while its key is next. */
  let memberStart = -1;
  for (; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === QUOTE) {
      if (depth === 1 && memberStart >= 0 && matches(bytes, at, quoted)) return cut(bytes, memberStart, at + quoted.length);
      memberStart = -1;
      // Skip the string, escapes included.
      for (at++; at < bytes.length && bytes[at] !== QUOTE; at++) if (bytes[at] === BACKSLASH) at++;
      continue;
    }
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
    else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
    if (depth === 1 && (byte === COMMA || (byte === OPEN_OBJECT && at === skipSpace(bytes, 0)))) memberStart = at;
    else if (!isSpace(byte)) memberStart = -1;
    if (depth === 0) return bytes;
  }
  return bytes;
}

function matches(bytes: Uint8Array, at: number, quoted: Uint8Array): boolean {
  for (let i = 0; i < quoted.length; i++) if (bytes[at + i] !== quoted[i]) return false;
  return true;
}

/** The bytes less the member whose key ends just before `afterKey`; undefined if its value is not a literal. */
function cut(bytes: Uint8Array, memberStart: number, afterKey: number): Uint8Array | undefined {
  let at = skipSpace(bytes, afterKey);
  if (bytes[at] !== COLON) return undefined;
  at = skipSpace(bytes, at + 1);
  const valueStart = at;
  while (isLiteralByte(bytes[at])) at++;
  if (at === valueStart) return undefined;
  at = skipSpace(bytes, at);
  const next = bytes[at];
  if (next !== COMMA && next !== CLOSE_OBJECT) return undefined;
  // `,"k":v` goes whole; a first member `{"k":v,` keeps its `{` and drops the comma after it.
  const [from, to] = bytes[memberStart] === COMMA ? [memberStart, at] : [memberStart + 1, next === COMMA ? at + 1 : at];
  const out = new Uint8Array(bytes.length - (to - from));
  out.set(bytes.subarray(0, from));
  out.set(bytes.subarray(to), from);
  return out;
}
