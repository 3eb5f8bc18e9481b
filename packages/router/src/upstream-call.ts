import { type CancelSignal, CancelSource, LlmError, retryAfterFromHeaders } from '@llm/core';
import type { Transport, UpstreamRequest, UpstreamResponse } from './config.js';

/** Options of {@link callUpstream}. */
export interface UpstreamCallOptions {
  url: string;
  headers: Record<string, string>;
  body: string | Uint8Array<ArrayBuffer>;
  transport: Transport;
  /** Milliseconds until the response headers arrive. */
  timeoutMs: number;
  /** Retries on 429 / 5xx / network errors before the first byte. */
  maxRetries: number;
  /** First backoff delay; doubles per retry. */
  retryBaseDelayMs: number;
  /** Longest wait honoured from `retry-after`. */
  maxRetryDelayMs: number;
  /**
   * The request's cancellation (the client went away, or its deadline passed): aborting it
   * cancels the upstream request; an `LlmError` reason (the deadline's `timeout`) is what the call
   * then throws.
   */
  signal?: CancelSignal;
  /** The client request's id, handed to the transport on each call (`UpstreamRequest.requestId`). */
  requestId?: string;
  /** Called before each call to the upstream (retries included). */
  onAttempt?(): void;
}

/** First retry delay in milliseconds, doubled per retry (`RouterConfig.retryBaseDelayMs`). */
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
/** Longest retry delay, a `retry-after` included (`RouterConfig.maxRetryDelayMs`). */
export const DEFAULT_MAX_RETRY_DELAY_MS = 30_000;

/** A 2xx status. */
export function isOkStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

/** Statuses worth retrying before the first byte. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/**
 * Sends one upstream request, retrying on 429 / 5xx / network failures with exponential backoff
 * (honouring `retry-after`). Returns the last response, retryable or not; throws `LlmError`
 * (`timeout`, `upstream`, `cancelled`) when no response came at all. The timeout stops counting
 * once headers arrive; the client's signal stays attached to the body. An attempt that timed out
 * is not retried: the upstream already had `timeoutMs` to answer, so a silent upstream costs one
 * timeout, not one per retry.
 */
export async function callUpstream(options: UpstreamCallOptions): Promise<UpstreamResponse> {
  for (let attempt = 0; ; attempt++) {
    options.onAttempt?.();
    // One cancel per attempt, fired by the timeout or by the client (cheaper than AbortSignal.any).
    const cancel = new CancelSource();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      cancel.abort(new LlmError({ kind: 'timeout', message: `upstream did not answer within ${options.timeoutMs} ms` }));
    }, options.timeoutMs);
    const client = options.signal;
    const onClientAbort = () => cancel.abort(client?.reason);
    if (client?.aborted) cancel.abort(client.reason);
    else client?.addEventListener('abort', onClientAbort, { once: true });
    let response: UpstreamResponse;
    try {
      response = await options.transport(new OutgoingCall(options, cancel));
    } catch (cause) {
      clearTimeout(timer);
      client?.removeEventListener('abort', onClientAbort);
      if (client?.aborted) throw abortError(client.reason, cause);
      if (timedOut) throw new LlmError({ kind: 'timeout', message: `upstream did not answer within ${options.timeoutMs} ms`, cause });
      // The cause names the upstream's address and the socket error: the log's, not the client's.
      const error = new LlmError({ kind: 'upstream', message: 'upstream unreachable', cause });
      if (attempt >= options.maxRetries) throw error;
      await sleep(backoff(options, attempt), options.signal);
      continue;
    }
    clearTimeout(timer);
    // The client's signal stays linked while the body is read; it is dropped with the controller.
    if (!isRetryableStatus(response.status) || attempt >= options.maxRetries) return response;
    client?.removeEventListener('abort', onClientAbort);
    const retryAfter = retryAfterFromHeaders(response.headers);
    await response.body?.cancel().catch(() => undefined);
    await sleep(Math.min(retryAfter ?? backoff(options, attempt), options.maxRetryDelayMs), options.signal);
  }
}

/** One attempt's request: its `signal` is built only if the transport reads it (see `cancel`). */
class OutgoingCall implements UpstreamRequest {
  readonly method = 'POST';
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string | Uint8Array<ArrayBuffer>;
  readonly requestId: string | undefined;

  constructor(
    options: UpstreamCallOptions,
    readonly cancel: CancelSource,
  ) {
    this.url = options.url;
    this.headers = options.headers;
    this.body = options.body;
    this.requestId = options.requestId;
  }

  get signal(): AbortSignal {
    return this.cancel.toAbortSignal();
  }
}

function backoff(options: UpstreamCallOptions, attempt: number): number {
  return Math.min(options.retryBaseDelayMs * 2 ** attempt, options.maxRetryDelayMs);
}

/** The error of an aborted call: the signal's own `LlmError` (a deadline), else a client cancel. */
function abortError(reason: unknown, cause?: unknown): LlmError {
  return LlmError.isInstance(reason) ? reason : new LlmError({ kind: 'cancelled', message: 'client cancelled the request', cause });
}

function sleep(ms: number, signal?: CancelSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal.reason));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal?.reason));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
