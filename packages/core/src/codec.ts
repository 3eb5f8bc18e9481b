import type { CodecEndpoints, CodecTraits } from './codec-traits.js';
import type { LlmError } from './errors.js';
import type { HeaderReader, HttpBinding } from './http.js';
import type { ProtocolId } from './protocol.js';
import type { LlmRequest } from './request.js';
import type { LlmResponse } from './response.js';
import type { SseEvent } from './sse/types.js';
import type { LlmStreamEvent } from './stream-event.js';
import { stepStream, type StreamStep } from './stream-step.js';
import type { CodecContext } from './warnings.js';

/**
 * One direction pair between a wire shape and its canonical form.
 * - `decode` reads untrusted input (typed `unknown`), validates as it reads and throws
 *   `LlmError` kind `invalid_request` with the JSON path of what is wrong.
 * - `encode` writes the wire shape and reports every loss through `context.warn`
 *   (or throws `unsupported` in strict mode).
 */
export interface Transcoder<Wire, Canonical> {
  decode(wire: unknown, context?: CodecContext): Canonical;
  encode(value: Canonical, context?: CodecContext): Wire;
}

/**
 * A codec's `response` member: the transcoder, and the cheap test of what an answer always has.
 * Answers come from upstreams: `decode` throws kind `upstream` (502) with the path of what is
 * missing or wrong on a body that is not this protocol's answer, never `invalid_request`.
 */
export interface ResponseTranscoder<Wire> extends Transcoder<Wire, LlmResponse> {
  /**
   * Where `wire` (any parsed JSON) fails to be this protocol's answer: the JSON path of the first
   * top-level marker every answer carries that it lacks or holds in the wrong type (`$` when it is
   * not an object), or `undefined` when it has them all. Reads a few top-level keys only, never
   * the content, and ignores added fields, so it costs the same for any body size: the router
   * runs it on same-protocol answers it passes through without decoding. `decode` refuses every
   * body this refuses (`answerDecoder` makes sure), and may refuse more.
   */
  answerFault(wire: unknown): string | undefined;
}

/** Options of stream transcoders. */
export interface StreamOptions extends CodecContext {
  /** Response id to use when encoding (defaults to the `start` event's, else a generated one). */
  id?: string;
  /** Include usage in the encoded stream where the protocol makes it optional (OpenAI chat). */
  includeUsage?: boolean;
}

/** The wire types a codec works with. */
export interface WireTypes {
  request: unknown;
  response: unknown;
  /** One SSE event's data payload (already JSON-parsed). */
  streamEvent: unknown;
  error: unknown;
}

/**
 * A protocol codec: decodes its wire format into the canonical model and encodes from it, for
 * requests, responses, streams and errors. Each codec package exports one, named after the
 * protocol (`openaiChat`, `openaiResponses`, `claude`, `gemini`).
 */
export interface Codec<W extends WireTypes = WireTypes> {
  readonly id: ProtocolId;
  readonly request: Transcoder<W['request'], LlmRequest>;
  readonly response: ResponseTranscoder<W['response']>;
  readonly stream: {
    /** Wire SSE events -> canonical events. Memory is bounded by the open blocks. */
    decode(options?: StreamOptions): TransformStream<SseEvent, LlmStreamEvent>;
    /** Canonical events -> wire SSE events, in the order the protocol's strict clients expect. */
    encode(options?: StreamOptions): TransformStream<LlmStreamEvent, SseEvent>;
    /**
     * `decode` as a synchronous step (`decode` is `stepStream(decoder(options))`): the router
     * fuses a whole translation into one stream stage with it.
     */
    decoder(options?: StreamOptions): StreamStep<SseEvent, LlmStreamEvent>;
    /** `encode` as a synchronous step (`encode` is `stepStream(encoder(options))`). */
    encoder(options?: StreamOptions): StreamStep<LlmStreamEvent, SseEvent>;
  };
  readonly error: {
    /** An upstream error (status and parsed body, or raw text) -> `LlmError`. */
    decode(status: number, body: unknown, headers?: HeaderReader): LlmError;
    /** `LlmError` -> the status and body this protocol's clients understand. */
    encode(error: LlmError): { status: number; body: W['error']; headers?: Record<string, string> };
  };
  readonly http: HttpBinding;
  /** The protocol's rules a translator applies (limits, tool names, stream shape): data, read once. */
  readonly traits: CodecTraits;
  /** Answers for the endpoints a router serves itself (model list, token estimate). */
  readonly endpoints: CodecEndpoints;
}

/**
 * A codec's `stream` member from its two step factories: `decode` / `encode` run the steps as
 * `TransformStream`s, so a codec writes its stream logic once.
 */
export function streamTranscoders(
  decoder: (options?: StreamOptions) => StreamStep<SseEvent, LlmStreamEvent>,
  encoder: (options?: StreamOptions) => StreamStep<LlmStreamEvent, SseEvent>,
): Codec['stream'] {
  return {
    decode: (options) => stepStream(decoder(options)),
    encode: (options) => stepStream(encoder(options)),
    decoder,
    encoder,
  };
}
