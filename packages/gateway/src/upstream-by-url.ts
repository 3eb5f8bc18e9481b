/**
 * Which upstream a request URL is under: the entry with the longest base URL (trailing slashes
 * aside) that starts it and is followed by a path (`/`), a query (`?`) or nothing, so a base
 * `http://h/v1` is not the base of `http://h/v10/x` nor of `http://h/v1/x` when `http://h/v1/x`
 * is a base too. Bases sorted once here; a lookup is a scan of the few upstreams.
 */
export function byBaseUrl<T>(entries: Iterable<{ base: string; value: T }>): (url: string) => T | undefined {
  const bases = [...entries].map(({ base, value }) => ({ base: base.replace(/\/+$/, ''), value })).sort((a, b) => b.base.length - a.base.length);
  return (url) => {
    for (const { base, value } of bases) {
      if (!url.startsWith(base)) continue;
      const next = url.charCodeAt(base.length);
      if (Number.isNaN(next) || next === 0x2f || next === 0x3f) return value;
    }
    return undefined;
  };
}
