import { LlmError, errorKindForStatus, retryAfterFromHeaders, upstreamErrorMessage, type LlmErrorKind } from '@llm/core';
import { PROTOCOL } from './protocol.js';
import type { OpenAIResponsesErrorBody } from './wire-types.js';

/** Wire `type` / `code` values with a more precise meaning than the status. */
const KIND_BY_CODE: Readonly<Record<string, LlmErrorKind>> = {
  insufficient_quota: 'quota',
  context_length_exceeded: 'context_length',
  rate_limit_exceeded: 'rate_limit',
  invalid_api_key: 'authentication',
  authentication_error: 'authentication',
  permission_error: 'permission',
  not_found_error: 'not_found',
  model_not_found: 'not_found',
  server_error: 'server',
  content_policy_violation: 'content_filter',
  invalid_prompt: 'content_filter',
};

/** Canonical kind -> wire `type`. */
const TYPE_BY_KIND: Readonly<Record<LlmErrorKind, string>> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  conflict: 'invalid_request_error',
  request_too_large: 'invalid_request_error',
  rate_limit: 'rate_limit_exceeded',
  quota: 'insufficient_quota',
  overloaded: 'server_error',
  server: 'server_error',
  timeout: 'server_error',
  cancelled: 'invalid_request_error',
  context_length: 'invalid_request_error',
  content_filter: 'invalid_request_error',
  unsupported: 'invalid_request_error',
  upstream: 'server_error',
};

/**
 * An upstream error (status, `{error:{message,type,param,code}}` body or raw text) -> `LlmError`.
 * Only that shape's message (or a stream `error` event's) reaches clients; any other body is
 * `upstream answered HTTP <status>`, its text kept in `cause` for the log.
 * The wire `code` (else `type`) picks the kind where it is more precise than the status.
 * @see https://platform.openai.com/docs/guides/error-codes
 */
export function decodeError(status: number, body: unknown, headers?: { get(name: string): string | null }): LlmError {
  const error = errorObject(body);
  const code = stringField(error, 'code');
  const type = stringField(error, 'type');
  const { message, cause } = upstreamErrorMessage(status, body, stringField(error, 'message'));
  const kind = (code && KIND_BY_CODE[code]) || (type && KIND_BY_CODE[type]) || errorKindForStatus(status);
  const retryAfterMs = headers ? retryAfterFromHeaders(headers) : undefined;
  const requestId = headers?.get('x-request-id') ?? undefined;
  return new LlmError({
    kind,
    message,
    status,
    protocol: PROTOCOL,
    code: code ?? type,
    raw: body,
    cause,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(requestId ? { requestId } : {}),
    ...(stringField(error, 'param') ? { path: stringField(error, 'param') } : {}),
  });
}

function errorObject(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const inner = (body as Record<string, unknown>).error;
  if (typeof inner === 'object' && inner !== null) return inner as Record<string, unknown>;
  return body as Record<string, unknown>;
}

function stringField(object: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = object?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** `LlmError` -> status, `{error:{message,type,param,code}}` body and a `retry-after` header. */
export function encodeError(error: LlmError): { status: number; body: OpenAIResponsesErrorBody; headers?: Record<string, string> } {
  const type = TYPE_BY_KIND[error.kind];
  const code =
    error.kind === 'context_length' ? 'context_length_exceeded' : (error.code ?? (error.kind === 'quota' || error.kind === 'rate_limit' ? type : null));
  const result: { status: number; body: OpenAIResponsesErrorBody; headers?: Record<string, string> } = {
    status: error.status,
    body: { error: { message: error.message, type, param: error.path ?? null, code } },
  };
  if (error.retryAfterMs !== undefined) result.headers = { 'retry-after': String(Math.ceil(error.retryAfterMs / 1000)) };
  return result;
}
