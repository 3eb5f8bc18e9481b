import { LlmError } from './errors.js';

/** Longest text {@link describeError} returns, in UTF-16 code units (a log line, not a dump). */
export const MAX_ERROR_DESCRIPTION_LENGTH = 1024;

/** Causes followed at most: a cycle or a deep wrap must not make a log line unbounded. */
const MAX_CAUSE_DEPTH = 8;

/**
 * The full internal detail of a failure, for logs only: each error's name and message, then its
 * `cause` chain (`TypeError: x <- cause: Error: connect ECONNREFUSED 10.0.0.5:9099`), with an
 * `LlmError`'s kind, status and path. Bounded to {@link MAX_ERROR_DESCRIPTION_LENGTH}.
 *
 * Never send this to a client: it is the detail that {@link LlmError.from} keeps out of messages.
 */
export function describeError(error: unknown): string {
  const pieces: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  let length = 0;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH && length < MAX_ERROR_DESCRIPTION_LENGTH; depth++) {
    const piece = describeOne(current);
    pieces.push(piece);
    length += piece.length + 10;
    seen.add(current);
    const cause = typeof current === 'object' && current !== null ? (current as { cause?: unknown }).cause : undefined;
    if (cause === undefined || seen.has(cause)) break;
    current = cause;
  }
  const text = pieces.join(' <- cause: ');
  return text.length > MAX_ERROR_DESCRIPTION_LENGTH ? `${text.slice(0, MAX_ERROR_DESCRIPTION_LENGTH - 1)}…` : text;
}

function describeOne(value: unknown): string {
  try {
    if (LlmError.isInstance(value)) {
      const where = value.path === undefined ? '' : ` at ${value.path}`;
      return `LlmError(${value.kind} ${value.status}${where}): ${value.message}`;
    }
    // Duck-typed: an Error from another realm (a vm, an edge runtime) fails `instanceof Error`.
    if (typeof value === 'object' && value !== null && typeof (value as Error).message === 'string') {
      const { name, message } = value as Error;
      return `${typeof name === 'string' ? name : 'Error'}: ${message}`;
    }
    if (typeof value === 'string') return value;
    return JSON.stringify(value) ?? String(value);
  } catch {
    // A getter or toString that throws, a cycle, a BigInt: name the type at least.
    return `a thrown ${typeof value}`;
  }
}
