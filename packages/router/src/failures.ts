import { LlmError, describeError } from '@llm/core';

/**
 * Failures as a client sees them and as the log sees them: internal detail (an
 * exception's message, an upstream's address, why its answer did not decode) never reaches a
 * client, who gets a generic message with the request id; the detail goes to
 * `RequestRecord.errorDetail`. Errors an upstream itself answered keep its message: they are
 * re-encoded elsewhere (`Bridge.error`), never through here. (Answers that do not decode are
 * core's `upstreamDecodeFailure`: 502, the detail in `cause`.)
 */

/** What the client is told of `error`, and the detail kept for the log (when there is any). */
export function clientFacingError(error: unknown, requestId: string): { error: LlmError; detail?: string } {
  if (!LlmError.isInstance(error)) {
    return { error: new LlmError({ kind: 'server', message: `internal error (request id ${requestId})`, cause: error }), detail: describeError(error) };
  }
  // An error wrapping a cause was made by this process over an internal failure: its own message
  // is generic, the cause holds the detail. Failures on this side (5xx) name the request id.
  if (error.cause === undefined) return { error };
  const detail = describeError(error);
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
