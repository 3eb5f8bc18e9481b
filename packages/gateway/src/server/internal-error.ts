/**
 * What a client is told about a failure inside the gateway: nothing but the request id to quote
 * (the detail, an exception's message or a file path, goes to the log under that id).
 */
export function internalErrorMessage(requestId: string | undefined): string {
  return requestId === undefined ? 'internal error' : `internal error (request id ${requestId})`;
}
