// Helpers for golden stream sequences shared by the codecs' tests (how a stream ended).

/** A canonical stream event as far as these helpers look at it (structural: no import of core). */
interface StreamEventLike {
  type: string;
  error?: { toJSON(): unknown };
}

/**
 * The events with each `error` event's LlmError as its JSON (kind, status, message, protocol,
 * code...), so a whole sequence compares with `toEqual` down to the error's fields.
 */
export function errorsAsJson(events: readonly StreamEventLike[]): unknown[] {
  return events.map((event) => (event.type === 'error' && event.error ? { type: 'error', error: event.error.toJSON() } : event));
}

/** An SSE event named after its payload's `type` (Claude's and Responses' framing). */
export function typedSseEvent(payload: Record<string, unknown>): { event: string; data: string; id: undefined } {
  return { event: payload.type as string, data: JSON.stringify(payload), id: undefined };
}
