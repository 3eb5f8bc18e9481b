import { type CancelSignal, type HeaderReader, isReadableStream, readableFrom } from '@llm/core';

/**
 * An inbound call as the router reads it. A WHATWG `Request` is one; a server may pass a lighter
 * object over its own request (no `Request` / `Headers` built per call).
 */
export interface RouterRequest {
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  /** `url` already parsed, when the server has it: the router then does not parse it again. */
  readonly parsedUrl?: URL;
  readonly headers: HeaderReader;
  /** Aborted when the client goes away; cancels the upstream call. An `AbortSignal` is one. */
  readonly signal?: CancelSignal;
  /** The whole body as text. */
  text(): Promise<string>;
  /** The id to report this call under (records, `x-request-id`); default: a fresh UUID. */
  readonly requestId?: string;
  /** An id of the client's credential (never the key itself), copied to the call's record. */
  readonly clientKeyId?: string;
}

/**
 * The router's answer before any server writes it: a whole text body, a stream, or none. A
 * streamed answer is an async iterable of text and byte chunks (the router's own streams: no Web
 * stream per answer) or a byte `ReadableStream`; a server stops early with the iterator's
 * `return()`, which cancels the upstream call. {@link toResponse} makes a WHATWG `Response` of
 * it; a Node server can write it directly.
 */
export interface RouterReply {
  status: number;
  headers: Record<string, string>;
  body: string | ReadableStream<Uint8Array> | AsyncIterable<string | Uint8Array> | null;
  /**
   * False when the answer must not be served back later (`GET /v1/responses/{id}`): the
   * Responses client sent `store: false`, as OpenAI then keeps nothing. Not a wire header.
   */
  retrievable?: boolean;
}

/** Serves one call: what {@link createRouter} returns. */
export type ReplyHandler = (request: RouterRequest) => Promise<RouterReply>;

/** A WHATWG `Response` of a reply. */
export function toResponse(reply: RouterReply): Response {
  const { body } = reply;
  const init = { status: reply.status, headers: reply.headers };
  if (body === null || typeof body === 'string' || isReadableStream(body)) return new Response(body, init);
  return new Response(readableFrom(body), init);
}
