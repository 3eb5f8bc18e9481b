import {
  LlmError,
  accumulateEvents,
  decodeSse,
  encodeSse,
  responseToEvents,
  type Codec,
  type CodecContext,
  type LlmResponse,
  type LlmStreamEvent,
  type LlmWarning,
  type ProtocolId,
} from '@llm/core';
import { bridge } from '@llm/router';
import { requestMeaning, responseMeaning, type ErrorMeaning, type RequestMeaning, type ResponseMeaning } from './meaning.js';
import { lossesFor } from './losses.js';
import type { Scenario } from './scenarios.js';

export type Mode = 'json' | 'stream';

/** What one cell produced and what it should have. */
export interface CellResult {
  scenario: string;
  client: ProtocolId;
  upstream: ProtocolId;
  mode: Mode;
  /** `n/a`: the scenario does not apply to the mode (a mid-stream error without a stream). */
  status: 'pass' | 'loss' | 'fail' | 'n/a';
  /** First difference, the exception, or the warnings that differ, when failing. */
  detail?: string;
  expected?: Outcome;
  actual?: Outcome;
  /** Warnings reported on the way (`code@path`), sorted. */
  warnings: string[];
  /** Warnings the cell's expected losses call for, sorted. */
  expectedWarnings: string[];
}

/** Everything a cell compares. */
export interface Outcome {
  request: RequestMeaning;
  response?: ResponseMeaning;
  error?: ErrorMeaning;
  /** For follow-up turns: what the upstream received in the second request. */
  followUp?: { request: RequestMeaning; signatures: string[] };
}

/** Pushes one scenario through `bridge({client, upstream})` in one mode and compares meanings. */
export async function runCell(scenario: Scenario, client: Codec, upstream: Codec, mode: Mode): Promise<CellResult> {
  const base = { scenario: scenario.id, client: client.id, upstream: upstream.id, mode };
  if (scenario.streamOnly && mode === 'json') return { ...base, status: 'n/a', warnings: [], expectedWarnings: [] };
  const { losses, warnings: expectedWarnings } = lossesFor(scenario.id, client.id, upstream.id, mode);
  expectedWarnings.sort();
  const seen = new Set<string>();
  const bridgeLosses = new Set<string>();
  const context: CodecContext = { warn: (warning) => seen.add(`${warning.code}@${warning.path}`) };
  const bridgeWarn: BridgeSide['warn'] = (warning) => {
    seen.add(`${warning.code}@${warning.path}`);
    if (!NOT_LOSSES.has(warning.code)) bridgeLosses.add(warning.code);
  };
  try {
    const expected = await expectedOutcome(scenario, client, upstream);
    for (const loss of losses) loss.apply?.(expected, client, upstream, mode);
    const actual = await outcome(scenario, client, upstream, mode, context, { warn: bridgeWarn });
    const warnings = [...seen].sort();
    const detail =
      firstDifference(expected, actual) ??
      (JSON.stringify(warnings) === JSON.stringify(expectedWarnings)
        ? undefined
        : `warnings: expected ${JSON.stringify(expectedWarnings)}, got ${JSON.stringify(warnings)}`) ??
      (await strictDifference(scenario, client, upstream, mode, actual, bridgeLosses.size > 0));
    const status = detail !== undefined ? 'fail' : losses.length > 0 ? 'loss' : 'pass';
    return { ...base, status, detail, expected, actual, warnings, expectedWarnings };
  } catch (error) {
    return {
      ...base,
      status: 'fail',
      detail: `threw: ${error instanceof Error ? error.message : String(error)}`,
      warnings: [...seen].sort(),
      expectedWarnings,
    };
  }
}

/** What the bridge side of a cell runs with. */
interface BridgeSide {
  warn?: (warning: LlmWarning) => void;
  strict?: boolean;
}

/** Adjustments that lose nothing stay warnings in strict mode (core's reportLoss). */
const NOT_LOSSES = new Set(['defaulted', 'unknown-event']);

/**
 * Runs the cell again with `strict: true` on the bridge (the client's own rendering stays
 * lenient): a cell whose bridge reported a loss must fail with `unsupported`; any other cell must
 * give the same outcome. Undefined when it holds, else what differs.
 */
