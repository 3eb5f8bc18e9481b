import { LlmError } from './errors.js';
import { PROTOCOL_NAMES, type ProtocolId } from './protocol.js';

/**
 * Errors about what an upstream sent, shared by every codec's response and stream decoders so
 * all four protocols fail the same way: kind `upstream` (502, retryable), a stable
 * message naming the protocol and, when known, the path; the upstream's own bytes and any
 * exception text stay in `cause` for logs, out of what a client sees.
 */

/**
 * The error a stream decoder ends with when its input stopped before the protocol's terminal
 * event: `the Claude stream ended before message_stop`. No decoder fabricates a normal finish
 * for a cut stream; a tool call cut mid-arguments must not reach a client as complete.
 */
export function streamEndedEarly(protocol: ProtocolId, terminal: string): LlmError {
  return new LlmError({
    kind: 'upstream',
    message: `the ${PROTOCOL_NAMES[protocol]} stream ended before ${terminal}`,
    protocol,
    code: 'stream_truncated',
  });
}

/**
 * The error a stream encoder (or the router's guard) ends a client's stream with when the
 * canonical events stopped with neither a `finish` nor an `error`: the client must not take the
 * silence for a normal end.
 */
export function unfinishedStreamError(): LlmError {
  return new LlmError({ kind: 'upstream', message: 'the upstream stream ended before it finished', code: 'stream_truncated' });
}

/**
 * An upstream answer (`what`: `answer`, `stream event`, `stream chunk`) that is not the
 * protocol's shape: `invalid Gemini answer at candidates`. `path` names what is missing or
 * wrong; `cause` keeps the detail for logs. No `raw`: error encoders echo a `raw` body that looks
 * like their protocol's error, and this body is by definition not one.
 */
export function invalidUpstream(protocol: ProtocolId, what: string, details: { path?: string; cause?: unknown } = {}): LlmError {
  // `$` (the whole body) says nothing a reader of `invalid Gemini answer` does not know.
  const at = details.path === undefined || details.path === '$' ? '' : ` at ${details.path}`;
  return new LlmError({
    kind: 'upstream',
    message: `invalid ${PROTOCOL_NAMES[protocol]} ${what}${at}`,
    protocol,
    path: details.path,
    cause: details.cause,
  });
}

/**
 * A 2xx body the codec's `response.answerFault` refuses at `path` although its decoder read it
 * (a Claude body without `type: "message"`): `invalid Claude answer at type`, like a decoder's
 * own failure. The cause says what was checked, for the log (the client sees the message, which
 * names no upstream).
 */
export function unrecognizedAnswer(protocol: ProtocolId, path: string): LlmError {
  const what = path === '$' ? 'the body is not a JSON object' : `${path} is missing or not of the type every answer has there`;
  const cause = new Error(`not a ${PROTOCOL_NAMES[protocol]} answer: ${what}`);
  cause.name = 'UnrecognizedAnswer';
  return invalidUpstream(protocol, 'answer', { path, cause });
}

/**
 * Anything a decoder threw while reading an upstream's answer, as an `upstream` error: the
 * `invalid_request` errors of the wire readers (the client did nothing wrong, so it must not get
 * a 400) and foreign exceptions (`SyntaxError`, `TypeError`) become {@link invalidUpstream} with
 * the same path; other `LlmError`s (an upstream's own decoded error, a truncation) pass through.
 */
export function upstreamDecodeFailure(protocol: ProtocolId, what: string, error: unknown): LlmError {
  if (LlmError.isInstance(error) && error.kind !== 'invalid_request') return error;
  const path = LlmError.isInstance(error) ? error.path : undefined;
  return invalidUpstream(protocol, what, { path, cause: error });
}

/** Longest part of a foreign upstream error body kept (in the error's `cause`) for the log. */
export const MAX_UPSTREAM_ERROR_TEXT = 512;

/**
 * The message of an upstream's error answer, shared by the four codecs' `error.decode`. `own`
 * is the message the codec read from its protocol's JSON error shape: the provider wrote it for
 * the client, so the client gets it. Any other body (raw text, a proxy's HTML 502 page, JSON of
 * another shape) may hold internal detail (addresses, stack traces, the proxy's name): the
 * client gets `upstream answered HTTP <status>`, and the body as text, capped at
 * {@link MAX_UPSTREAM_ERROR_TEXT}, becomes the error's `cause` for the log (`describeError`).
 */
export function upstreamErrorMessage(status: number, body: unknown, own: string | undefined): { message: string; cause?: Error } {
  if (own !== undefined) return { message: own };
  const message = `upstream answered HTTP ${status}`;
  const text = bodyText(body);
  if (text === '') return { message };
  const cause = new Error(text.length > MAX_UPSTREAM_ERROR_TEXT ? `${text.slice(0, MAX_UPSTREAM_ERROR_TEXT)}…` : text);
  cause.name = 'UpstreamErrorBody';
  return { message, cause };
}

/** An error body as text for the log: a string as is, parsed JSON re-serialized, nothing as ''. */
function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body === undefined || body === null) return '';
  try {
    return JSON.stringify(body) ?? '';
  } catch {
    return '';
  }
}
