import type { EventSourceMessage } from 'eventsource-parser';

/**
 * One server-sent event: the optional `event:` name, the `data:` payload (lines joined with
 * `\n`) and the optional `id:`. This is eventsource-parser's `EventSourceMessage`; unlike a
 * browser `EventSource`, a missing `event:` stays `undefined` rather than `"message"`.
 */
export type SseEvent = EventSourceMessage;
