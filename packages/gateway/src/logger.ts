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

/** Removes `key=` from a URL's query before it is logged. */
export function redactUrl(url: URL): string {
  // Most URLs have no query: no URLSearchParams is built for them.
  if (!url.search.includes('key=') || !url.searchParams.has('key')) return url.pathname + url.search;
  const copy = new URL(url);
  copy.searchParams.set('key', '[redacted]');
  return copy.pathname + copy.search;
}
