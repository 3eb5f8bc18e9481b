/**
 * Gemini's `:streamGenerateContent` without `alt=sse` answers one JSON array written
 * incrementally (`[{...}\n,\r\n{...}]`, content-type application/json). The router speaks SSE
 * only, so the gateway asks it for SSE and rewrites the events' data into the array form.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */

import { isReadableStream, readableFrom } from '@llm/core';
import type { RouterReply } from '@llm/router';

/** True when a Gemini stream request did not ask for SSE. */
export function wantsGeminiArray(url: URL): boolean {
  return url.pathname.endsWith(':streamGenerateContent') && url.searchParams.get('alt') !== 'sse';
}

/** An SSE answer rewritten as a JSON array stream; other answers (errors) are returned as they are. */
export function sseToGeminiArray(reply: RouterReply): RouterReply {
  if (!reply.body || typeof reply.body === 'string' || !(reply.headers['content-type'] ?? '').includes('text/event-stream')) return reply;
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = '';
  let count = 0;
  const emit = (controller: TransformStreamDefaultController<Uint8Array>, block: string) => {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
      .join('\n');
    if (!data) return;
    controller.enqueue(encoder.encode(`${count === 0 ? '[' : '\n,\r\n'}${data}`));
    count += 1;
  };
  const source = isReadableStream(reply.body) ? reply.body : readableFrom(reply.body);
  const body = source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = /\r?\n\r?\n/.exec(buffer);
        while (end) {
          emit(controller, buffer.slice(0, end.index));
          buffer = buffer.slice(end.index + end[0].length);
          end = /\r?\n\r?\n/.exec(buffer);
        }
      },
      flush(controller) {
        emit(controller, buffer + decoder.decode());
        controller.enqueue(encoder.encode(count === 0 ? '[]' : ']'));
      },
    }),
  );
  const { 'content-length': _length, ...headers } = reply.headers;
  headers['content-type'] = 'application/json; charset=UTF-8';
  return { status: reply.status, headers, body };
}
