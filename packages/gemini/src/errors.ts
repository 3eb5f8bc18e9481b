import { LlmError, errorKindForStatus, retryAfterFromHeaders, upstreamErrorMessage, type LlmErrorKind } from '@llm/core';
import { PROTOCOL } from './protocol.js';
import type { GeminiErrorBody } from './wire-types.js';

type Wire = Record<string, unknown>;

/** google.rpc canonical code -> kind, where it says more than the status. */
const KIND_BY_STATUS: Readonly<Record<string, LlmErrorKind>> = {
  INVALID_ARGUMENT: 'invalid_request',
  FAILED_PRECONDITION: 'invalid_request',
  OUT_OF_RANGE: 'invalid_request',
  UNAUTHENTICATED: 'authentication',
  PERMISSION_DENIED: 'permission',
  NOT_FOUND: 'not_found',
  ABORTED: 'conflict',
  ALREADY_EXISTS: 'conflict',
  RESOURCE_EXHAUSTED: 'rate_limit',
  CANCELLED: 'cancelled',
  INTERNAL: 'server',
  UNKNOWN: 'server',
  DATA_LOSS: 'server',
  UNAVAILABLE: 'overloaded',
  DEADLINE_EXCEEDED: 'timeout',
  UNIMPLEMENTED: 'unsupported',
};

/** Canonical kind -> status and canonical code. */
const WIRE_BY_KIND: Readonly<Record<LlmErrorKind, { code: number; status: string }>> = {
  invalid_request: { code: 400, status: 'INVALID_ARGUMENT' },
  authentication: { code: 401, status: 'UNAUTHENTICATED' },
  permission: { code: 403, status: 'PERMISSION_DENIED' },
  not_found: { code: 404, status: 'NOT_FOUND' },
  conflict: { code: 409, status: 'ABORTED' },
  request_too_large: { code: 413, status: 'INVALID_ARGUMENT' },
  rate_limit: { code: 429, status: 'RESOURCE_EXHAUSTED' },
  quota: { code: 429, status: 'RESOURCE_EXHAUSTED' },
  overloaded: { code: 503, status: 'UNAVAILABLE' },
  server: { code: 500, status: 'INTERNAL' },
  timeout: { code: 504, status: 'DEADLINE_EXCEEDED' },
  cancelled: { code: 499, status: 'CANCELLED' },
  context_length: { code: 400, status: 'INVALID_ARGUMENT' },
  content_filter: { code: 400, status: 'INVALID_ARGUMENT' },
  unsupported: { code: 400, status: 'INVALID_ARGUMENT' },
  upstream: { code: 502, status: 'UNAVAILABLE' },
};

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';
const QUOTA_FAILURE = 'type.googleapis.com/google.rpc.QuotaFailure';

function details(error: Wire | undefined): Wire[] {
  return Array.isArray(error?.details) ? (error.details as unknown[]).filter((item): item is Wire => typeof item === 'object' && item !== null) : [];
}

/** `RetryInfo.retryDelay` ("34.4s") in milliseconds. */
function retryDelayMs(items: Wire[]): number | undefined {
  const delay = items.find((item) => item['@type'] === RETRY_INFO)?.retryDelay;
  if (typeof delay !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(delay);
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

/**
 * An upstream error (status, `{error:{code,message,status,details}}` body — an array of one in
 * non-SSE streams — or raw text) -> `LlmError`. Only that shape's message reaches clients; any
 * other body is `upstream answered HTTP <status>`, its text kept in `cause` for the log. An invalid API key is a 400 on the wire but an
 * authentication error; a daily quota (QuotaFailure) is `quota`; `RetryInfo` gives retry-after.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting
 */
export function decodeError(status: number, body: unknown, headers?: { get(name: string): string | null }): LlmError {
  const container = Array.isArray(body) ? body[0] : body;
  const error = typeof container === 'object' && container !== null ? ((container as Wire).error as Wire | undefined) : undefined;
  const code = typeof error?.status === 'string' ? error.status : undefined;
  const { message, cause } = upstreamErrorMessage(status, body, typeof error?.message === 'string' ? error.message : undefined);
  const items = details(error);
  const reason = items.find((item) => item['@type'] === ERROR_INFO)?.reason;
  // Own keys only: a `status` naming an Object.prototype member is just an unknown code.
  let kind: LlmErrorKind = (code && Object.hasOwn(KIND_BY_STATUS, code) && KIND_BY_STATUS[code]) || errorKindForStatus(status);
  if (reason === 'API_KEY_INVALID') kind = 'authentication';
  if (kind === 'rate_limit' && items.some((item) => item['@type'] === QUOTA_FAILURE) && /per ?day|daily|billing/i.test(JSON.stringify(items))) kind = 'quota';
  if (kind === 'invalid_request' && /exceeds the maximum number of tokens|context (window|length)|too long/i.test(message)) kind = 'context_length';
  const retryAfterMs = retryDelayMs(items) ?? (headers ? retryAfterFromHeaders(headers) : undefined);
  return new LlmError({
    kind,
    message,
    status,
    protocol: PROTOCOL,
    raw: body,
    cause,
    ...(code ? { code: typeof reason === 'string' ? reason : code } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}

/**
 * `LlmError` -> status and `{error:{code,message,status,details}}` body (with `RetryInfo` and a
 * `retry-after` header when the wait is known). Gemini's own errors keep their body.
 */
export function encodeError(error: LlmError): { status: number; body: GeminiErrorBody; headers?: Record<string, string> } {
  if (error.protocol === PROTOCOL && isOwnBody(error.raw)) {
    return withRetryHeader({ status: error.status, body: error.raw }, error.retryAfterMs);
  }
  const wire = WIRE_BY_KIND[error.kind];
  const body: GeminiErrorBody = { error: { code: wire.code, message: error.message, status: wire.status } };
  if (error.retryAfterMs !== undefined) {
    body.error.details = [{ '@type': RETRY_INFO, retryDelay: `${Math.ceil(error.retryAfterMs / 1000)}s` }];
  }
  return withRetryHeader({ status: wire.code, body }, error.retryAfterMs);
}

function withRetryHeader<T extends { status: number; body: GeminiErrorBody }>(
  result: T,
  retryAfterMs: number | undefined,
): T & { headers?: Record<string, string> } {
  return retryAfterMs === undefined ? result : { ...result, headers: { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) } };
}

function isOwnBody(raw: unknown): raw is GeminiErrorBody {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return false;
  const inner = (raw as Wire).error as Wire | undefined;
  return typeof inner === 'object' && inner !== null && typeof inner.code === 'number' && typeof inner.message === 'string' && typeof inner.status === 'string';
}

/** Exposed for the stream decoder: a `{"error":…}` chunk is an error event. */
export function isErrorChunk(payload: Wire): boolean {
  return typeof payload.error === 'object' && payload.error !== null && payload.candidates === undefined;
}

/** The status an in-stream error chunk carries. */
export function statusOfChunk(payload: Wire): number {
  const code = (payload.error as Wire).code;
  return typeof code === 'number' ? code : 500;
}
