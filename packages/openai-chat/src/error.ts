import { LlmError, errorKindForStatus, isJsonObject, retryAfterFromHeaders, upstreamErrorMessage } from '@llm/core';
import type { LlmErrorKind } from '@llm/core';
import { PROTOCOL } from './protocol.js';
import type { OpenAIChatError } from './wire-types.js';

const P = PROTOCOL;

function kindFor(status: number, code: string | undefined, type: string | undefined): LlmErrorKind {
  if (code === 'context_length_exceeded') return 'context_length';
  if (code === 'insufficient_quota' || type === 'insufficient_quota') return 'quota';
  if (code === 'content_filter' || code === 'content_policy_violation') return 'content_filter';
  if (code === 'server_is_overloaded' || code === 'slow_down') return 'overloaded';
  if (status === 422) return 'invalid_request';
  return errorKindForStatus(status);
}

/**
 * An upstream error (status, parsed body or raw text, headers) -> `LlmError`. Only the
 * `{error:{message}}` shape's message reaches clients; any other body is `upstream answered HTTP
 * <status>`, its text kept in `cause` for the log (core's `upstreamErrorMessage`).
 * @see https://platform.openai.com/docs/guides/error-codes#api-errors
 */
export function decodeError(status: number, body: unknown, headers?: { get(name: string): string | null }): LlmError {
  const inner = isJsonObject(body) && isJsonObject(body.error) ? body.error : undefined;
  const { message, cause } = upstreamErrorMessage(status, body, typeof inner?.message === 'string' ? inner.message : undefined);
  const code = typeof inner?.code === 'string' ? inner.code : typeof inner?.code === 'number' ? String(inner.code) : undefined;
  const type = typeof inner?.type === 'string' ? inner.type : undefined;
  const options: ConstructorParameters<typeof LlmError>[0] = {
    kind: kindFor(status, code, type),
    message,
    status,
    protocol: P,
    raw: body,
    cause,
  };
  if (code !== undefined) options.code = code;
  else if (type !== undefined) options.code = type;
  if (typeof inner?.param === 'string') options.path = inner.param;
  if (headers) {
    const retry = headers.get('retry-after-ms');
    const retryMs = retry !== null && /^\d+(\.\d+)?$/.test(retry.trim()) ? Math.round(Number(retry)) : retryAfterFromHeaders(headers);
    if (retryMs !== undefined) options.retryAfterMs = retryMs;
    const requestId = headers.get('x-request-id');
    if (requestId) options.requestId = requestId;
  }
  return new LlmError(options);
}

const TYPES: Partial<Record<LlmErrorKind, string>> = {
  invalid_request: 'invalid_request_error',
  context_length: 'invalid_request_error',
  unsupported: 'invalid_request_error',
  request_too_large: 'invalid_request_error',
  content_filter: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  rate_limit: 'rate_limit_error',
  quota: 'insufficient_quota',
  overloaded: 'service_unavailable_error',
};

/** `LlmError` -> status, `{error:{message,type,param,code}}` body and retry headers. */
export function encodeError(error: LlmError): { status: number; body: OpenAIChatError; headers?: Record<string, string> } {
  const code = error.code ?? (error.kind === 'context_length' ? 'context_length_exceeded' : error.kind === 'quota' ? 'insufficient_quota' : null);
  const body: OpenAIChatError = {
    error: { message: error.message, type: TYPES[error.kind] ?? 'server_error', param: error.path ?? null, code },
  };
  const result: { status: number; body: OpenAIChatError; headers?: Record<string, string> } = { status: error.status, body };
  if (error.retryAfterMs !== undefined) {
    result.headers = { 'retry-after': String(Math.ceil(error.retryAfterMs / 1000)), 'retry-after-ms': String(error.retryAfterMs) };
  }
  return result;
}
