import {
  LlmError,
  LlmStreamAccumulator,
  checkRequestSchemas,
  OPAQUE_STATE_PREFIX,
  isJsonObject,
  joinTextStep,
  pipeSteps,
  reportForeignExtensions,
  responseToEvents,
  sseDecoder,
  sseEncoder,
  chunksOf,
  readableFrom,
  stepIterable,
  textStepStream,
  unrecognizedAnswer,
  upstreamDecodeFailure,
  type Codec,
  type CodecContext,
  type LlmRequest,
  type LlmResponse,
  type LlmStreamEvent,
  type LlmWarning,
  type StepOutput,
  type StreamOptions,
  type StreamStep,
} from '@llm/core';
import { openRequestState } from './open-state.js';
import { fixRequestForTarget } from './request-fixes.js';
import { fixToolCallFinish, fixToolCallFinishStep } from './response-fixes.js';
import { sealResponse, sealStep } from './seal-state.js';
import { serializeBlocksStep } from './serialize-blocks.js';
import { streamUsageEstimateStep, type StreamUsageEstimate } from './policies/stream-usage-estimate.js';
import { passThroughErrorText, type StartEvent } from './pass-through-end.js';
import { StreamFailure, guardStream, type GuardedInput, type StreamGuard } from './stream-guard.js';
import { adaptTools, isEmptyAdaptation, restoreToolCalls, restoreToolStep, type ToolAdaptation } from './tool-adaptation.js';

/** Options of {@link bridge}. */
export interface BridgeOptions {
  /** Codec of the protocol the client speaks. */
  client: Codec;
  /** Codec of the protocol the upstream speaks. */
  upstream: Codec;
  /** Turn translation losses into `unsupported` errors. */
  strict?: boolean;
  /** Receives every translation warning. */
  warn?: (warning: LlmWarning) => void;
  /**
   * Canonical rewrite run on every request (policies, hooks). When set, same-protocol requests
   * are decoded and re-encoded too instead of taking the fast path.
   */
  transformRequest?: (request: LlmRequest) => LlmRequest;
  /**
   * Ask the upstream encoder for strict tool and response schemas (`CodecContext.strictTools`)
   * on every request, the same protocol included (no pass-through then). Without it they are asked
   * for only when the client sent a `strict: true` function tool and the upstream's codec enforces
   * strict schemas (`traits.strictSchemas`).
   */
  strictTools?: boolean;
  /** Canonical rewrite run on every non-streaming response. */
  transformResponse?: (response: LlmResponse) => LlmResponse;
  /**
   * The id the client sees for this answer, instead of the upstream's (the router mints
   * Responses ids for answers from other protocols): set on the decoded response and on the
   * stream's `start` event, so every event carrying the id agrees.
   */
  answerId?: string;
}

/** Per-request inputs of {@link Bridge.request}. */
export interface BridgeRequestOptions {
  /** Model the client named outside the body (Gemini URLs). */
  model?: string;
  /** Stream flag the client set outside the body (Gemini URLs). */
  stream?: boolean;
  /** Model to send upstream instead of the client's. */
  upstreamModel?: string;
  /**
   * The body's JSON text, when the caller has it. On the same-protocol fast path it rules out
   * opaque-state carriers without walking the parsed tree: text with no carrier prefix and no
   * `\u` escape cannot hold one.
   */
  text?: string;
}

/** A translated request, ready for the upstream codec's HTTP binding. */
export interface BridgedRequest {
  /** Body in the upstream protocol. */
  body: unknown;
  /** Model to name upstream (in the body already when the upstream carries it there). */
  model: string;
  /** Model the client asked for. */
  clientModel: string;
  stream: boolean;
  /** The canonical request, when the request was decoded (not on the same-protocol fast path). */
  canonical?: LlmRequest;
}

/** Options of the stream translators. */
export interface BridgeStreamOptions {
  /** Sees every canonical event on its way (usage for ledgers). */
  onEvent?: (event: LlmStreamEvent) => void;
  /** Include usage where the client protocol makes it optional. */
  includeUsage?: boolean;
  /** Estimate usage the upstream does not report (translated streams only; see `streamUsageEstimateStep`). */
  estimateUsage?: StreamUsageEstimate;
}

/**
 * Translators of answers to one exchange: they undo what translating its request changed (tool
 * names the target rejected, freeform tools sent as functions), so each exchange has its own.
 */
