import type { LlmError } from '../errors.js';
import { checkParsedDepth } from '../json-depth.js';
import type { ProtocolId } from '../protocol.js';
import { invalidUpstream, upstreamDecodeFailure } from '../upstream-errors.js';

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