async function strictDifference(scenario: Scenario, client: Codec, upstream: Codec, mode: Mode, lenient: Outcome, lossy: boolean): Promise<string | undefined> {
  try {
    const strict = await outcome(scenario, client, upstream, mode, {}, { strict: true });
    // A loss met mid-stream cannot throw at the caller: the stream ends with the unsupported
    // error, as the client's protocol says it.
    if (lossy) {
      if (mode !== 'stream') return 'strict: a lossy translation went through';
      const unsupported = new LlmError({ kind: 'unsupported', message: 'unsupported' });
      const { error } = await nativeStream(client, [{ type: 'start' }, { type: 'error', error: unsupported }]);
      return firstDifference(error, strict.error) === undefined
        ? undefined
        : `strict: the stream did not end with the unsupported error: ${JSON.stringify(strict.error)}`;
    }
    const difference = firstDifference(lenient, strict);
    return difference === undefined ? undefined : `strict: ${difference}`;
  } catch (error) {
    if (lossy && error instanceof LlmError && error.kind === 'unsupported') return undefined;
    return `strict: threw ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** What a client of this protocol sees of an error when its upstream speaks the same protocol. */
function nativeError(client: Codec, error: LlmError): ErrorMeaning {
  const encoded = client.error.encode(error);
  const decoded = client.error.decode(encoded.status, encoded.body, new Headers(encoded.headers ?? {}));
  const meaning: ErrorMeaning = { kind: decoded.kind, status: encoded.status };
  if (decoded.retryAfterMs !== undefined) meaning.retryAfterMs = decoded.retryAfterMs;
  return meaning;
}

/**
 * What a streaming client of this protocol holds when an upstream of the same protocol sends
 * these events (its partial answer and the error), the baseline of the mid-stream error cells.
 */
async function nativeStream(client: Codec, events: LlmStreamEvent[]): Promise<Pick<Outcome, 'response' | 'error'>> {
  const decoded = await collect(
    decodeSse(streamOf(events).pipeThrough(client.stream.encode({})).pipeThrough(encodeSse())).pipeThrough(client.stream.decode({})),
  );
  const failure = decoded.find((event) => event.type === 'error');
  if (failure?.type !== 'error') throw new Error(`${client.id} stream codec lost a native error event`);
  return { response: responseMeaning(partialResponse(decoded)), error: { kind: failure.error.kind, status: client.error.encode(failure.error).status } };
}

async function expectedOutcome(scenario: Scenario, client: Codec, upstream: Codec): Promise<Outcome> {
  const out: Outcome = { request: requestMeaning(scenario.request) };
  if (scenario.error) {
    out.error = nativeError(client, scenario.error.error);
  } else if (scenario.response) {
    out.response = responseMeaning(scenario.response);
    if (scenario.followUp) {
      const followUp = scenario.followUp(structuredClone(scenario.response));
      out.followUp = { request: requestMeaning(followUp), signatures: signaturesOf(scenario.response, upstream.id) };
    }
  } else if (scenario.events) {
    Object.assign(out, await nativeStream(client, scenario.events));
  }
  return out;
}

async function outcome(scenario: Scenario, client: Codec, upstream: Codec, mode: Mode, context: CodecContext, side: BridgeSide): Promise<Outcome> {
  const stream = mode === 'stream';
  const via = bridge({ client, upstream, ...side });
  const sendTurn = (request: Scenario['request']) => {
    // Streaming clients ask for usage where the protocol makes it optional (Chat include_usage).
    const sent = stream ? { ...structuredClone(request), stream, streamUsage: true } : { ...structuredClone(request), stream };
    const body = client.request.encode(sent, { ...context, model: request.model, stream });
    const outside = client.http.modelIn === 'path' ? { model: request.model, stream } : {};
    const bridged = via.request(body, outside);
    if (bridged.stream !== stream) throw new Error(`stream flag ${String(bridged.stream)} reached the upstream`);
    return { sent: upstream.request.decode(bridged.body, { model: bridged.model, stream: bridged.stream }), answers: bridged.answers };
  };
  // The first turn's exchange translates its answer and errors (tool names restored with its map).
  const { sent: first, answers } = sendTurn(scenario.request);
  const out: Outcome = { request: requestMeaning(first) };

  if (scenario.error) {
    const encoded = upstream.error.encode(scenario.error.error);
    const headers = new Headers({ ...encoded.headers, ...scenario.error.headers });
    const answer = answers.error(encoded.status, encoded.body, headers);
    const decoded = client.error.decode(answer.status, answer.body, new Headers(answer.headers ?? {}));
    out.error = { kind: decoded.kind, status: answer.status };
    if (decoded.retryAfterMs !== undefined) out.error.retryAfterMs = decoded.retryAfterMs;
    return out;
  }

  const upstreamAnswer = scenario.response ? withOrigin(structuredClone(scenario.response), upstream.id) : undefined;
  let received: LlmResponse;
  if (mode === 'json' && upstreamAnswer) {
    received = client.response.decode(answers.response(upstream.response.encode(upstreamAnswer, context)), context);
  } else {
    const events = scenario.events ?? responseToEvents(upstreamAnswer as LlmResponse);
    // The mock upstream streams usage when the request asked for it, like the real APIs.
    const upstreamBytes = streamOf(events)
      .pipeThrough(upstream.stream.encode({ ...context, includeUsage: first.streamUsage === true }))
      .pipeThrough(encodeSse());
    const clientEvents = await collect(decodeSse(answers.stream(upstreamBytes, { includeUsage: true })).pipeThrough(client.stream.decode(context)));
    const failure = clientEvents.find((event) => event.type === 'error');
    if (failure?.type === 'error') out.error = { kind: failure.error.kind, status: client.error.encode(failure.error).status };
    received = failure ? partialResponse(clientEvents) : accumulateEvents(clientEvents);
  }
  out.response = responseMeaning(received);

  if (scenario.followUp) {
    const next = upstreamRequest(sendTurn(scenario.followUp(received)).sent);
    out.followUp = next;
  }
  return out;
}

function upstreamRequest(request: Scenario['request']): NonNullable<Outcome['followUp']> {
  const signatures: string[] = [];
  for (const message of request.messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if ((part.type === 'reasoning' || part.type === 'tool-call') && part.signature !== undefined) {
        signatures.push(`${part.type}:${part.signature}@${part.origin?.protocol ?? '-'}`);
      }
    }
  }
  return { request: requestMeaning(request), signatures };
}

/** The signatures the upstream must get back on the next turn (its own, with their origin). */
function signaturesOf(response: LlmResponse, upstream: ProtocolId): string[] {
  if (upstream === 'openai-chat') return [];
  return (response.choices[0]?.content ?? []).flatMap((part) =>
    (part.type === 'reasoning' || part.type === 'tool-call') && part.signature !== undefined ? [`${part.type}:${part.signature}@${upstream}`] : [],
  );
}

/** Opaque state in an upstream answer is issued by that upstream; Chat has none to issue. */
function withOrigin(response: LlmResponse, upstream: ProtocolId): LlmResponse {
  for (const choice of response.choices) {
    for (const part of choice.content) {
      if ((part.type === 'reasoning' || part.type === 'tool-call' || part.type === 'text') && part.signature !== undefined) {
        if (upstream === 'openai-chat') delete part.signature;
        else part.origin = { protocol: upstream };
      }
    }
  }
  return response;
}

/** What a client holds of a stream that failed: the blocks so far. */
function partialResponse(events: LlmStreamEvent[]): LlmResponse {
  const before = events.slice(
    0,
    events.findIndex((event) => event.type === 'error'),
  );
  const open = new Set<number>();
  for (const event of before) {
    if (event.type === 'block-start') open.add(event.index);
    else if (event.type === 'block-end') open.delete(event.index);
  }
  const closed: LlmStreamEvent[] = [...before, ...[...open].map((index): LlmStreamEvent => ({ type: 'block-end', index }))];
  const response = accumulateEvents([...closed, { type: 'finish', reason: 'error' }]);
  for (const choice of response.choices) delete choice.finishReason;
  return response;
}

function streamOf<T>(items: readonly T[]): ReadableStream<T> {
  return new ReadableStream({
    start(controller) {
      // Events are cloned so no cell sees another's mutations; errors stay LlmError instances.
      for (const item of items) controller.enqueue(isErrorEvent(item) ? item : structuredClone(item));
      controller.close();
    },
  });
}

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

function isErrorEvent(item: unknown): boolean {
  return typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'error';
}

/** The first path at which two outcomes differ, as `path: expected != actual`. */
export function firstDifference(expected: unknown, actual: unknown, path = ''): string | undefined {
  if (typeof expected !== 'object' || expected === null || typeof actual !== 'object' || actual === null) {
    return Object.is(expected, actual) ? undefined : `${path || '.'}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
  const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  for (const key of keys) {
    const difference = firstDifference((expected as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key], `${path}.${key}`);
    if (difference) return difference;
  }
  return undefined;
}