export interface BridgeAnswers {
  /**
   * Upstream response body -> client response body. `onDecoded` sees the canonical response
   * when one is made (not on a same-protocol pass-through), before it is encoded for the client.
   * Throws the `upstream` error (502) of a body that is not the upstream protocol's answer, the
   * passed-through one included (checked by `response.answerFault`).
   */
  response(body: unknown, onDecoded?: (response: LlmResponse) => void): unknown;
  /** Upstream SSE bytes -> client SSE bytes. */
  stream(body: ReadableStream<Uint8Array>, options?: BridgeStreamOptions): ReadableStream<Uint8Array>;
  /**
   * {@link BridgeAnswers.stream} over async iterables, with no Web stream built: upstream SSE
   * chunks in, client SSE out (text per upstream read; the bytes themselves on a same-protocol
   * pass-through). `onEnd` runs once when the answer ends, fails or is abandoned (`return()`).
   */
  streamChunks(body: AsyncIterable<Uint8Array>, options?: BridgeStreamOptions & { onEnd?: () => void }): AsyncIterable<string | Uint8Array>;
  /** Upstream SSE bytes -> client response body (streaming upstream, non-streaming client). */
  streamToResponse(body: ReadableStream<Uint8Array>, options?: BridgeStreamOptions): Promise<unknown>;
  /** Upstream response body -> client SSE bytes (non-streaming upstream, streaming client). */
  responseToStream(body: unknown, options?: BridgeStreamOptions): ReadableStream<Uint8Array>;
  /** Upstream error -> client status, body and headers. */
  error(status: number, body: unknown, headers?: { get(name: string): string | null }): { status: number; body: unknown; headers?: Record<string, string> };
  /** Any error (an `LlmError` or anything thrown) -> client status, body and headers. */
  encodeError(error: unknown): { status: number; body: unknown; headers?: Record<string, string> };
  /** Upstream response body -> the canonical response the client's would be made from (for loops that read answers). */
  decode(body: unknown): LlmResponse;
  /** Upstream SSE chunks -> canonical events, always ending with a finish or an error (a failed read included). */
  decodeStream(body: AsyncIterable<Uint8Array>): AsyncIterable<LlmStreamEvent>;
  /** A canonical response -> the client's response body. */
  encodeResponse(response: LlmResponse): unknown;
  /** Canonical events -> the client's SSE text; `onEnd` runs once when they end, fail or are abandoned. */
  encodeStream(events: AsyncIterable<LlmStreamEvent>, options?: BridgeStreamOptions & { onEnd?: () => void }): AsyncIterable<string>;
}

/**
 * One exchange through a {@link Bridge}: the translated request, and `answers`, the translators
 * of its answer. Made per request by {@link Bridge.request} (as envoy's translators are "created
 * per request"): it holds the only per-request state, so exchanges of one bridge never mix.
 */
export interface BridgeExchange extends BridgedRequest {
  /** Translates this request's answer (and errors), undoing the request's tool adaptation. */
  readonly answers: BridgeAnswers;
}

/**
 * Translators from one client protocol to one upstream protocol. Stateless: one bridge serves any
 * number of exchanges, at once or in turn. Its own answer translators are for answers whose
 * request it did not translate (a captured answer, translated offline): they restore no tool
 * names. The answer to a request {@link Bridge.request} translated goes through that exchange's
 * `answers`.
 */
export interface Bridge extends BridgeAnswers {
  readonly client: Codec;
  readonly upstream: Codec;
  /** True when both sides speak the same protocol (payloads pass through). */
  readonly sameProtocol: boolean;
  /** Translates one request; the exchange returned translates its answer. */
  request(body: unknown, options?: BridgeRequestOptions): BridgeExchange;
}

/** No tool was adapted: nothing to restore. Shared, never written. */
const NO_ADAPTATION: ToolAdaptation = Object.freeze({ names: new Map<string, string>(), freeform: new Set<string>() });

/**
 * Builds the translators between a client protocol and an upstream protocol. Works over any two
 * codecs; the same codec on both sides keeps payloads intact except the model rewrite.
 */
