import { LlmError, errorKindForStatus, retryAfterFromHeaders, upstreamErrorMessage, type HeaderReader, type LlmErrorKind } from '@llm/core';
import { PROTOCOL } from './protocol.js';
import type { ConverseError } from './wire-types.js';

/**
 * Each Bedrock runtime error name -> its kind and HTTP status.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html
 */
const BY_NAME: Readonly<Record<string, { kind: LlmErrorKind; status: number }>> = {
  ValidationException: { kind: 'invalid_request', status: 400 },
  AccessDeniedException: { kind: 'permission', status: 403 },
  UnrecognizedClientException: { kind: 'authentication', status: 403 },
  InvalidSignatureException: { kind: 'authentication', status: 403 },
  IncompleteSignature: { kind: 'authentication', status: 403 },
  ExpiredTokenException: { kind: 'authentication', status: 403 },
  MissingAuthenticationTokenException: { kind: 'authentication', status: 403 },
  ResourceNotFoundException: { kind: 'not_found', status: 404 },
  ConflictException: { kind: 'conflict', status: 409 },
  ThrottlingException: { kind: 'rate_limit', status: 429 },
  ServiceQuotaExceededException: { kind: 'quota', status: 400 },
  ModelNotReadyException: { kind: 'overloaded', status: 429 },
  ServiceUnavailableException: { kind: 'overloaded', status: 503 },
  ModelTimeoutException: { kind: 'timeout', status: 408 },
  InternalServerException: { kind: 'server', status: 500 },
  ModelErrorException: { kind: 'server', status: 424 },
  ModelStreamErrorException: { kind: 'server', status: 424 },
};

/** Canonical kind -> the error name Converse clients read, and its status. */
const BY_KIND: Readonly<Record<LlmErrorKind, { name: string; status: number }>> = {
  invalid_request: { name: 'ValidationException', status: 400 },
  context_length: { name: 'ValidationException', status: 400 },
  content_filter: { name: 'ValidationException', status: 400 },
  unsupported: { name: 'ValidationException', status: 400 },
  request_too_large: { name: 'ValidationException', status: 400 },
  cancelled: { name: 'ValidationException', status: 499 },
  authentication: { name: 'UnrecognizedClientException', status: 403 },
  permission: { name: 'AccessDeniedException', status: 403 },
  not_found: { name: 'ResourceNotFoundException', status: 404 },
  conflict: { name: 'ConflictException', status: 409 },
  rate_limit: { name: 'ThrottlingException', status: 429 },
  quota: { name: 'ServiceQuotaExceededException', status: 400 },
  overloaded: { name: 'ServiceUnavailableException', status: 503 },
  server: { name: 'InternalServerException', status: 500 },
  timeout: { name: 'ModelTimeoutException', status: 408 },
  upstream: { name: 'InternalServerException', status: 502 },
};

const CONTEXT_LENGTH = /too long|too many (?:input )?tokens|context (?:length|window)/i;

/**
 * The error's name: the `x-amzn-errortype` header or the body's `__type` / `code`, with the
 * namespace (`com.amazon.coral.service#`) and the trailing `:http://…` cut off.
 */
function errorName(body: unknown, headers: HeaderReader | undefined): string | undefined {
  const raw = headers?.get('x-amzn-errortype') ?? fieldOf(body, '__type') ?? fieldOf(body, 'code');
  if (raw === undefined || raw === null || raw === '') return undefined;
  const name = raw.split(':')[0]!;
  return name.slice(name.lastIndexOf('#') + 1);
}

function fieldOf(body: unknown, key: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

/** True for the `:event-type` of a ConverseStream exception (`throttlingException`, ...). */
export function isExceptionEvent(name: string): boolean {
  return name.endsWith('Exception');
}

/** The stream event name of `error` (`throttlingException`): its error name, lower camel case. */
export function exceptionEventName(error: LlmError): string {
  const name = error.protocol === PROTOCOL && error.code !== undefined && BY_NAME[error.code] ? error.code : BY_KIND[error.kind].name;
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/**
 * An upstream error (status, `{message}` body or raw text, headers) -> `LlmError`. The error's
 * name (header `x-amzn-errortype`, or `__type` in the body; an exception event's type in streams,
 * where `status` is 0) picks the kind and becomes `code`; a ValidationException about the input's
 * length is a context-length error. Only the body's `message` (`Message` too) reaches clients.
 */
export function decodeError(status: number, body: unknown, headers?: HeaderReader): LlmError {
  const name = errorName(body, headers);
  const byName = name === undefined ? undefined : BY_NAME[name.charAt(0).toUpperCase() + name.slice(1)];
  const wireStatus = status > 0 ? status : (byName?.status ?? 500);
  const { message, cause } = upstreamErrorMessage(wireStatus, body, fieldOf(body, 'message') ?? fieldOf(body, 'Message'));
  let kind = byName?.kind ?? errorKindForStatus(wireStatus);
  if (kind === 'invalid_request' && CONTEXT_LENGTH.test(message)) kind = 'context_length';
  const retryAfterMs = headers ? retryAfterFromHeaders(headers) : undefined;
  const requestId = headers?.get('x-amzn-requestid');
  const code = name === undefined ? undefined : name.charAt(0).toUpperCase() + name.slice(1);
  return new LlmError({
    kind,
    message,
    status: wireStatus,
    protocol: PROTOCOL,
    raw: body,
    cause,
    ...(code !== undefined ? { code } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(requestId ? { requestId } : {}),
  });
}

/**
 * `LlmError` -> status, `{message}` body and the `x-amzn-errortype` header that names the error
 * for the AWS SDK (plus `retry-after` and `x-amzn-requestid`). Converse's own errors keep their
 * name and status.
 */
export function encodeError(error: LlmError): { status: number; body: ConverseError; headers: Record<string, string> } {
  const own = error.protocol === PROTOCOL && error.code !== undefined && BY_NAME[error.code] !== undefined;
  const wire = BY_KIND[error.kind];
  const name = own ? error.code! : wire.name;
  const status = error.protocol === PROTOCOL ? error.status : wire.status;
  const headers: Record<string, string> = { 'x-amzn-errortype': name };
  if (error.retryAfterMs !== undefined) headers['retry-after'] = String(Math.ceil(error.retryAfterMs / 1000));
  if (error.requestId) headers['x-amzn-requestid'] = error.requestId;
  return { status, body: { message: error.message }, headers };
}
