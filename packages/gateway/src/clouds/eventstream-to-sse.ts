import { anthropicErrorBody } from './bedrock-errors.js';

/** One decoded event-stream message: its headers (`:message-type`, `:event-type`...) and payload. */
export interface EventMessage {
  headers: Record<string, { type: string; value: unknown }>;
  body: Uint8Array;
}

/** Decodes one whole message, checking both of its CRCs (`@smithy/core`'s `EventStreamCodec.decode`). */
export type MessageDecoder = (frame: Uint8Array) => EventMessage;

/**
 * Longest event-stream message accepted (the format's own limit is 16 MiB of payload, 128 KiB of
 * headers): a length beyond it is a broken or hostile stream, ended with an error event instead
 * of being buffered.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024 + 128 * 1024 + 16;
/** Total length, headers length and prelude CRC; and the message CRC after the payload. */
const PRELUDE_BYTES = 12;
const MIN_MESSAGE_BYTES = PRELUDE_BYTES + 4;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const LEADING_TYPE = /^\s*\{\s*"type"\s*:\s*"([a-z_]+)"/;

/**
 * How one API's messages read as SSE: `message` writes one decoded message (an empty string
 * skips it), `failure` the event that ends a broken stream, in the form its codec reads.
 */
export interface SseWriter {
  message(message: EventMessage): string;
  failure(message: string): string;
}

/** A message's string header (`:event-type`, `:exception-type`...). */
export function stringHeader(message: EventMessage, name: string): string | undefined {
  const value = message.headers[name]?.value;
  return typeof value === 'string' ? value : undefined;
}

/** A message's payload as text. */
export function payloadText(message: EventMessage): string {
  return decoder.decode(message.body);
}

/** One SSE event: its name and one line of data. */
export function sseEvent(name: string, data: string): string {
  return `event: ${name}\ndata: ${data}\n\n`;
}

function anthropicFailure(name: string | undefined, message: string): string {
  return sseEvent('error', JSON.stringify(anthropicErrorBody(name, 500, JSON.stringify({ message }))));
}

/**
 * InvokeModelWithResponseStream for Claude as Anthropic SSE: a `chunk` event's payload
 * `{"bytes": "<base64>"}` holds one Anthropic stream event, written under its own `type` as event
 * name (the Claude codec and a pass-through client read both); an exception or error message
 * becomes Anthropic's `event: error`.
 */
export const anthropicSse: SseWriter = {
  message(message) {
    const kind = stringHeader(message, ':message-type');
    const payload = payloadText(message);
    if (kind === 'event') {
      if (stringHeader(message, ':event-type') !== 'chunk') return '';
      const { bytes } = JSON.parse(payload) as { bytes?: unknown };
      if (typeof bytes !== 'string') throw new Error('a Bedrock chunk without bytes');
      const json = Buffer.from(bytes, 'base64').toString('utf8');
      const type = LEADING_TYPE.exec(json)?.[1] ?? (JSON.parse(json) as { type?: unknown }).type;
      if (typeof type !== 'string') throw new Error('a Bedrock chunk whose event has no type');
      return sseEvent(type, json);
    }
    if (kind === 'exception') return sseEvent('error', JSON.stringify(anthropicErrorBody(stringHeader(message, ':exception-type'), 500, payload)));
    return anthropicFailure(stringHeader(message, ':error-code'), stringHeader(message, ':error-message') ?? 'Bedrock ended the stream with an error');
  },
  failure: (message) => anthropicFailure(undefined, message),
};

/**
 * Splits an AWS event stream (`application/vnd.amazon.eventstream`: length-prefixed binary
 * messages, split anywhere by the network) into messages and writes each as SSE with `writer`
 * (the API's own reading of them). A malformed message (bad CRC, impossible length, a chunk
 * that is not an event) or a stream cut mid-message ends the output with the writer's failure
 * event. The returned iterator's `return()` cancels the source at once, even while a read waits.
 */
export function eventStreamToSse(source: AsyncIterable<Uint8Array>, decode: MessageDecoder, writer: SseWriter): AsyncIterableIterator<Uint8Array> {
  const reads = source[Symbol.asyncIterator]();
  let buffered: Uint8Array = new Uint8Array(0);
  let ended = false;

  /** The SSE text of every whole message buffered; a malformed one ends it with an error event. */
  const drain = (): { text: string; broken: boolean } => {
    let text = '';
    let offset = 0;
    try {
      while (buffered.length - offset >= PRELUDE_BYTES) {
        const total = new DataView(buffered.buffer, buffered.byteOffset + offset, 4).getUint32(0);
        if (total < MIN_MESSAGE_BYTES || total > MAX_MESSAGE_BYTES) throw new Error(`an event-stream message of ${total} bytes`);
        if (buffered.length - offset < total) break;
        text += writer.message(decode(buffered.subarray(offset, offset + total)));
        offset += total;
      }
    } catch (error) {
      return { text: text + writer.failure(`unreadable Bedrock event stream: ${(error as Error).message}`), broken: true };
    }
    buffered = buffered.subarray(offset);
    return { text, broken: false };
  };

  const finish = (text: string): IteratorResult<Uint8Array> => {
    ended = true;
    void reads.return?.()?.catch(() => undefined);
    return { done: false, value: encoder.encode(text) };
  };

  const iterator: AsyncIterableIterator<Uint8Array> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      while (!ended) {
        const { done, value } = await reads.next();
        if (done) {
          ended = true;
          if (buffered.length > 0) return { done: false, value: encoder.encode(writer.failure('the Bedrock event stream ended in the middle of a message')) };
          break;
        }
        buffered = buffered.length === 0 ? value : concat(buffered, value);
        const { text, broken } = drain();
        if (broken) return finish(text);
        if (text !== '') return { done: false, value: encoder.encode(text) };
      }
      return { done: true, value: undefined };
    },
    async return() {
      ended = true;
      await reads.return?.();
      return { done: true, value: undefined };
    },
  };
  return iterator;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

let smithyDecoder: Promise<MessageDecoder> | undefined;

/** `@smithy/core`'s event-stream decoder, loaded on the first stream a Bedrock upstream answers. */
export function loadMessageDecoder(): Promise<MessageDecoder> {
  smithyDecoder ??= import('@smithy/core/event-streams').then(({ EventStreamCodec }) => {
    const codec = new EventStreamCodec(
      (bytes) => new TextDecoder().decode(bytes),
      (text) => new TextEncoder().encode(text),
    );
    return (frame) => codec.decode(frame) as ReturnType<MessageDecoder>;
  });
  return smithyDecoder;
}