export function bridge(options: BridgeOptions): Bridge {
  const shared = new BridgeShared(options);
  const offline = shared.offline;
  return {
    client: shared.client,
    upstream: shared.upstream,
    sameProtocol: shared.sameProtocol,
    request: (body, requestOptions) => shared.request(body, requestOptions),
    response: (body, onDecoded) => offline.response(body, onDecoded),
    stream: (body, streamOptions) => offline.stream(body, streamOptions),
    streamChunks: (body, streamOptions) => offline.streamChunks(body, streamOptions),
    streamToResponse: (body, streamOptions) => offline.streamToResponse(body, streamOptions),
    responseToStream: (body, streamOptions) => offline.responseToStream(body, streamOptions),
    error: (status, body, headers) => offline.error(status, body, headers),
    encodeError: (error) => offline.encodeError(error),
    decode: (body) => offline.decode(body),
    decodeStream: (body) => offline.decodeStream(body),
    encodeResponse: (response) => offline.encodeResponse(response),
    encodeStream: (events, streamOptions) => offline.encodeStream(events, streamOptions),
  };
}

/** What every exchange of one bridge shares: the codecs, the options and the request translation. */
class BridgeShared {
  readonly client: Codec;
  readonly upstream: Codec;
  readonly sameProtocol: boolean;
  /**
   * One context for every codec call that adds nothing to it (most of them); frozen, so a codec
   * that wrote into it would fail loudly instead of leaking into the exchange's other calls.
   */
  readonly baseContext: CodecContext;
  /** Answer translators with no adaptation to undo (same-protocol exchanges, offline answers). */
  readonly offline: AnswerTranslators;

  constructor(readonly options: BridgeOptions) {
    this.client = options.client;
    this.upstream = options.upstream;
    this.sameProtocol = options.client.id === options.upstream.id;
    this.baseContext = Object.freeze({ warn: options.warn, strict: options.strict });
    this.offline = new AnswerTranslators(this, NO_ADAPTATION);
  }

  context(extra?: Partial<CodecContext>): CodecContext {
    return extra ? { ...this.baseContext, ...extra } : this.baseContext;
  }

  request(body: unknown, requestOptions: BridgeRequestOptions = {}): BridgeExchange {
    const { options, upstream, client } = this;
    // The fast path keeps the body as is, unless it holds carriers the router sealed for another
    // upstream earlier in the conversation: those must be opened or dropped (a provider rejects
    // state it did not issue, such as a foreign thinking signature).
    if (this.sameProtocol && !options.transformRequest && !options.strictTools && isJsonObject(body) && !mayHoldCarrier(body, requestOptions.text)) {
      const clientModel = requestOptions.model ?? (typeof body.model === 'string' ? body.model : '');
      const model = requestOptions.upstreamModel ?? clientModel;
      const stream = requestOptions.stream ?? body.stream === true;
      const out = upstream.http.modelIn === 'body' && model !== clientModel ? { ...body, model } : body;
      return { body: out, model, clientModel, stream, answers: this.offline };
    }
    const decodeContext = this.context({ model: requestOptions.model, stream: requestOptions.stream });
    let canonical = openRequestState(client.request.decode(body, decodeContext), decodeContext);
    // A malformed tool or response schema is the client's 400 naming the tool and path, not the
    // upstream's error in another protocol's words. (The same-protocol fast path above leaves it
    // to the upstream, whose answer is then already in the client's protocol.)
    checkRequestSchemas(canonical);
    // Fields the client codec kept only for its own protocol go nowhere else: say so.
    reportForeignExtensions(canonical, client.id, upstream.id, this.context());
    const clientModel = canonical.model;
    canonical.model = requestOptions.upstreamModel ?? clientModel;
    if (options.transformRequest) canonical = options.transformRequest(canonical);
    canonical = fixRequestForTarget(canonical, upstream, this.context());
    const adaptation = adaptTools(canonical, upstream, this.context());
    const stream = canonical.stream === true;
    // Some upstreams (Chat) stream usage only when asked; the client's answer and the ledger need it.
    const sent = upstream.traits.streamUsageOnRequest && stream && !canonical.streamUsage ? { ...canonical, streamUsage: true } : canonical;
    const encodeContext: Partial<CodecContext> = { model: canonical.model, stream };
    if (options.strictTools || (upstream.traits.strictSchemas && hasStrictTool(canonical))) encodeContext.strictTools = true;
    const encoded = upstream.request.encode(sent, this.context(encodeContext));
    const answers = isEmptyAdaptation(adaptation) ? this.offline : new AnswerTranslators(this, adaptation);
    return { body: encoded, model: canonical.model, clientModel, stream, canonical, answers };
  }
}

