import { randomUUID } from 'node:crypto';
import type { HeaderReader } from '@llm/core';

/** Longest client-chosen `x-request-id` the gateway keeps. */
export const MAX_CLIENT_REQUEST_ID_LENGTH = 128;

/** A client id the gateway keeps: 1 to 128 characters of letters, digits and `.` `_` `:` `-`. */
const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id a call is served, logged and answered under: the client's `x-request-id` when it is at
 * most {@link MAX_CLIENT_REQUEST_ID_LENGTH} characters of `[A-Za-z0-9._:-]`, so that it is safe
 * in log lines, headers and error messages as it is; otherwise (or without one) a fresh UUID.
 * A refused value is not logged anywhere.
 */
export function requestIdOf(headers: HeaderReader): string {
  const chosen = headers.get('x-request-id');
  return chosen !== null && ACCEPTED.test(chosen) ? chosen : randomUUID();
}
