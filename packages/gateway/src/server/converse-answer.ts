/**
 * Bedrock ConverseStream answers AWS event streams (`application/vnd.amazon.eventstream`): binary
 * messages with typed headers, one per stream event. The router speaks SSE only (the Converse
 * codec writes each event as `event: <:event-type>` and its JSON), so the gateway re-frames its
 * SSE as event-stream messages for AWS SDK clients: an event under `:event-type`, an exception
 * (`throttlingException`...) under `:exception-type`. The encoder is `@smithy/core`'s, loaded on
 * the first ConverseStream call.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */

import { chunksOf, pipeSteps, type SseEvent, sseDecoder, stepIterable, type StreamStep } from '@llm/core';
import type { RouterReply } from '@llm/router';

type MessageEncoder = (message: { headers: Record<string, { type: 'string'; value: string }>; body: Uint8Array }) => Uint8Array;

let encoderLoad: Promise<MessageEncoder> | undefined;

function loadEncoder(): Promise<MessageEncoder> {
  encoderLoad ??= import('@smithy/core/event-streams').then(({ EventStreamCodec }) => {
    const codec = new EventStreamCodec(
      (bytes) => new TextDecoder().decode(bytes),
      (text) => new TextEncoder().encode(text),
    );
    return (message) => codec.encode(message);
  });
  return encoderLoad;
}

/** True for a ConverseStream call (`POST /model/{modelId}/converse-stream`). */
export function isConverseStream(url: URL): boolean {
  return /\/converse-stream\/?$/.test(url.pathname);
}

const text = (value: string) => ({ type: 'string' as const, value });

/** An SSE answer rewritten as an AWS event stream; other answers (errors, JSON) are returned as they are. */
export async function sseToEventStream(reply: RouterReply): Promise<RouterReply> {
  if (!reply.body || typeof reply.body === 'string' || !(reply.headers['content-type'] ?? '').includes('text/event-stream')) return reply;
  const encode = await loadEncoder();
  const encoder = new TextEncoder();
  const bytes: StreamStep<string | Uint8Array, Uint8Array> = {
    transform: (chunk, out) => out.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk),
  };
  const messages: StreamStep<SseEvent, Uint8Array> = {
    transform(event, out) {
      if (!event.event || !event.data) return;
      const exception = event.event.endsWith('Exception');
      const headers = {
        ':message-type': text(exception ? 'exception' : 'event'),
        [exception ? ':exception-type' : ':event-type']: text(event.event),
        ':content-type': text('application/json'),
      };
      out.enqueue(encode({ headers, body: encoder.encode(event.data) }));
    },
  };
  const body = stepIterable(chunksOf(reply.body), pipeSteps(pipeSteps(bytes, sseDecoder()), messages));
  const { 'content-length': _length, ...headers } = reply.headers;
  headers['content-type'] = 'application/vnd.amazon.eventstream';
  return { status: reply.status, headers, body };
}
