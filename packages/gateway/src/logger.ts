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

/** A structured JSON logger with secrets redacted. */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options = { level, base: { name: 'llm-gateway' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}

/** Removes `key=` from a URL's query before it is logged. */
export function redactUrl(url: URL): string {
  if (!url.searchParams.has('key')) return url.pathname + url.search;
  const copy = new URL(url);
  copy.searchParams.set('key', '[redacted]');
  return copy.pathname + copy.search;
}
