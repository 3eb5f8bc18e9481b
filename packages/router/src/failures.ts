import { LlmError } from '@llm/core';

/**
 * Failures as a client sees them and as the log sees them (issue 17): internal detail (an
 * exception's message, an upstream's address, why its answer did not decode) never reaches a
 * client, who gets a generic message with the request id; the detail goes to
 * `RequestRecord.errorDetail`. Errors an upstream itself answered keep its message: they are
 * re-encoded elsewhere (`Bridge.error`), never through here.
 */

/** An upstream's 2xx answer or stream that could not be decoded: a 502, never the client's fault. */
export function undecodableAnswer(cause: unknown): LlmError {
  // An error about the upstream already (a truncation, a decoded error event) stands as it is;
  // a reader's `invalid_request` would tell the client it sent something wrong.
  if (LlmError.isInstance(cause) && cause.kind !== 'invalid_request') return cause;
  return new LlmError({ kind: 'upstream', message: 'the upstream answer could not be read', cause });
}

/** What the client is told of `error`, and the detail kept for the log (when there is any). */
export function clientFacingError(error: unknown, requestId: string): { error: LlmError; detail?: string } {
  if (!LlmError.isInstance(error)) {
    return { error: new LlmError({ kind: 'server', message: `internal error (request id ${requestId})`, cause: error }), detail: describeFailure(error) };
  }
  // An error wrapping a cause was made by this process over an internal failure: its own message
  // is generic, the cause holds the detail. Failures on this side (5xx) name the request id.
  if (error.cause === undefined) return { error };
  const detail = describeFailure(error);
  if (error.status < 500) return { error, detail };
  const shown = new LlmError({
    kind: error.kind,
    status: error.status,
    message: `${error.message} (request id ${requestId})`,
    path: error.path,
    protocol: error.protocol,
    retryable: error.retryable,
    retryAfterMs: error.retryAfterMs,
    code: error.code,
  });
  return { error: shown, detail };
}

/**
 * The detail of a failure for the log: each message along the cause chain, bounded.
 * TODO(H1): replace with core's `describeError` once it is committed.
 */
export function describeFailure(error: unknown): string {
  const pieces: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined; depth++) {
    pieces.push(current instanceof Error ? `${current.name}: ${current.message}` : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  const text = pieces.join(' <- cause: ');
  return text.length > 1024 ? `${text.slice(0, 1023)}…` : text;
}
