import { LlmError } from '@llm/core';

/**
 * The error a client gets when a shared store the request needs is down: a 503 in its own
 * protocol, retryable, naming what could not be read but never the server or its error (those go
 * to the log).
 */
export function storeUnavailable(what: string, path?: string): LlmError {
  return new LlmError({ kind: 'overloaded', message: `${what} is unavailable right now; retry shortly`, ...(path && { path }) });
}

/** The host and port of a database URL, for logs and errors: never its password. */
export function describeServer(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.length > 1 ? parsed.pathname : ''}`;
  } catch {
    return '(unparsable URL)';
  }
}
