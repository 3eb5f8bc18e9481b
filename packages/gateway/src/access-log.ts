import { resolveRoute } from '@llm/router';
import { type Logger, pino } from 'pino';
import type { McpCallRecord } from '@llm/router';
import type { RequestRecord, RouterConfig } from './router-contract.js';

/**
 * The fields of one access-log line, in the order they are written. Written once the answer is
 * over (its last byte, or the client gone), so a stream's line carries its tokens and its whole
 * duration.
 */
export interface AccessEntry {
  requestId: string;
  method: string;
  /** Path and query, `key=` redacted; absent when the URL did not parse. */
  path?: string;
  /** The client's protocol, once known. */
  protocol?: string;
  /** The model the client asked for (routed requests). */
  clientModel?: string;
  /** The upstream that answered: the last one tried. */
  upstream?: string;
  /** The model sent upstream: the route's, else the client's. */
  upstreamModel?: string;
  /** Upstreams of the route tried before the one that answered (0: the first answered). */
  fallbacks?: number;
  /** Upstream API calls made for the request, retries and fallbacks included (0: none was made). */
  attempts?: number;
  /** The status the client got. */
  status: number;
  /** Milliseconds from the request's arrival to the first byte of the answer going out. */
  ttfbMs?: number;
  /** Milliseconds from the request's arrival to the end of the answer (a stream's last byte). */
  ms?: number;
  /** Prompt tokens (cache reads and writes included), as the upstream reported them. */
  inputTokens?: number;
  /** Generated tokens, reasoning included. */
  outputTokens?: number;
  /** Of `inputTokens`: read from the prompt cache. */
  cachedTokens?: number;
  /** Why the request failed (`upstream`, `timeout`, `authentication`...); a stream cut by an error event too. */
  errorKind?: string;
  /** The MCP tool calls the gateway ran for the request (server, tool, ms, isError), when it ran any. */
  mcpCalls?: McpCallRecord[];
}

/** The fields of an {@link AccessEntry} a router record fills in. */
type RecordFields = Pick<
  AccessEntry,
  'clientModel' | 'upstream' | 'upstreamModel' | 'fallbacks' | 'attempts' | 'inputTokens' | 'outputTokens' | 'cachedTokens' | 'errorKind' | 'mcpCalls'
>;

/**
 * What the router's record of a request adds to its access line. `fallbacks` is the router's
 * count of upstreams left before the one that answered; for a call that has none (a token count),
 * the answering upstream's position in the route's list. `attempts` is the router's count of
 * upstream API calls.
 */
export function recordFields(record: RequestRecord, routes: RouterConfig['routes']): RecordFields {
  const fields: RecordFields = {};
  if (record.clientModel !== undefined) fields.clientModel = record.clientModel;
  if (record.upstream !== undefined) {
    fields.upstream = record.upstream;
    if (record.upstreamModel !== undefined) fields.upstreamModel = record.upstreamModel;
    if (record.fallbacks !== undefined) fields.fallbacks = record.fallbacks;
    else {
      const route = record.clientModel === undefined ? undefined : resolveRoute(routes, record.clientModel);
      const position = route ? route.upstreams.indexOf(record.upstream) : -1;
      if (position >= 0) fields.fallbacks = position;
    }
  }
  if (record.attempts !== undefined) fields.attempts = record.attempts;
  const usage = record.usage;
  if (usage) {
    fields.inputTokens = usage.inputTokens;
    fields.outputTokens = usage.outputTokens;
    if (usage.cacheReadTokens !== undefined) fields.cachedTokens = usage.cacheReadTokens;
  }
  if (record.errorKind !== undefined) fields.errorKind = record.errorKind;
  if (record.mcpCalls !== undefined && record.mcpCalls.length > 0) fields.mcpCalls = record.mcpCalls;
  return fields;
}

/** The line's fields in writing order, and whether each is a number (written as it is) or JSON text (a string, a list). */
const FIELDS: readonly (readonly [keyof AccessEntry, 'text' | 'number'])[] = [
  ['requestId', 'text'],
  ['method', 'text'],
  ['path', 'text'],
  ['protocol', 'text'],
  ['clientModel', 'text'],
  ['upstream', 'text'],
  ['upstreamModel', 'text'],
  ['fallbacks', 'number'],
  ['attempts', 'number'],
  ['status', 'number'],
  ['ttfbMs', 'number'],
  ['ms', 'number'],
  ['inputTokens', 'number'],
  ['outputTokens', 'number'],
  ['cachedTokens', 'number'],
  ['errorKind', 'text'],
  ['mcpCalls', 'text'],
];

/** The entry with its fields in writing order (what pino writes follows the object's own order). */
export function orderedEntry(entry: AccessEntry): AccessEntry {
  const out: Record<string, unknown> = {};
  for (const [name] of FIELDS) if (entry[name] !== undefined) out[name] = entry[name];
  return out as unknown as AccessEntry;
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

/** The level of a request's line: `warn` for a 5xx (the gateway or an upstream failed), else `info`. */
export function accessLevel(status: number): 'warn' | 'info' {
  return status >= 500 ? 'warn' : 'info';
}

/**
 * Writes one line per request, `msg: "request"`, at {@link accessLevel}. For the gateway's own
 * loggers the line is formatted here and handed to the logger's destination, exactly as pino
 * would write it (`level`, `time`, the bindings, the fields in {@link FIELDS} order, `msg`): the
 * fields are known and hold no secrets, so the generic path (redaction, serialisers) is skipped
 * on the most frequent line. Any other logger gets `logger.info(entry, 'request')` (or `warn`),
 * in its own format.
 */
export function createAccessLog(logger: Logger): (entry: AccessEntry) => void {
  if (!plainLoggers.has(logger)) return (entry) => logger[accessLevel(entry.status)](orderedEntry(entry), 'request');
  const internals = logger as unknown as PinoInternals;
  const destination = internals[pino.symbols.streamSym] as { write(text: string): unknown };
  const bindings = internals[pino.symbols.chindingsSym] as string;
  return (entry) => {
    const level = accessLevel(entry.status);
    if (!logger.isLevelEnabled(level)) return;
    let line = `{"level":${logger.levels.values[level]},"time":${Date.now()}${bindings}`;
    for (const [name, kind] of FIELDS) {
      const value = entry[name];
      if (value === undefined) continue;
      line += kind === 'text' ? `,"${name}":${JSON.stringify(value)}` : `,"${name}":${value}`;
    }
    destination.write(`${line},"msg":"request"}\n`);
  };
}
