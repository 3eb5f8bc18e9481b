import type { SseEvent } from './types.js';

/**
 * An SSE event a stream encoder wrote itself: `data` is one line of JSON as `JSON.stringify`
 * writes it (which never holds a raw CR or LF) and `event`, if any, is a name of the protocol's
 * own, with no line break either. `formatSseEvent` writes it without scanning both for line
 * breaks: a client stream has one such event per delta, and the scan of a freshly concatenated
 * `data` also flattened it, a copy the write of the joined text makes anyway.
 *
 * Only for text known to be one line: anything else (an upstream's data, a caller's event) goes
 * as a plain {@link SseEvent}, whose lines are split.
 */
export class JsonSseEvent implements SseEvent {
  constructor(
    readonly event: string | undefined,
    /** One line of JSON (`JSON.stringify` output, or text made of such pieces). */
    readonly data: string,
  ) {}
}