/** The answer translators of one exchange (see {@link BridgeExchange}). */
class AnswerTranslators implements BridgeAnswers {
  constructor(
    private readonly shared: BridgeShared,
    /** How the exchange's request adapted its tools: answers are mapped back with it. */
    private readonly adaptation: ToolAdaptation,
  ) {}

  private decodeResponse(body: unknown): LlmResponse {
    const { upstream, options } = this.shared;
    let decoded: LlmResponse;
    try {
      decoded = upstream.response.decode(body, this.shared.context());
    } catch (error) {
      throw upstreamDecodeFailure(upstream.id, 'answer', error);
    }
    if (options.answerId !== undefined) decoded.id = options.answerId;
    const response = fixToolCallFinish(decoded);
    for (const choice of response.choices) restoreToolCalls(choice.content, this.adaptation);
    return options.transformResponse ? options.transformResponse(response) : response;
  }

  // Streams run as one fused step per exchange (see @llm/core's stream-step.ts): SSE bytes of the
  // upstream -> canonical events -> SSE text of the client, with no Web stream stage in between.

  /**
   * Upstream SSE bytes (or the read failure that ended them) -> canonical events that always end
   * with a finish or an error (see stream-guard.ts), tapped when asked. `guard` is the first stage.
   */
  private eventsOf(streamOptions?: BridgeStreamOptions): { guard: StreamGuard; events: StreamStep<GuardedInput, LlmStreamEvent> } {
    const { upstream, options } = this.shared;
    const guard = guardStream(pipeSteps(sseDecoder(), upstream.stream.decoder(this.shared.context())), upstream.id);
    let events = pipeSteps(guard, fixToolCallFinishStep());
    // An exchange that renamed no tool has nothing to restore: no step per event for it.
    if (!isEmptyAdaptation(this.adaptation)) events = pipeSteps(events, restoreToolStep(this.adaptation));
    if (options.answerId !== undefined) events = pipeSteps(events, answerIdStep(options.answerId));
    if (streamOptions?.estimateUsage) events = pipeSteps(events, streamUsageEstimateStep(streamOptions.estimateUsage));
    return { guard, events: streamOptions?.onEvent ? pipeSteps(events, tapStep(streamOptions.onEvent)) : events };
  }

  /** Options of the client's stream encoder. */
  private encodeOptionsOf(streamOptions?: BridgeStreamOptions): StreamOptions {
    const encodeOptions: StreamOptions = { ...this.shared.context() };
    if (this.shared.options.answerId !== undefined) encodeOptions.id = this.shared.options.answerId;
    if (streamOptions?.includeUsage !== undefined) encodeOptions.includeUsage = streamOptions.includeUsage;
    return encodeOptions;
  }

  /** Canonical events -> the client's SSE text. */
  private clientSse(streamOptions?: BridgeStreamOptions): StreamStep<LlmStreamEvent, string> {
    const { client } = this.shared;
    // Anthropic streams one block at a time; other protocols interleave parallel calls freely.
    const sealed = client.traits.sequentialStreamBlocks ? pipeSteps(serializeBlocksStep(), sealStep(client)) : sealStep(client);
    return pipeSteps(pipeSteps(sealed, client.stream.encoder(this.encodeOptionsOf(streamOptions))), sseEncoder);
  }

  streamChunks(body: AsyncIterable<Uint8Array>, streamOptions?: BridgeStreamOptions & { onEnd?: () => void }): AsyncIterable<string | Uint8Array> {
    const onEnd = streamOptions?.onEnd;
    if (this.shared.sameProtocol) {
      // The bytes pass unchanged; a decoding beside them feeds the observer and tells how the
      // stream ended: an error the bytes do not hold (a cut stream, a failed read) is added to them.
      const pass = observedPassThrough(this.eventsOf(streamOptions), (start, error) =>
        passThroughErrorText(this.shared.client, this.encodeOptionsOf(streamOptions), start, error),
      );
      return stepIterable<Uint8Array, Uint8Array | string>(body, pass, { onEnd, recover: (error, out) => pass.fail(error, out) });
    }
    const step = joinTextStep(pipeSteps(this.eventsOf(streamOptions).events, this.clientSse(streamOptions)));
    // A failed read enters the pipeline as its last input: the guard turns it into the error event.
    const recover = (error: unknown, out: StepOutput<string>): boolean => {
      step.transform(new StreamFailure(error), out);
      step.flush?.(out);
      return true;
    };
    return stepIterable<GuardedInput, string>(body, step, { onEnd, recover });
  }

