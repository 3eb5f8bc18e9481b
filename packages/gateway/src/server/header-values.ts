/** Any character node:http refuses in a header value, or that is not printable ASCII (tab allowed). */
const UNSAFE = /[^\t\x20-\x7e]/;
const UNSAFE_ALL = /[^\t\x20-\x7e]/gu;

/**
 * Header values as they may be written: a value holding CR, LF, NUL or anything beyond printable
 * ASCII (a warning path built from a client's `"日本語"` key, say) has those characters
 * percent-encoded as UTF-8 instead of making `writeHead` throw. The common case (every value
 * clean) costs one regex test per value and returns the same object.
 */
export function safeHeaderValues<T extends Record<string, string | string[]>>(headers: T): T {
  let out: Record<string, string | string[]> | undefined;
  for (const name in headers) {
    const value = headers[name] as string | string[] | undefined;
    if (value === undefined) continue;
    const clean = typeof value === 'string' ? cleanValue(value) : cleanValues(value);
    if (clean === value) continue;
    out ??= { ...headers };
    out[name] = clean;
  }
  return (out ?? headers) as T;
}

function cleanValue(value: string): string {
  return UNSAFE.test(value) ? value.replace(UNSAFE_ALL, percentEncoded) : value;
}

function cleanValues(values: string[]): string[] {
  return values.some((value) => UNSAFE.test(value)) ? values.map(cleanValue) : values;
}

/** `é` -> `%C3%A9`; a lone surrogate becomes U+FFFD's bytes. */
function percentEncoded(char: string): string {
  let out = '';
  for (const byte of Buffer.from(char, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}
