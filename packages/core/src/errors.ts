import type { HeaderReader } from './http.js';
import type { ProtocolId } from './protocol.js';

/**
 * What went wrong, independent of protocol. Each codec maps its wire error types and HTTP
 * statuses to these kinds and back; {@link ERROR_KINDS} holds the status each kind answers with.
 */
export type LlmErrorKind =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'conflict'
  | 'request_too_large'
  | 'rate_limit'
  | 'quota'
  | 'overloaded'
  | 'server'
  | 'timeout'
  | 'cancelled'
  | 'context_length'
  | 'content_filter'
  | 'unsupported'
  | 'upstream';

interface KindInfo {
  /** HTTP status to answer with when the protocol has no better one. */
  status: number;
  /** Whether the same request may succeed if sent again later. */
  retryable: boolean;
}

/**
 * The one table of kind -> default status and retryability. Codecs may pick another status where
 * their protocol differs (Claude answers `overloaded` with 529 and `quota` with 402).
 */
export const ERROR_KINDS: Readonly<Record<LlmErrorKind, KindInfo>> = Object.freeze({
  invalid_request: { status: 400, retryable: false },
  authentication: { status: 401, retryable: false },
  permission: { status: 403, retryable: false },
  not_found: { status: 404, retryable: false },
  conflict: { status: 409, retryable: false },
  request_too_large: { status: 413, retryable: false },
  rate_limit: { status: 429, retryable: true },
  quota: { status: 429, retryable: false },
  overloaded: { status: 503, retryable: true },
  server: { status: 500, retryable: true },
  timeout: { status: 504, retryable: true },
  cancelled: { status: 499, retryable: false },
  context_length: { status: 400, retryable: false },
  content_filter: { status: 400, retryable: false },
  unsupported: { status: 400, retryable: false },
  upstream: { status: 502, retryable: true },
});

/**
 * The kind an HTTP status means when the body says nothing more specific
 * (the anthropic-sdk-typescript `APIError.generate` table, plus 413, 499, 502 and 529).
 */
export function errorKindForStatus(status: number): LlmErrorKind {
  switch (status) {
    case 400:
    case 422:
      return 'invalid_request';
    case 401:
      return 'authentication';
    case 402:
      return 'quota';
    case 403:
      return 'permission';
    case 404:
      return 'not_found';
    case 408:
    case 504:
      return 'timeout';
    case 409:
      return 'conflict';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit';
    case 499:
      return 'cancelled';
    case 502:
      return 'upstream';
    case 503:
    case 529:
      return 'overloaded';
    default:
      if (status >= 500) return 'server';
      return 'invalid_request';
  }
}

/** What an {@link LlmError} is built from. Only `kind` and `message` are required. */
export interface LlmErrorOptions {
  kind: LlmErrorKind;
  message: string;
  /** Defaults to the kind's status in {@link ERROR_KINDS}. */
  status?: number;
  /** JSON path of the offending field, e.g. `messages[2].content[0].source.media_type`. */
  path?: string;
  /** Protocol in whose terms the error arose. */
  protocol?: ProtocolId;
  /** Defaults to the kind's retryability. */
  retryable?: boolean;
  /** How long to wait before retrying (from `retry-after` or Gemini `RetryInfo`). */
  retryAfterMs?: number;
  /** The wire error code or type (`context_length_exceeded`, `overloaded_error`, `RESOURCE_EXHAUSTED`). */
  code?: string;
  /** Provider request id, for support tickets. */
  requestId?: string;
  /** The upstream error body, untouched. Never shown to clients by {@link LlmError.toJSON}. */
  raw?: unknown;
  cause?: unknown;
}

const MARKER = Symbol.for('@llm/core.LlmError');

/** The message {@link LlmError.from} gives anything that is not already an `LlmError`. */
export const INTERNAL_ERROR_MESSAGE = 'internal error';

/**
 * The one error class of this project. `kind` tells the cases apart; `status` is the HTTP status
 * to answer with; `path` points at the offending field of a request.
 *
 * Decoders throw it (kind `invalid_request`) for bad input; error codecs decode upstream error
 * bodies into it and encode it into each protocol's error body.
 */
export class LlmError extends Error {
  readonly kind: LlmErrorKind;
  readonly status: number;
  readonly path: string | undefined;
  readonly protocol: ProtocolId | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly raw: unknown;
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the brand isLlmError reads through the symbol, across copies of this package
  private readonly [MARKER] = true;

  constructor(options: LlmErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LlmError';
    const info = ERROR_KINDS[options.kind];
    this.kind = options.kind;
    this.status = options.status ?? info.status;
    this.path = options.path;
    this.protocol = options.protocol;
    this.retryable = options.retryable ?? info.retryable;
    this.retryAfterMs = options.retryAfterMs;
    this.code = options.code;
    this.requestId = options.requestId;
    this.raw = options.raw;
  }

  /**
   * True for any `LlmError`, even one created by another installed copy of `@llm/core`
   * (checks a `Symbol.for` marker rather than the prototype chain).
   */
  static isInstance(value: unknown): value is LlmError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** A bad-input error: `path: message`. */
  static invalidRequest(path: string, message: string, protocol?: ProtocolId): LlmError {
    return new LlmError({ kind: 'invalid_request', message: `${path}: ${message}`, path, protocol });
  }

  /**
   * Wraps anything thrown into an `LlmError`: an `LlmError` passes through; anything else becomes
   * kind `server` with the fixed message {@link INTERNAL_ERROR_MESSAGE} and the original as
   * `cause`. A foreign exception's message may hold file paths, addresses or upstream bytes, so
   * it never reaches a client; log it with {@link describeError}.
   */
  static from(error: unknown): LlmError {
    if (LlmError.isInstance(error)) return error;
    return new LlmError({ kind: 'server', message: INTERNAL_ERROR_MESSAGE, cause: error });
  }

  /** What a client may see: no raw upstream body, no cause, no stack. */
  toJSON(): {
    kind: LlmErrorKind;
    status: number;
    message: string;
    path?: string;
    protocol?: ProtocolId;
    code?: string;
    retryAfterMs?: number;
    requestId?: string;
  } {
    const json: ReturnType<LlmError['toJSON']> = { kind: this.kind, status: this.status, message: this.message };
    if (this.path !== undefined) json.path = this.path;
    if (this.protocol !== undefined) json.protocol = this.protocol;
    if (this.code !== undefined) json.code = this.code;
    if (this.retryAfterMs !== undefined) json.retryAfterMs = this.retryAfterMs;
    if (this.requestId !== undefined) json.requestId = this.requestId;
    return json;
  }
}

/**
 * Reads a `retry-after` (seconds or an HTTP date) or `retry-after-ms` header value into
 * milliseconds. Returns `undefined` for missing, negative or unreadable values.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // An HTTP date names its month; without letters, V8's Date.parse would read "-3" as a year.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Reads retry timing from response headers: `retry-after-ms` (OpenAI) first, then `retry-after`.
 */
export function retryAfterFromHeaders(headers: HeaderReader): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  return parseRetryAfter(headers.get('retry-after'));
}
