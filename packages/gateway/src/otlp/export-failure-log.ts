import type { Logger } from 'pino';

/** Least milliseconds between two `tracing: spans dropped` lines. */
export const EXPORT_FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * A warn line for spans a collector did not take: the first failure at once, then at most one
 * line a minute with the spans dropped since (a collector that is down fails every 5 s batch).
 */
export function exportFailureLog(logger: Pick<Logger, 'warn'>, now: () => number = Date.now): (error: Error, spans: number) => void {
  let lastAt = Number.NEGATIVE_INFINITY;
  let dropped = 0;
  return (error, spans) => {
    dropped += spans;
    const at = now();
    if (at - lastAt < EXPORT_FAILURE_LOG_INTERVAL_MS) return;
    lastAt = at;
    // The exporter's errors carry the collector's HTTP status as `code`.
    const status = (error as { code?: unknown }).code;
    logger.warn(
      { err: error.message, ...(typeof status === 'number' && { status }), droppedSpans: dropped },
      'tracing: spans dropped, the collector did not take them',
    );
    dropped = 0;
  };
}
