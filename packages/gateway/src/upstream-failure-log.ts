import { LlmError, describeError } from '@llm/core';
import type { Logger } from 'pino';
import type { Transport, UpstreamConfig, UpstreamRequest } from './router-contract.js';

/** Statuses the router retries or falls over on: an upstream failure worth a line. */
function isFailureStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/**
 * The transport, with each failed upstream API attempt logged at `warn` ("upstream attempt
 * failed"): the upstream's name, and its status (429, 408, 5xx: what the router retries or falls
 * over on) or the transport's error (refused, reset, timed out). A dead upstream that failed over
 * leaves these lines, and the request's access line names the upstream that answered and its
 * `fallbacks`. The transport does not know the request an attempt belongs to (the router does not
 * say), so the line has no request id. Media downloads are not upstream attempts: not logged.
 */
export function logUpstreamFailures(transport: Transport, upstreams: Readonly<Record<string, UpstreamConfig>>, logger: Logger): Transport {
  // Longest base URL first: an upstream at `http://h/v1/x` is not the one at `http://h/v1`.
  const bases = Object.entries(upstreams)
    .map(([name, upstream]) => ({ name, base: upstream.baseUrl.replace(/\/+$/, '') }))
    .sort((a, b) => b.base.length - a.base.length);
  const upstreamOf = (url: string): string | undefined => bases.find(({ base }) => url.startsWith(base))?.name;
  return (request) => {
    if (request.purpose === 'media') return transport(request);
    return transport(request).then(
      (response) => {
        if (isFailureStatus(response.status)) logger.warn({ upstream: upstreamOf(request.url), status: response.status }, 'upstream attempt failed');
        return response;
      },
      (error: unknown) => {
        if (!cancelledByClient(request)) logger.warn({ upstream: upstreamOf(request.url), err: describeError(error) }, 'upstream attempt failed');
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
  if (!cancel?.aborted) return false;
  const reason: unknown = cancel.reason;
  return !(LlmError.isInstance(reason) && reason.kind === 'timeout');
}
