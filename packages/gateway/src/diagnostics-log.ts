import type { Logger } from 'pino';
import type { RequestRecord } from './router-contract.js';

/**
 * Logs a request's diagnostics at `debug`, one line (the router fills `record.diagnostics` when
 * its `diagnostics` option is on, which the server sets when debug is enabled): the route
 * decision (client model, rule matched, upstream, upstream model), the upstream status and
 * calls, the status the client got, the tool-call count and the capped, secret-masked previews.
 * The info access line stays as compact as it was.
 */
export function logDiagnostics(logger: Logger, record: RequestRecord): void {
  const diagnostics = record.diagnostics;
  if (!diagnostics || !logger.isLevelEnabled('debug')) return;
  logger.debug(
    {
      requestId: record.requestId,
      clientModel: record.clientModel,
      rule: diagnostics.rule,
      upstream: record.upstream,
      upstreamModel: record.upstreamModel,
      upstreamStatus: diagnostics.upstreamStatus,
      attempts: diagnostics.attempts,
      status: record.status,
      toolCalls: diagnostics.toolCalls,
      toolCallPreviews: diagnostics.toolCallPreviews,
      toolResultPreviews: diagnostics.toolResultPreviews,
    },
    'diagnostics',
  );
}
