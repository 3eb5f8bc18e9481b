import { type DestinationStream, type Logger, pino } from 'pino';
import { markPlainLogger } from './access-log.js';
import { BlockSink } from './block-sink.js';

/** Paths pino censors in every log line: keys and auth headers are never logged. */
export const REDACTED_PATHS = [
  'apiKey',
  '*.apiKey',
  'upstreams.*.apiKey',
  'upstreams.*.accessToken',
  'upstreams.*.clientSecret',
  'upstreams.*.secretAccessKey',
  'upstreams.*.sessionToken',
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
 * reads `key`, matched after percent-decoding (`?%6Bey=` is `key` too) and in any case: `?KEY=`
 * is no credential to the gateway, but a client that sent one meant it as a key.
 */
const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set(['key']);

function isCredentialParam(name: string): boolean {
  return CREDENTIAL_PARAMS.has(name.toLowerCase());
}

/** A query that may hold `key` once decoded: `key` in any case, or an escape, as text. */
const MAY_HOLD_KEY = /key|%/i;

/** A URL's path and query as logged: every credential parameter's value replaced, names compared decoded and case-blind. */
export function redactUrl(url: URL): string {
  // Most URLs have no query, and the others are decoded only if they may hold a key parameter
  // (nothing is decoded for Gemini's `?alt=sse`).
  if (url.search === '') return url.pathname;
  if (!MAY_HOLD_KEY.test(url.search)) return url.pathname + url.search;
  let redact = false;
  for (const name of url.searchParams.keys()) if (isCredentialParam(name)) redact = true;
  if (!redact) return url.pathname + url.search;
  const query = new URLSearchParams();
  for (const [name, value] of url.searchParams) query.append(name, isCredentialParam(name) ? '[redacted]' : value);
  return `${url.pathname}?${query}`;
}
