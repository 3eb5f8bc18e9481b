import type { LlmCitation } from './content.js';

/**
 * The UTF-16 range of `text` a citation covers: its own `startIndex` / `endIndex`, or the whole
 * text when it has none (a Claude citation belongs to the text block that carries it). Only the
 * text's length is read: a stream encoder passes `{ length }` instead of keeping the text.
 */
export function citationSpan(citation: LlmCitation, text: { readonly length: number }): { start: number; end: number } {
  return { start: citation.startIndex ?? 0, end: citation.endIndex ?? text.length };
}

/** Whether `text` has a character outside ASCII (where UTF-8 and UTF-16 offsets part ways). */
function hasNonAscii(text: string): boolean {
  for (let at = 0; at < text.length; at++) if (text.charCodeAt(at) > 0x7f) return true;
  return false;
}

/**
 * The UTF-8 byte offset of the UTF-16 `index` in `text` (Gemini segments count bytes). Walks the
 * text only when it is not ASCII, and only up to `index`.
 */
export function utf8Offset(text: string, index: number): number {
  if (!hasNonAscii(text)) return index;
  let bytes = 0;
  for (let at = 0; at < index && at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4; // a surrogate pair is one 4-byte character
      at++;
    } else bytes += 3;
  }
  return bytes;
}

/** The UTF-16 index in `text` of the UTF-8 byte `offset` (the inverse of {@link utf8Offset}). */
export function utf16Index(text: string, offset: number): number {
  if (!hasNonAscii(text)) return Math.min(offset, text.length);
  let bytes = 0;
  let at = 0;
  while (at < text.length && bytes < offset) {
    const code = text.charCodeAt(at);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      at++;
    } else bytes += 3;
    at++;
  }
  return at;
}