  response(body: unknown, onDecoded?: (response: LlmResponse) => void): unknown {
    const { sameProtocol, options, upstream, client } = this.shared;
    if (sameProtocol && !options.transformResponse) {
      // Passed through undecoded, yet never a 200 the client's SDK cannot read: a body without
      // the protocol's answer markers is the 502 a decoder would give it (a few key reads).
      const fault = upstream.response.answerFault(body);
      if (fault === undefined) return body;
      // A rare failure: the decoder's own error names what is wrong in most detail.
      this.decodeResponse(body);
      throw unrecognizedAnswer(upstream.id, fault);
    }
    const response = this.decodeResponse(body);
    onDecoded?.(response);
    return client.response.encode(sealResponse(response, client), this.shared.context());
  }

  stream(body: ReadableStream<Uint8Array>, streamOptions?: BridgeStreamOptions): ReadableStream<Uint8Array> {
    if (this.shared.sameProtocol && !streamOptions?.onEvent) return body;
    return readableFrom(this.streamChunks(chunksOf(body), streamOptions));
  }

  async streamToResponse(body: ReadableStream<Uint8Array>, streamOptions?: BridgeStreamOptions): Promise<unknown> {
    const { options, client } = this.shared;
    const accumulator = new LlmStreamAccumulator();
    const collect: StepOutput<LlmStreamEvent> = { enqueue: (event) => accumulator.push(event) };
    const { events } = this.eventsOf(streamOptions);
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        events.transform(value, collect);
      }
    } catch (error) {
      // Like a broken pipe: the upstream body is released, the failure ends the events.
      await reader.cancel(error).catch(() => undefined);
      events.transform(new StreamFailure(error), collect);
    }
    events.flush?.(collect);
    // Throws the error the events ended with, if any.
    let response = accumulator.response();
    if (options.transformResponse) response = options.transformResponse(response);
    return client.response.encode(sealResponse(response, client), this.shared.context());
  }

  responseToStream(body: unknown, streamOptions?: BridgeStreamOptions): ReadableStream<Uint8Array> {
    // Decoded before any byte: an answer that does not decode fails here, as a 502.
    const events = responseToEvents(sealResponse(this.decodeResponse(body), this.shared.client));
    const encode = streamOptions?.onEvent ? pipeSteps(tapStep(streamOptions.onEvent), this.clientSse(streamOptions)) : this.clientSse(streamOptions);
    return fromArray(events).pipeThrough(textStepStream(encode));
  }

  error(status: number, body: unknown, headers?: { get(name: string): string | null }): { status: number; body: unknown; headers?: Record<string, string> } {
    const { upstream, client, sameProtocol } = this.shared;
    const error = upstream.error.decode(status, body, headers);
    if (sameProtocol) {
      const encoded = client.error.encode(error);
      // The upstream's body as it is only when it is the protocol's error shape: a codec keeps
      // any other body (a proxy's page, foreign JSON) out of the message, as the error's cause.
      return { status, body: isJsonObject(body) && error.cause === undefined ? body : encoded.body, headers: encoded.headers };
    }
    return client.error.encode(withKindStatus(error));
  }

  encodeError(error: unknown): { status: number; body: unknown; headers?: Record<string, string> } {
    return this.shared.client.error.encode(LlmError.from(error));
  }

  decode(body: unknown): LlmResponse {
    return this.decodeResponse(body);
  }

  decodeStream(body: AsyncIterable<Uint8Array>): AsyncIterable<LlmStreamEvent> {
    const { events } = this.eventsOf();
    // A failed read enters the events as their last input: the guard turns it into the error event.
    const recover = (error: unknown, out: StepOutput<LlmStreamEvent>): boolean => {
      events.transform(new StreamFailure(error), out);
      events.flush?.(out);
      return true;
    };
    return stepIterable<GuardedInput, LlmStreamEvent>(body, events, { recover });
  }

  encodeResponse(response: LlmResponse): unknown {
    const { client } = this.shared;
    return client.response.encode(sealResponse(response, client), this.shared.context());
  }

  encodeStream(events: AsyncIterable<LlmStreamEvent>, streamOptions?: BridgeStreamOptions & { onEnd?: () => void }): AsyncIterable<string> {
    const encode = streamOptions?.onEvent ? pipeSteps(tapStep(streamOptions.onEvent), this.clientSse(streamOptions)) : this.clientSse(streamOptions);
    return stepIterable(events, joinTextStep(encode), { onEnd: streamOptions?.onEnd });
  }
}

