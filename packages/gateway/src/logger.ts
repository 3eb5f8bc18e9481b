import { type DestinationStream, type Logger, pino } from 'pino';

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
 * A structured JSON logger with secrets redacted. By default it writes to stdout asynchronously
 * in blocks of at least 4 KB, flushed every {@link FLUSH_MS} ms and when the process exits: one
 * access-log line per request would otherwise cost one write call per request.
 */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options = { level, base: { name: 'llm-gateway' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  if (destination) return pino(options, destination);
  const stdout = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => stdout.flush(), FLUSH_MS).unref();
  return pino(options, stdout);
}

/** Removes `key=` from a URL's query before it is logged. */
export function redactUrl(url: URL): string {
  if (!url.searchParams.has('key')) return url.pathname + url.search;
  const copy = new URL(url);
  copy.searchParams.set('key', '[redacted]');
  return copy.pathname + copy.search;
}
