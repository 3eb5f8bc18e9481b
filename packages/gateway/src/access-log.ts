import { type Logger, pino } from 'pino';

/** The fields of one access-log line. */
export interface AccessEntry {
  requestId: string;
  method: string;
  /** Path and query, `key=` redacted; absent when the URL did not parse. */
  path?: string;
  status: number;
  /** Milliseconds until the answer's head was ready. */
  ms?: number;
  /** The client's protocol, once known. */
  protocol?: string;
}

/** Loggers made by `createLogger`: their line format is pino's default, so it can be written by hand. */
const plainLoggers = new WeakSet<Logger>();

/** Marks a logger as using pino's default line format (see {@link createAccessLog}). */
export function markPlainLogger(logger: Logger): Logger {
  plainLoggers.add(logger);
  return logger;
}

interface PinoInternals {
  [key: symbol]: unknown;
}

/**
 * Writes one line per request at `info`. For the gateway's own loggers the line is formatted here
 * and handed to the logger's destination, exactly as pino would write it (`level`, `time`, the
 * bindings, the fields, `msg`): the fields are known and hold no secrets, so the generic path
 * (redaction, serialisers) is skipped on the most frequent line. Any other logger gets
 * `logger.info(entry, 'request')`, in its own format.
 */
export function createAccessLog(logger: Logger): (entry: AccessEntry) => void {
  if (!plainLoggers.has(logger)) return (entry) => logger.info(entry, 'request');
  const internals = logger as unknown as PinoInternals;
  const destination = internals[pino.symbols.streamSym] as { write(text: string): unknown };
  const bindings = internals[pino.symbols.chindingsSym] as string;
  const level = logger.levels.values.info as number;
  return (entry) => {
    if (!logger.isLevelEnabled('info')) return;
    let line = `{"level":${level},"time":${Date.now()}${bindings},"requestId":${JSON.stringify(entry.requestId)},"method":${JSON.stringify(entry.method)}`;
    if (entry.path !== undefined) line += `,"path":${JSON.stringify(entry.path)}`;
    line += `,"status":${entry.status}`;
    if (entry.ms !== undefined) line += `,"ms":${entry.ms}`;
    if (entry.protocol !== undefined) line += `,"protocol":${JSON.stringify(entry.protocol)}`;
    destination.write(`${line},"msg":"request"}\n`);
  };
}
