import type { LlmError } from '../errors.js';
import { checkParsedDepth } from '../json-depth.js';
import type { ProtocolId } from '../protocol.js';
import { invalidUpstream, upstreamDecodeFailure } from '../upstream-errors.js';
import { JsonShape, learnJsonShape } from './json-shape.js';

/** What {@link readSseJson} found: the event's JSON object, or the error that ends the stream. */
export type SseJson = { payload: Record<string, unknown>; error?: undefined } | { payload?: undefined; error: LlmError };

/**
 * The preamble every stream decoder runs on an upstream SSE event's data: parse it, refuse
 * nesting deeper than `MAX_JSON_DEPTH`, and require a JSON object. Never throws: what is wrong
 * comes back as the `upstream` error (502) that ends the stream, naming `what` ("stream event",
 * "stream chunk").
 */
export function readSseJson(protocol: ProtocolId, data: string, what: string): SseJson {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
    checkParsedDepth(data, payload);
  } catch (error) {
    return { error: upstreamDecodeFailure(protocol, what, error) };
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return { error: invalidUpstream(protocol, what) };
  return { payload: payload as Record<string, unknown> };
}

/**
 * {@link readSseJson} for the events of one stream, in order: an event with the shape of the one
 * before it (the same bytes but for a few string or integer leaves, as deltas are) is read by
 * matching that shape instead of parsing it (see json-shape.ts); the value is the one
 * `JSON.parse` gives, a fresh object each time. Any other event is parsed as by `readSseJson`.
 */
export class SseJsonReader {
  private shape: JsonShape | undefined;
  /** The last event parsed whole, to learn a shape from with the next one. */
  private previous: unknown;
  /** Events still to parse before learning is tried again, after it failed. */
  private rest = 0;

  constructor(private readonly protocol: ProtocolId) {}

  read(data: string, what: string): SseJson {
    const payload = this.shape?.read(data);
    if (payload !== undefined) return { payload };
    const json = readSseJson(this.protocol, data, what);
    if (json.payload !== undefined) this.learn(json.payload, data);
    return json;
  }

  private learn(payload: Record<string, unknown>, data: string): void {
    const previous = this.previous;
    this.previous = payload;
    if (this.rest > 0) {
      this.rest--;
      return;
    }
    if (previous === undefined) return;
    const shape = learnJsonShape(previous, payload, data);
    if (shape instanceof JsonShape) this.shape = shape;
    // Alike events whose holes cannot be read from their text (escaped differently, duplicate
    // keys): learning is tried again later, so such a stream pays for it on one event in eight.
    else if (shape === undefined) this.rest = 7;
  }
}
