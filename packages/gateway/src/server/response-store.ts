import { chunksOf, parseSseText, type SseEvent, stepIterable, type StreamStep } from '@llm/core';
import type { RouterReply } from '@llm/router';
import type { AnswerStore } from '../store/answer-store.js';

/** Default count bound of a {@link ResponseStore}. */
export const DEFAULT_MAX_STORED_RESPONSES = 256;

/** Default size bound of a {@link ResponseStore}: 32 Mi characters of JSON text. */
export const DEFAULT_MAX_STORED_RESPONSE_CHARS = 32 * 1024 * 1024;

/**
 * Stored Responses for `GET /v1/responses/{id}`. Upstreams of other protocols keep nothing a
 * Responses client can fetch back, so the gateway keeps the last answers it served itself: a
 * bounded, in-memory map (oldest evicted first). An answer the router marks not retrievable (the
 * client sent `store: false`) is not kept, as OpenAI keeps nothing then. Only the final response object is kept:
 * JSON bodies as they are, streams from their `response.completed` event, found by a light scan
 * that never parses the other events.
 *
 * Each answer belongs to the client key that created it (its key id; undefined for an open
 * gateway, one shared owner): another key is told it does not exist. An upstream that reuses
 * ids makes the later answer replace the earlier one, never serve it to another key.
 *
 * Bounds: {@link DEFAULT_MAX_STORED_RESPONSES} answers and {@link DEFAULT_MAX_STORED_RESPONSE_CHARS}
 * characters of JSON text (about as many bytes), the oldest evicted first.
 */
export class ResponseStore implements AnswerStore {
  private readonly entries = new Map<string, StoredResponse>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = DEFAULT_MAX_STORED_RESPONSES,
    private readonly maxBytes = DEFAULT_MAX_STORED_RESPONSE_CHARS,
  ) {}

  /** The response object stored under `id` for `owner`; undefined when missing or another owner's. */
  get(id: string, owner?: string): string | undefined {
    const entry = this.entries.get(id);
    return entry !== undefined && entry.owner === owner ? entry.json : undefined;
  }

  /**
   * Keeps one response object (its JSON text, as the router wrote it) under its `id`, for
   * `owner`; ignores text without one.
   */
  put(json: string, owner?: string): void {
    const id = responseIdOf(json);
    if (id === undefined || json.length > this.maxBytes) return;
    this.delete(id);
    this.entries.set(id, { json, owner });
    this.bytes += json.length;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
  }

  /**
   * The router's answer with its final response kept: a JSON body (complete anyway) is kept as
   * it is; a stream passes through untouched while the scan watches it.
   */
  capture(reply: RouterReply, owner?: string): RouterReply {
    return captureAnswer(this, reply, owner);
  }

  private delete(id: string): void {
    const old = this.entries.get(id);
    if (old === undefined) return;
    this.entries.delete(id);
    this.bytes -= old.json.length;
  }
}

/**
 * The router's answer with its final response kept in `store`: a JSON body (complete anyway) is
 * kept as it is; a stream passes through untouched while the scan watches it.
 */
export function captureAnswer(store: AnswerStore, reply: RouterReply, owner?: string): RouterReply {
  if (reply.status !== 200 || !reply.body || reply.retrievable === false) return reply;
  const type = reply.headers['content-type'] ?? '';
  if (typeof reply.body === 'string') {
    if (type.includes('application/json')) store.put(reply.body, owner);
    return reply;
  }
  if (!type.includes('text/event-stream')) return reply;
  return {
    ...reply,
    body: stepIterable(
      chunksOf(reply.body),
      completedEventTap((data) => store.put(extractResponse(data), owner)),
    ),
  };
}

/** One kept answer and the key id it belongs to. */
interface StoredResponse {
  json: string;
  owner: string | undefined;
}

/** `{"id":"..."` at the very start: the response object's own id, as OpenAI and the codecs write it first. */
const LEADING_ID = /^\{\s*"id"\s*:\s*("(?:[^"\\]|\\.)*")/;

/**
 * The `id` of a response object's JSON text. Read from the start of the text when it leads (no
 * parse of the whole answer on every request); otherwise the text is parsed.
 */
export function responseIdOf(json: string): string | undefined {
  try {
    const leading = LEADING_ID.exec(json);
    const id: unknown = leading ? JSON.parse(leading[1] as string) : (JSON.parse(json) as { id?: unknown }).id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

const MARKER = 'response.completed';

/** The `response` member of a `response.completed` event's data, as JSON text. */
function extractResponse(data: string): string {
  try {
    const event = JSON.parse(data) as { response?: unknown };
    return event.response === undefined ? '' : JSON.stringify(event.response);
  } catch {
    return '';
  }
}

/** True for the event that carries the final response: named so, or typed so in its data. */
function isCompletedEvent(event: SseEvent): boolean {
  return event.event === MARKER || (event.event === undefined && event.data.startsWith(`{"type":"${MARKER}"`));
}

/**
 * Passes chunks through; text is only accumulated from the line holding the first
 * `response.completed` on (the current partial line is kept until then, so the marker may
 * straddle chunks), and at the end that text is read with core's `parseSseText`: the completed
 * event's data goes to `onData`, whether the event is named by an `event:` line or only by the
 * `type` in its data.
 */
function completedEventTap(onData: (data: string) => void): StreamStep<string | Uint8Array, string | Uint8Array> {
  const decoder = new TextDecoder();
  let line = '';
  let captured: string | undefined;
  return {
    transform(chunk, out) {
      out.enqueue(chunk);
      const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      if (captured !== undefined) {
        captured += text;
        return;
      }
      const window = line + text;
      const at = window.indexOf(MARKER);
      if (at >= 0) captured = window.slice(window.lastIndexOf('\n', at) + 1);
      else line = window.slice(window.lastIndexOf('\n') + 1);
    },
    flush() {
      if (captured === undefined) return;
      const completed = parseSseText(captured).find(isCompletedEvent);
      if (completed) onData(completed.data);
    },
  };
}
