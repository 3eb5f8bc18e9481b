/**
 * What `JSON.stringify` escapes in a string, and more: `"`, `\`, control characters and every
 * surrogate (a lone one is written as `\uXXXX`; pairs are rare enough to leave to it too).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON escapes them, and this finds them
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `JSON.stringify(text)`, the same text: a string with nothing to escape (a delta of prose, most
 * of a stream's strings) is quoted as it is, which costs half of what the serializer does; any
 * other is written by `JSON.stringify`. Stream encoders write one per delta.
 */
export function jsonString(text: string): string {
  return typeof text === 'string' && !ESCAPED.test(text) ? `"${text}"` : JSON.stringify(text);
}
