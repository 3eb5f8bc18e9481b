import type { LlmWarning } from '@llm/core';
import type { Logger } from 'pino';
import type { RequestRecord } from './router-contract.js';

/** Longest path or message of a logged warning: a client's 100 KB body key must not make a 100 KB line. */
const MAX_WARNING_TEXT = 256;

/**
 * Logs how a request ended beyond its access line, in at most one line: a failure with its
 * internal detail (`errorDetail`: never sent to the client) at `error` for a 5xx and `warn`
 * otherwise, else translation warnings at `debug` (a client's every request may carry the same
 * ones: at `warn` they outnumbered the access lines): the warnings the router kept (its
 * `maxWarningsPerRequest`, 100 by default) and the count it dropped. A request with neither
 * logs nothing here.
 */
export function logOutcome(logger: Logger, record: RequestRecord): void {
  const failed = record.errorDetail !== undefined;
  const warned = record.warnings.length > 0 || record.warningsDropped !== undefined;
  if (!failed && !warned) return;
  const entry: Record<string, unknown> = { requestId: record.requestId, status: record.status };
  if (record.upstream !== undefined) entry.upstream = record.upstream;
  if (failed) {
    entry.errorKind = record.errorKind;
    entry.errorDetail = record.errorDetail;
  }
  if (warned) {
    entry.warnings = record.warnings.map(loggedWarning);
    entry.warningsDropped = record.warningsDropped ?? 0;
  }
  if (!failed) logger.debug(entry, 'translation warnings');
  else if (record.status >= 500) logger.error(entry, 'request failed');
  else logger.warn(entry, 'request failed');
}

function loggedWarning(warning: LlmWarning): Pick<LlmWarning, 'code' | 'path' | 'message'> {
  return { code: warning.code, path: bounded(warning.path), message: bounded(warning.message) };
}

function bounded(text: string): string {
  return text.length > MAX_WARNING_TEXT ? `${text.slice(0, MAX_WARNING_TEXT - 1)}…` : text;
}
