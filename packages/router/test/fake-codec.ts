import {
  LlmError,
  errorKindForStatus,
  isJsonObject,
  joinUrl,
  opaqueStateWarning,
  readCredential,
  reportLoss,
  retryAfterFromHeaders,
  stepStream,
  type Codec,
  type LlmRequest,
  type LlmResponse,
  type LlmStreamEvent,
  type ProtocolId,
  type SseEvent,
  type StreamStep,
} from '@llm/core';
import { defaultCodecs } from '../src/registry.js';

/**
 * A codec for tests whose wire format is the canonical JSON itself, tagged with its protocol id.
 * Paths: POST /<id>/generate, POST /<id>/count, GET /<id>/models. Upstream requests go to
 * <baseUrl>/<id>/generate (?stream=1 when streaming) with a bearer key. Like the real codecs, it
 * drops foreign opaque state when encoding a request (with a `foreign-state` warning).
 */
const decoder: StreamStep<SseEvent, LlmStreamEvent> = {
  transform(event, out) {
    const parsed = JSON.parse(event.data) as LlmStreamEvent | { type: 'error'; error: { kind: string; message: string } };
    if (parsed.type === 'error') out.enqueue({ type: 'error', error: new LlmError({ kind: 'server', message: parsed.error.message }) });
    else out.enqueue(parsed as LlmStreamEvent);
  },
};

const encoder: StreamStep<LlmStreamEvent, SseEvent> = {
  transform(event, out) {
    const data = event.type === 'error' ? { type: 'error', error: { kind: event.error.kind, message: event.error.message } } : event;
    out.enqueue({ event: event.type, data: JSON.stringify(data) });
  },
};

/** The real codecs, whose traits and endpoints each fake of the same id shares. */
const realCodecs = defaultCodecs();

export function fakeCodec(id: ProtocolId): Codec {
  const real = realCodecs[id] as Codec;
  return {
    id,
    traits: real.traits,
    endpoints: real.endpoints,
    request: {
      decode(wire, context) {
        if (!isJsonObject(wire) || !Array.isArray(wire.messages)) throw LlmError.invalidRequest('messages', 'required', id);
        const request = structuredClone(wire) as unknown as LlmRequest;
        if (context?.model !== undefined) request.model = context.model;
        if (context?.stream !== undefined) request.stream = context.stream;
        return request;
      },
      encode(value, context) {
        const out = structuredClone(value);
        out.messages.forEach((message, messageIndex) => {
          if (message.role !== 'assistant') return;
          message.content = message.content.filter((part, partIndex) => {
            if ((part.type === 'reasoning' || part.type === 'tool-call' || part.type === 'text') && part.origin && part.origin.protocol !== id) {
              reportLoss(context, {
                ...opaqueStateWarning(`messages[${messageIndex}].content[${partIndex}]`, { foreign: part.origin, target: { protocol: id } }),
                protocol: id,
              });
              delete part.signature;
              delete part.origin;
              return part.type !== 'reasoning' || part.text !== '';
            }
            return true;
          });
        });
        return out;
      },
    },
    response: {
      decode(wire) {
        if (!isJsonObject(wire) || !Array.isArray(wire.choices)) throw LlmError.invalidRequest('choices', 'required', id);
        return structuredClone(wire) as unknown as LlmResponse;
      },
      answerFault: (wire) => (isJsonObject(wire) && Array.isArray(wire.choices) ? undefined : 'choices'),
      encode(value) {
        return structuredClone(value);
      },
    },
    stream: {
      decode: () => stepStream(decoder),
      encode: () => stepStream(encoder),
      decoder: () => decoder,
      encoder: () => encoder,
    },
    error: {
      decode(status, body, headers) {
        const message = isJsonObject(body) && isJsonObject(body.error) && typeof body.error.message === 'string' ? body.error.message : String(body);
        return new LlmError({
          kind: errorKindForStatus(status),
          status,
          message,
          protocol: id,
          retryAfterMs: headers ? retryAfterFromHeaders(headers) : undefined,
          raw: body,
        });
      },
      encode(error) {
        const headers: Record<string, string> | undefined =
          error.retryAfterMs !== undefined ? { 'retry-after': String(Math.ceil(error.retryAfterMs / 1000)) } : undefined;
        return { status: error.status, body: { error: { protocol: id, kind: error.kind, message: error.message } }, headers };
      },
    },
    http: {
      protocol: id,
      modelIn: 'body',
      streamIn: 'body',
      authSchemes: ['bearer'],
      matchRequest(method, url) {
        if (method === 'POST' && url.pathname === `/${id}/generate`) return { operation: 'generate' };
        if (method === 'POST' && url.pathname === `/${id}/count`) return { operation: 'count-tokens' };
        if (method === 'GET' && url.pathname === `/${id}/models`) return { operation: 'list-models' };
        return undefined;
      },
      ownsPath: (pathname) => pathname.startsWith(`/${id}/`),
      buildRequest(options) {
        const url = joinUrl(options.baseUrl, `/${id}/generate`) + (options.stream ? '?stream=1' : '');
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
        return { url, headers: { ...headers, ...options.headers } };
      },
      readCredential(headers, url) {
        return readCredential(['bearer'], headers, url);
      },
    },
  };
}

/** One fake codec per protocol. */
export function fakeCodecs(): Record<ProtocolId, Codec> {
  return {
    'openai-chat': fakeCodec('openai-chat'),
    'openai-responses': fakeCodec('openai-responses'),
    claude: fakeCodec('claude'),
    gemini: fakeCodec('gemini'),
    'bedrock-converse': fakeCodec('bedrock-converse'),
  };
}

/** SSE bytes of canonical events in the fake wire format. */
export function fakeSse(events: readonly unknown[]): string {
  return events.map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

/** A byte stream of `text`. */
export function bytesOf(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** Reads a byte stream to text. */
export async function textOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

/** Parses fake-wire SSE text back into its events' data. */
export function parseFakeSse(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map(
      (block) =>
        JSON.parse(
          block
            .split('\n')
            .find((line) => line.startsWith('data: '))
            ?.slice(6) ?? 'null',
        ) as unknown,
    );
}
