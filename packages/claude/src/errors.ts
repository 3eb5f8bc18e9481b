import { LlmError, errorKindForStatus, retryAfterFromHeaders, upstreamErrorMessage, type LlmErrorKind } from '@llm/core';
import { PROTOCOL } from './protocol.js';
import type { ClaudeErrorBody } from './wire-types.js';

/** Wire `error.type` -> canonical kind. */
const KIND_BY_TYPE: Readonly<Record<string, LlmErrorKind>> = {
  invalid_request_error: 'invalid_request',
  authentication_error: 'authentication',
  billing_error: 'quota',
  permission_error: 'permission',
  not_found_error: 'not_found',
  conflict_error: 'conflict',
  request_too_large: 'request_too_large',
  rate_limit_error: 'rate_limit',
  api_error: 'server',
  timeout_error: 'timeout',
  overloaded_error: 'overloaded',
};

/** Canonical kind -> wire `error.type` and the status Claude uses for it. */
const WIRE_BY_KIND: Readonly<Record<LlmErrorKind, { type: string; status: number }>> = {
  invalid_request: { type: 'invalid_request_error', status: 400 },
  authentication: { type: 'authentication_error', status: 401 },
  permission: { type: 'permission_error', status: 403 },
  not_found: { type: 'not_found_error', status: 404 },
  conflict: { type: 'conflict_error', status: 409 },
  request_too_large: { type: 'request_too_large', status: 413 },
  rate_limit: { type: 'rate_limit_error', status: 429 },
  quota: { type: 'billing_error', status: 402 },
  overloaded: { type: 'overloaded_error', status: 529 },
  server: { type: 'api_error', status: 500 },
  timeout: { type: 'timeout_error', status: 504 },
  cancelled: { type: 'invalid_request_error', status: 499 },
  context_length: { type: 'invalid_request_error', status: 400 },
  content_filter: { type: 'invalid_request_error', status: 400 },
  unsupported: { type: 'invalid_request_error', status: 400 },
  upstream: { type: 'api_error', status: 502 },
};

const CONTEXT_LENGTH = /prompt is too long|context window|too many tokens/i;

/**
 * An upstream error (status, `{type:"error", error:{type,message}}` body or raw text) -> `LlmError`.
 * Only that shape's message reaches clients; any other body is `upstream answered HTTP <status>`,
 * its text kept in `cause` for the log (core's `upstreamErrorMessage`).
 * `error.type` picks the kind (the status alone cannot tell 529 overload from others); a 400
 * "prompt is too long" is a context-length error; `request-id` and `retry-after` are kept.
 * @see https://docs.anthropic.com/en/api/errors
 */
export function decodeError(status: number, body: unknown, headers?: { get(name: string): string | null }): LlmError {
  const error = errorObject(body);
  const type = typeof error?.type === 'string' ? error.type : undefined;
  const { message, cause } = upstreamErrorMessage(status, body, typeof error?.message === 'string' ? error.message : undefined);
  let kind: LlmErrorKind = (type && KIND_BY_TYPE[type]) || errorKindForStatus(status);
  if (kind === 'invalid_request' && CONTEXT_LENGTH.test(message)) kind = 'context_length';
  const details = error?.details as Record<string, unknown> | undefined;
  const code = typeof details?.error_code === 'string' ? details.error_code : type;
  // A spend cap is a 429 that waiting will not fix.
  if (code === 'enforced_spend_limit_reached' || code === 'contract_spend_limit_reached') kind = 'quota';
  const retryAfterMs = headers ? retryAfterFromHeaders(headers) : undefined;
  const bodyId = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).request_id : undefined;
  const requestId = headers?.get('request-id') ?? (typeof bodyId === 'string' ? bodyId : undefined);
  return new LlmError({
    kind,
    message,
    status,
    protocol: PROTOCOL,
    raw: body,
    cause,
    ...(code !== undefined ? { code } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(requestId ? { requestId } : {}),
  });
}

function errorObject(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const inner = (body as Record<string, unknown>).error;
  return typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : undefined;
}

/**
 * `LlmError` -> status, `{type:"error", error:{type,message}, request_id}` body and headers
 * (`retry-after` in seconds, `request-id`). Claude's own errors keep their status; others get
 * the status Claude uses for their kind (an overload is 529).
 */
export function encodeError(error: LlmError): { status: number; body: ClaudeErrorBody; headers?: Record<string, string> } {
  const wire = WIRE_BY_KIND[error.kind];
  const status = error.protocol === PROTOCOL ? error.status : wire.status;
  const body: ClaudeErrorBody = { type: 'error', error: { type: wire.type, message: error.message } };
  if (error.protocol === PROTOCOL && isOwnBody(error.raw)) {
    const raw = error.raw.error;
    body.error = { ...raw, type: raw.type, message: raw.message };
  }
  if (error.requestId) body.request_id = error.requestId;
  const headers: Record<string, string> = {};
  if (error.retryAfterMs !== undefined) headers['retry-after'] = String(Math.ceil(error.retryAfterMs / 1000));
  if (error.requestId) headers['request-id'] = error.requestId;
  return Object.keys(headers).length > 0 ? { status, body, headers } : { status, body };
}

function isOwnBody(raw: unknown): raw is { error: { type: string; message: string } } {
  if (typeof raw !== 'object' || raw === null) return false;
  const inner = (raw as Record<string, unknown>).error as Record<string, unknown> | undefined;
  return typeof inner === 'object' && inner !== null && typeof inner.type === 'string' && typeof inner.message === 'string';
}
