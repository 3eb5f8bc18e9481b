import {
  LlmError,
  SSE_HEADERS,
  checkJsonDepth,
  chunksOf,
  describeError,
  passThroughStep,
  stepIterable,
  upstreamDecodeFailure,
  type Codec,
  type LlmResponse,
  type LlmStreamEvent,
  type ProtocolId,
} from '@llm/core';
import type { Bridge, BridgeAnswers } from './bridge.js';
import { noteAnswer, streamedToolCalls } from './diagnostics.js';
import type { RequestRecord, UpstreamConfig, UpstreamResponse } from './config.js';
import { estimateTokensOfBytes } from './endpoints.js';
import type { RouterReply } from './reply.js';
import type { RouterCall } from './request-record.js';
import type { RouterRuntime } from './router-runtime.js';
import { rememberer, type AnswerOwnership } from './stored-turns.js';
import { DEFAULT_STREAM_IDLE_TIMEOUT_MS, watchChunks, type RequestDeadline } from './timeouts.js';
import { untilAborted } from './until-aborted.js';
import type { EncodedAttempt } from './upstream-attempts.js';

/** An upstream's 2xx answer to one attempt, and what replying with it needs. */
export interface AnsweredAttempt {
  response: UpstreamResponse;
  via: Bridge;
  /** The attempt's exchange translators (its tool names restored with its adaptation). */
  answers: BridgeAnswers;
  upstream: UpstreamConfig;
  upstreamCodec: Codec;
  deadline: RequestDeadline;
  attempt: EncodedAttempt;
  /** Whose answer it is and under which id, for stored turns. */
  ownership: AnswerOwnership;
}

/**
 * The client's reply from an upstream's 2xx answer: a translated (or passed-through) stream, a
 * stream made from a whole JSON answer, or a JSON answer. Usage and stored turns are collected on
 * the way; the call ends when the client has it all.
 */
export async function answerReply(runtime: RouterRuntime, call: RouterCall, answered: AnsweredAttempt): Promise<RouterReply> {
  const { calls } = runtime;
  const { response, via, answers, upstream, upstreamCodec, deadline } = answered;
  const { upstreamStreams, includeUsage, stored, kept, clientStream } = answered.attempt;
  const remember = rememberer(runtime, kept, answered.ownership);
  const diagnostics = call.record.diagnostics;
  const toolCalls = diagnostics ? streamedToolCalls(diagnostics) : undefined;
  if (clientStream && upstreamStreams && !isJsonAnswer(response)) {
    // An iterable body when the transport has one: no Web stream per streamed answer.
    const upstreamChunks = watchChunks(
      chunksOf(response.chunks?.() ?? response.body ?? emptyChunks()),
      upstream.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
      deadline,
    );
    let failure: LlmError | undefined;
    const onEvent = (event: LlmStreamEvent): void => {
      remember.onEvent(event);
      toolCalls?.onEvent(event);
      if (event.type !== 'error') return;
      failure = event.error;
      // A translated answer is over: stop reading the upstream (a stream that did not decode
      // goes on). Passed-through bytes stay the upstream's own to the end.
      if (!via.sameProtocol) upstreamChunks.cancel();
    };
    let usageEstimated = false;
    const estimateUsage = runtime.config.policies?.estimateStreamUsage
      ? { inputTokens: estimateTokensOfBytes(answered.attempt.payload.length), onEstimated: () => (usageEstimated = true) }
      : undefined;
    const onEnd = () => {
      toolCalls?.end();
      calls.finish(call, { status: 200, usage: remember.usage(), ...(usageEstimated ? { usageEstimated } : {}), ...streamFailureFields(failure) });
    };
    const chunks = answers.streamChunks(upstreamChunks, { onEvent, includeUsage, onEnd, estimateUsage });
    return withRetrievable(calls.respond(call, chunks, 200, { ...SSE_HEADERS }), stored);
  }
  // A whole JSON answer: asked for, from an upstream that cannot stream, or sent instead of the stream asked for.
  let json: unknown;
  try {
    json = await readJson(response, deadline, upstream.protocol);
  } catch (error) {
    return calls.respondError(call, error, via);
  }
  if (clientStream) {
    let events: ReadableStream<Uint8Array>;
    try {
      const onEvent = toolCalls
        ? (event: LlmStreamEvent) => {
            remember.onEvent(event);
            toolCalls.onEvent(event);
          }
        : remember.onEvent;
      events = answers.responseToStream(json, { onEvent });
    } catch (error) {
      return calls.respondError(call, error, via);
    }
    const onEnd = () => {
      toolCalls?.end();
      calls.finish(call, { status: 200, usage: remember.usage() });
    };
    return withRetrievable(calls.respond(call, stepIterable(chunksOf(events), passThroughStep<Uint8Array>(), { onEnd }), 200, { ...SSE_HEADERS }), stored);
  }
  let decoded: LlmResponse | undefined;
  const out = answers.response(json, (canonical) => {
    decoded = canonical;
  });
  remember.onResponse(json, upstreamCodec, decoded?.usage);
  // A same-protocol answer passes undecoded: decoded here for the debug line only.
  if (diagnostics) {
    try {
      noteAnswer(diagnostics, decoded ?? upstreamCodec.response.decode(json));
    } catch {
      // The client has its answer; a debug line never fails a request.
    }
  }
  calls.finish(call, { status: 200, usage: remember.usage() });
  return withRetrievable(calls.respond(call, JSON.stringify(out), 200, { 'content-type': 'application/json' }), stored);
}

/** The reply, marked not retrievable when the client asked for no storage. */
export function withRetrievable(reply: RouterReply, stored: boolean): RouterReply {
  if (!stored) reply.retrievable = false;
  return reply;
}

/** True when an upstream answered with a whole JSON body (even to a stream request). */
export function isJsonAnswer(response: UpstreamResponse): boolean {
  return response.headers.get('content-type')?.trimStart().toLowerCase().startsWith('application/json') ?? false;
}

/**
 * An upstream's 2xx JSON answer, nesting at most `MAX_JSON_DEPTH` levels. Unreadable or over-deep
 * JSON is a 502 (`upstream`), never the client's fault; the deadline passing while the body is
 * read is a 504. The depth check is what keeps a same-protocol answer, which no decoder walks, from
 * overflowing the stack in `JSON.stringify`; a decoder's own check of the same value is then one
 * lookup.
 */
export async function readJson(response: UpstreamResponse, deadline: RequestDeadline, protocol: ProtocolId): Promise<unknown> {
  try {
    const json = await untilAborted(response.json(), deadline);
    checkJsonDepth(json, { protocol });
    return json;
  } catch (error) {
    throw deadline.expired ?? (LlmError.isInstance(error) && error.kind === 'cancelled' ? error : upstreamDecodeFailure(protocol, 'answer', error));
  }
}

/** The record's fields for a stream that ended with an error (the client had its 200 already). */
export function streamFailureFields(failure: LlmError | undefined): Partial<RequestRecord> {
  if (!failure) return {};
  return failure.cause === undefined ? { errorKind: failure.kind } : { errorKind: failure.kind, errorDetail: describeError(failure) };
}

export async function* emptyChunks(): AsyncIterable<Uint8Array> {}
