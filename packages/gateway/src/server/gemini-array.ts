/**
 * Gemini's `:streamGenerateContent` without `alt=sse` answers one JSON array written
 * incrementally (`[{...}\n,\r\n{...}]`, content-type application/json). The router speaks SSE
 * only, so the gateway asks it for SSE and rewrites the events' data into the array form.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */

import { chunksOf, joinTextStep, pipeSteps, type SseEvent, sseDecoder, stepIterable, type StreamStep } from '@llm/core';
import type { RouterReply } from '@llm/router';

/** True when a Gemini stream request did not ask for SSE. */
export function wantsGeminiArray(url: URL): boolean {
  return url.pathname.endsWith(':streamGenerateContent') && url.searchParams.get('alt') !== 'sse';
}

/** An SSE answer rewritten as a JSON array stream; other answers (errors) are returned as they are. */
export function sseToGeminiArray(reply: RouterReply): RouterReply {
  if (!reply.body || typeof reply.body === 'string' || !(reply.headers['content-type'] ?? '').includes('text/event-stream')) return reply;
  const encoder = new TextEncoder();
  const bytes: StreamStep<string | Uint8Array, Uint8Array> = {
    transform: (chunk, out) => out.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk),
  };
  let count = 0;
  const arrayItems: StreamStep<SseEvent, string> = {
    transform(event, out) {
      if (!event.data) return;
      out.enqueue(`${count === 0 ? '[' : '\n,\r\n'}${event.data}`);
      count += 1;
    },
    flush(out) {
      out.enqueue(count === 0 ? '[]' : ']');
    },
  };
  const body = stepIterable(chunksOf(reply.body), joinTextStep(pipeSteps(pipeSteps(bytes, sseDecoder()), arrayItems)));
  const { 'content-length': _length, ...headers } = reply.headers;
  headers['content-type'] = 'application/json; charset=UTF-8';
  return { status: reply.status, headers, body };
}