/**
 * The upstream's status means something in its protocol only (Claude's 529 is 503 elsewhere): a
 * client of another protocol gets the status its codec gives the error's kind.
 */
function withKindStatus(error: LlmError): LlmError {
  return new LlmError({
    kind: error.kind,
    message: error.message,
    path: error.path,
    protocol: error.protocol,
    retryable: error.retryable,
    retryAfterMs: error.retryAfterMs,
    code: error.code,
    requestId: error.requestId,
    raw: error.raw,
  });
}

/** True when the client asked for a schema-enforced (`strict: true`) function tool. */
function hasStrictTool(request: LlmRequest): boolean {
  return request.tools?.some((tool) => tool.type === 'function' && tool.strict === true) ?? false;
}

/** Sets the answer's id on the stream's `start` event (see `BridgeOptions.answerId`). */
function answerIdStep(id: string): StreamStep<LlmStreamEvent, LlmStreamEvent> {
  return {
    transform(event, out) {
      out.enqueue(event.type === 'start' ? { ...event, id } : event);
    },
  };
}

/** False only when `body` certainly holds no carrier: its text says so, or a walk of it does. */
function mayHoldCarrier(body: unknown, text: string | undefined): boolean {
  if (text !== undefined && !text.includes(OPAQUE_STATE_PREFIX) && !text.includes('\\u')) return false;
  return containsCarrier(body);
}

/** True when some string in `value` holds an opaque-state carrier. A walk, no copies. */
function containsCarrier(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(OPAQUE_STATE_PREFIX);
  if (Array.isArray(value)) return value.some(containsCarrier);
  if (typeof value === 'object' && value !== null) {
    for (const key in value) if (containsCarrier((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

function tapStep<T>(onEvent: (event: T) => void): StreamStep<T, T> {
  return {
    transform(event, out) {
      try {
        onEvent(event);
      } catch {
        // Observers never break the stream.
      }
      out.enqueue(event);
    },
  };
}

/** A pass-through step that also ends its stream with an error event when its read fails. */
interface ObservedPassThrough extends StreamStep<Uint8Array, Uint8Array | string> {
  fail(cause: unknown, out: StepOutput<Uint8Array | string>): boolean;
}

/**
 * Passes upstream bytes through unchanged while a guarded decoding reads them (its events feed
 * the tap; the events themselves are dropped but the `start`, kept for `errorText`). An error
 * the guard made, which the bytes do not hold, is sent after them as `errorText` renders it. A
 * failure of the steps after the guard (observers) only stops the observing.
 */
function observedPassThrough(
  observer: { guard: StreamGuard; events: StreamStep<GuardedInput, LlmStreamEvent> },
  errorText: (start: StartEvent | undefined, error: LlmStreamEvent) => string,
): ObservedPassThrough {
  let observing = true;
  /** The stream ended with an error the guard made: later bytes are not the client's any more. */
  let closed = false;
  let start: StartEvent | undefined;
  const keepStart: StepOutput<LlmStreamEvent> = {
    enqueue: (event) => {
      if (event.type === 'start') start ??= event;
    },
  };
  /** Feeds the observer one input, or its end (no closure per chunk: this runs for every upstream read). */
  const observe = (input: GuardedInput | undefined, out: StepOutput<Uint8Array | string>): void => {
    if (closed) return;
    if (observing) {
      try {
        if (input === undefined) observer.events.flush?.(keepStart);
        else observer.events.transform(input, keepStart);
      } catch {
        observing = false;
      }
    } else if (input instanceof StreamFailure) {
      // A failed read ends the client's stream even when the observers stopped.
      observer.guard.transform(input, keepStart);
    }
    const made = observer.guard.takeMadeError();
    if (made) {
      closed = true;
      const text = errorText(start, made);
      if (text !== '') out.enqueue(text);
    }
  };
  return {
    transform(chunk, out) {
      if (closed) return;
      out.enqueue(chunk);
      observe(chunk, out);
    },
    flush(out) {
      observe(undefined, out);
    },
    fail(cause, out) {
      // The guard is the observer's first stage, so its error reaches the tap and the client.
      observe(new StreamFailure(cause), out);
      observe(undefined, out);
      return true;
    },
  };
}

function fromArray<T>(items: readonly T[]): ReadableStream<T> {
  return new ReadableStream({
    start(controller) {
      for (const item of items) controller.enqueue(item);
      controller.close();
    },
  });
}
