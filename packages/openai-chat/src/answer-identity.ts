/**
 * The `id` and `created` every Chat answer carries. An upstream without them (Claude has no
 * timestamp, a Gemini answer may have no id, a compatible server may send `""`) still gets what
 * the API always sends: a `chatcmpl-` id and the current Unix time, never `""` and `0`. A time an
 * upstream did send is kept as sent, `0` included (a Chat answer round-trips unchanged).
 */

/** A fresh `chatcmpl-` id (random, not cryptographic: it names an answer, it guards nothing). */
export function newCompletionId(): string {
  return `chatcmpl-${Math.random().toString(36).slice(2, 14).padEnd(12, '0')}`;
}

/** `id` when the upstream gave one, else a fresh `chatcmpl-` id. */
export function completionId(id: string | undefined): string {
  return id ? id : newCompletionId();
}

/** `created` (Unix seconds) when the upstream gave one, else now. */
export function completionCreated(created: number | undefined): number {
  return created ?? Math.floor(Date.now() / 1000);
}
