import type { StreamStep } from '../stream-step.js';
import { JsonSseEvent } from './json-event.js';
import type { SseEvent } from './types.js';

const LINE_BREAK = /\r\n|\r|\n/;
const CONTROL_BREAKS = /[\r\n]/g;

/**
 * Formats one event as SSE text: `event:` (if any), `id:` (if any), one `data:` line per line of
 * `data`, then a blank line. CR and LF are stripped from `event` and `id`, where they would
 * otherwise inject extra fields.
 */
export function formatSseEvent(event: SseEvent): string {
  // An encoder's own JSON line: nothing to strip or split.
  if (event instanceof JsonSseEvent) return event.event === undefined ? `data: ${event.data}\n\n` : `event: ${event.event}\ndata: ${event.data}\n\n`;
  let out = '';
  if (event.event !== undefined) out += `event: ${withoutBreaks(event.event)}\n`;
  if (event.id !== undefined) out += `id: ${withoutBreaks(event.id)}\n`;
  const data = event.data;
  // JSON payloads (the usual case) never contain raw line breaks: skip the split.
  if (data.indexOf('\n') === -1 && data.indexOf('\r') === -1) {
    out += `data: ${data}\n\n`;
    return out;
  }
  for (const line of data.split(LINE_BREAK)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/** `field` without CR and LF; event names (one per event of most streams) have none, so no regex runs. */
function withoutBreaks(field: string): string {
  return field.indexOf('\n') === -1 && field.indexOf('\r') === -1 ? field : field.replace(CONTROL_BREAKS, '');
}

/** {@link formatSseEvent} as a stream step (events in, SSE text out). */
export const sseEncoder: StreamStep<SseEvent, string> = {
  transform: (event, out) => out.enqueue(formatSseEvent(event)),
};

/** A `TransformStream` from events to UTF-8 SSE bytes, one chunk per event. */
export function encodeSse(): TransformStream<SseEvent, Uint8Array> {
  const encoder = new TextEncoder();
  return new TransformStream<SseEvent, Uint8Array>({
    transform: (event, controller) => controller.enqueue(encoder.encode(formatSseEvent(event))),
  });
}

/** Response headers for an SSE answer. */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  // Tells nginx-style proxies not to buffer the stream.
  'x-accel-buffering': 'no',
});
