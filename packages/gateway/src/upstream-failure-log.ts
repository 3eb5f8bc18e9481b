import { LlmError, describeError } from '@llm/core';
import type { Logger } from 'pino';
import type { GatewayObserver } from './metrics.js';
import type { Transport, UpstreamConfig, UpstreamRequest } from './router-contract.js';
import { byBaseUrl } from './upstream-by-url.js';

/** Statuses the router retries or falls over on: an upstream failure worth a line. */
function isFailureStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/**
 * The transport, with each failed upstream API attempt logged at `warn` ("upstream attempt
 * failed"): the upstream's name, and its status (429, 408, 5xx: what the router retries or falls
 * over on) or the transport's error (refused, reset, timed out), under the `requestId` the router
 * names on the call. A dead upstream that failed over leaves these lines, and the request's access
 * line (same `requestId`) names the upstream that answered and its `fallbacks`. Media downloads
 * are not upstream attempts: not logged.
 * `observer` (the metrics) is told each attempt and each failure, with its reason (the status,
 * `timeout` or `error`).
 */
export function logUpstreamFailures(
  transport: Transport,
  upstreams: Readonly<Record<string, UpstreamConfig>>,
  logger: Logger,
  observer?: Pick<GatewayObserver, 'attempt' | 'attemptFailed'>,
): Transport {
  const upstreamOf = byBaseUrl(Object.entries(upstreams).map(([name, upstream]) => ({ base: upstream.baseUrl, value: name })));
  return (request) => {
    if (request.purpose === 'media') return transport(request);
    const upstream = upstreamOf(request.url);
    if (upstream !== undefined) observer?.attempt(upstream);
    return transport(request).then(
      (response) => {
        if (isFailureStatus(response.status)) {
          logger.warn({ requestId: request.requestId, upstream, status: response.status }, 'upstream attempt failed');
          if (upstream !== undefined) observer?.attemptFailed(upstream, String(response.status));
        }
        return response;
      },
      (error: unknown) => {
        if (!cancelledByClient(request)) {
          logger.warn({ requestId: request.requestId, upstream, err: describeError(error) }, 'upstream attempt failed');
          if (upstream !== undefined) observer?.attemptFailed(upstream, timedOut(request) ? 'timeout' : 'error');
        }
        throw error;
      },
    );
  };
}

/**
 * An attempt the client's departure cancelled: no upstream failure. One cancelled by a timeout
 * (the upstream's, or the request's deadline) is one. Reads `cancel`, never builds `signal`.
 */
function cancelledByClient(request: UpstreamRequest): boolean {
  const cancel = request.cancel ?? request.signal;
  return cancel?.aborted === true && !timedOut(request);
}

/** An attempt cancelled by a timeout: the upstream's own, or the request's deadline. */
function timedOut(request: UpstreamRequest): boolean {
  const cancel = request.cancel ?? request.signal;
  const reason: unknown = cancel?.aborted ? cancel.reason : undefined;
  return LlmError.isInstance(reason) && reason.kind === 'timeout';
}
