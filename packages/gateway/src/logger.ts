import { type DestinationStream, type Logger, pino } from 'pino';
import { markPlainLogger } from './access-log.js';
import { BlockSink } from './block-sink.js';

/** Paths pino censors in every log line: keys and auth headers are never logged. */
export const REDACTED_PATHS = [
  'apiKey',
  '*.apiKey',
  'upstreams.*.apiKey',
  'keys',
  'key',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["x-goog-api-key"]',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-goog-api-key"]',
];

/** Most milliseconds a log line waits in the stdout buffer. */
const FLUSH_MS = 200;

/**
 * A structured JSON logger with secrets redacted. By default it writes to stdout in blocks of up
 * to 32 KB, at least every {@link FLUSH_MS} ms and when the process exits (a crash included; only
 * a kill -9 loses the last lines): one access-log line per request would otherwise cost a write
 * call per request. Each block is written synchronously, as pino writes to stdout by default, so
 * lines stay in order and nothing is left in flight at exit.
 */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options = { level, base: { name: 'llm-gateway' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  if (destination) return markPlainLogger(pino(options, destination));
  const stdout = new BlockSink(pino.destination({ dest: 1, sync: true }));
  setInterval(() => stdout.flush(), FLUSH_MS).unref();
  process.on('exit', () => stdout.flush());
  return markPlainLogger(pino(options, stdout));
}

/**
 * The query parameters a client key is read from: core's `query-key` scheme (`readCredential`)
 * reads `key`, matched after percent-decoding (`?%6Bey=` is `key` too).
 */
const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set(['key']);

/** A URL's path and query as logged: every credential parameter's value replaced, names compared decoded. */
export function redactUrl(url: URL): string {
  // Most URLs have no query, and a query holds `key` decoded only if it holds `key` or an escape
  // as text: nothing is decoded for the others (Gemini's `?alt=sse`).
  if (url.search === '') return url.pathname;
  if (!url.search.includes('key') && !url.search.includes('%')) return url.pathname + url.search;
  let redact = false;
  for (const name of url.searchParams.keys()) if (CREDENTIAL_PARAMS.has(name)) redact = true;
  if (!redact) return url.pathname + url.search;
  const query = new URLSearchParams();
  for (const [name, value] of url.searchParams) query.append(name, CREDENTIAL_PARAMS.has(name) ? '[redacted]' : value);
  return `${url.pathname}?${query}`;
}
