import { LlmError } from './errors.js';
import type { ProtocolId } from './protocol.js';
import { joinPath, type PathKey } from './validate.js';

/**
 * Deepest JSON nesting accepted (objects and arrays, the outermost counting 1). Real requests
 * nest 10 to 20 levels (a tool schema inside a tool inside the body); 128 leaves room for any
 * honest schema while keeping every recursive walker in the project far from the stack limit.
 */
export const MAX_JSON_DEPTH = 128;

/** Options of {@link parseJson} and {@link checkJsonDepth}. */
export interface JsonDepthOptions {
  /** Deepest nesting accepted. Default {@link MAX_JSON_DEPTH}. Keep it in the hundreds: the check recurses. */
  maxDepth?: number;
  /** Protocol named on the error (the client's, when reading a request body). */
  protocol?: ProtocolId;
  /** JSON path of `value` in its document, put before the path on the error (`tools[0].parameters`). */
  path?: string;
  /**
   * Remember a value found within the limit, so a second check of it costs one lookup (default
   * true). Off for values checked once and dropped (stream events): a WeakSet entry per event
   * costs more than the walk it would save.
   */
  remember?: boolean;
}

/**
 * Values already found within {@link MAX_JSON_DEPTH}: a codec's decoder checks its input again
 * (library callers hand it objects), and for a body the router already checked that second check
 * costs one lookup instead of a second walk. A value changed after its check is not checked
 * again; nothing in this project deepens a checked body.
 */
const CHECKED = new WeakSet<object>();

/** Path segments shown before and after the cut in a path too deep to print whole. */
const PATH_HEAD = 8;
const PATH_TAIL = 2;

/**
 * Parses JSON text that a client or upstream sent, refusing nesting deeper than
 * {@link MAX_JSON_DEPTH}: throws `LlmError` `invalid_request` (400) whose `path` names where the
 * limit was crossed, or `invalid JSON` for text that is not JSON (the parser's message, which
 * quotes the input, stays in `cause`).
 *
 * `JSON.parse` itself reads any depth (V8 parses iteratively); what breaks is every recursive
 * walk after it (decoders, schema rewriters, `JSON.stringify`), so the check runs on the parsed
 * value: 6-14% of the parse time on 2 KB to 500 KB request bodies, against 20-30% for a
 * pre-scan of the text that skips string contents.
 */
export function parseJson(text: string, options: JsonDepthOptions = {}): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new LlmError({ kind: 'invalid_request', message: 'invalid JSON', path: '$', protocol: options.protocol, cause: error });
  }
  checkJsonDepth(value, options);
  return value;
}

/**
 * Throws `LlmError` `invalid_request` when `value` nests deeper than `maxDepth`, naming the path
 * where the limit was crossed (`tools[0].parameters.properties.a.properties.a…properties.a`).
 * For values that did not come through {@link parseJson}: a library caller's request object.
 */
export function checkJsonDepth(value: unknown, options: JsonDepthOptions = {}): void {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  if (typeof value !== 'object' || value === null) return;
  if (maxDepth >= MAX_JSON_DEPTH && CHECKED.has(value)) return;
  if (fits(value, maxDepth)) {
    if (maxDepth <= MAX_JSON_DEPTH && options.remember !== false) CHECKED.add(value);
    return;
  }
  const segments: PathKey[] = [];
  findCrossing(value, maxDepth, segments);
  const path = renderPath(segments.reverse(), options.path ?? '');
  throw new LlmError({ kind: 'invalid_request', message: `${path}: JSON nested deeper than ${maxDepth} levels`, path, protocol: options.protocol });
}

/**
 * The depth check of a value parsed from `text` and then dropped (an upstream stream event, a
 * tool call's argument text): skipped when the text is too short to nest past the limit (each
 * level takes two characters, `[` and `]`), which most are, and never remembered (a WeakSet entry
 * per value costs more than the walk it would save). Throws like {@link checkJsonDepth}.
 */
export function checkParsedDepth(text: string, value: unknown, options: JsonDepthOptions = {}): void {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  if (text.length <= 2 * maxDepth) return;
  checkJsonDepth(value, { ...options, remember: false });
}

/** Whether container `value` nests at most `room` levels. Recursion is bounded by `room`. */
function fits(value: object, room: number): boolean {
  if (room === 0) return false;
  if (Array.isArray(value)) {
    for (let at = 0; at < value.length; at++) {
      const item: unknown = value[at];
      if (typeof item === 'object' && item !== null && !fits(item, room - 1)) return false;
    }
    return true;
  }
  for (const key in value) {
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null && !fits(item, room - 1)) return false;
  }
  return true;
}

/** The error path only: pushes, deepest first, the keys leading to the first container past `room`. */
function findCrossing(value: object, room: number, segments: PathKey[]): boolean {
  if (room === 0) return true;
  const keys: PathKey[] = Array.isArray(value) ? value.map((_, at) => at) : Object.keys(value);
  for (const key of keys) {
    const item: unknown = (value as Record<PathKey, unknown>)[key];
    if (typeof item === 'object' && item !== null && findCrossing(item, room - 1, segments)) {
      segments.push(key);
      return true;
    }
  }
  return false;
}

/** `prefix` + the JSON path of `segments`, its middle cut when too long to read (`a.b.c….y.z`). */
function renderPath(segments: PathKey[], prefix: string): string {
  const join = (keys: PathKey[], start: string): string => keys.reduce<string>((path, key) => joinPath(path, key), start);
  if (segments.length <= PATH_HEAD + PATH_TAIL + 1) return join(segments, prefix) || '$';
  return join(segments.slice(-PATH_TAIL), `${join(segments.slice(0, PATH_HEAD), prefix)}…`);
}
