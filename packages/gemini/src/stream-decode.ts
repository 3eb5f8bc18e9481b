import {
  checkParsedDepth,
  invalidUpstream,
  streamEndedEarly,
  upstreamDecodeFailure,
  type StreamStep,
  type LlmError,
  type LlmOrigin,
  type LlmStreamEvent,
  type SseEvent,
  type StreamOptions,
} from '@llm/core';
import { CallIds } from './call-ids.js';
import { decodeError, isErrorChunk, statusOfChunk } from './errors.js';
import { SseJsonReader } from '@llm/core/kit';
import { PROTOCOL } from './protocol.js';
import { decodeFinishReason } from './finish-reason.js';
import { groundingCitations } from './grounding.js';
import { decodePart } from './parts-decode.js';
import { PartialArgs } from './partial-args.js';
import { unknownFields } from './read.js';
import { decodeLogprobs } from './logprobs.js';
import { callIdPrefix } from './response-decode.js';
import { decodeUsage } from './usage.js';

type Out = Pick<TransformStreamDefaultController<LlmStreamEvent>, 'enqueue'>;
type Wire = Record<string, unknown>;

/** The block a candidate is writing. */
interface OpenBlock {
  index: number;
  kind: 'text' | 'reasoning' | 'tool_call';
  /** Vertex streamed arguments of a call still arriving. */
  partial?: PartialArgs;
  /** A text block's text so far: grounding segments that arrive later are ranges of it. */
  text?: string;
}

interface CandidateState {
  open?: OpenBlock;
  hasCalls: boolean;
  finish?: string;
  /** Candidate fields with no event (safetyRatings, citationMetadata, groundingMetadata, ...), sent on the finish. */
  meta?: Wire;
}

// Streamed as events; everything else on a candidate is metadata kept for the finish.
const CHUNK_EVENTS = new Set(['candidates', 'usageMetadata', 'modelVersion', 'responseId']);
const CANDIDATE_EVENTS = new Set(['content', 'finishReason', 'index', 'logprobsResult']);

/** State of the Gemini SSE -> canonical events decoder. */
export interface DecodeState {
  /** Reads the events' JSON, events shaped like the one before them without a parse. */
  json: SseJsonReader;
  started: boolean;
  done: boolean;
  nextIndex: number;
  candidates: Map<number, CandidateState>;
  usage?: unknown;
  blockReason?: string;
  ids?: CallIds;
  origin: LlmOrigin;
}

/** A fresh decoder state. */
export function createDecodeState(options: StreamOptions = {}): DecodeState {
  const model = options.model;
  return {
    started: false,
    done: false,
    nextIndex: 0,
    candidates: new Map(),
    json: new SseJsonReader(PROTOCOL),
    origin: model ? { protocol: PROTOCOL, model } : { protocol: PROTOCOL },
  };
}

/**
 * Gemini SSE chunks (each a partial `GenerateContentResponse` holding only new parts) ->
 * canonical events. Consecutive text parts of a candidate form one block, thought parts another;
 * calls arrive whole (or as Vertex `partialArgs`, assembled). Usage is cumulative per chunk: the
 * last one wins, and the finishes are sent when the stream ends. A `{"error":…}` chunk ends the
 * stream with an `error` event; so does a stream that ends before every candidate's finish reason.
 */
export function streamDecoder(options: StreamOptions = {}): StreamStep<SseEvent, LlmStreamEvent> {
  const state = createDecodeState(options);
  return { transform: (event, out) => decodeStep(state, event, out), flush: (out) => decodeEnd(state, out) };
}

/** Handles one SSE event. Never throws: bad input becomes an `error` event. */
export function decodeStep(state: DecodeState, sse: SseEvent, out: Out): void {
  if (state.done) return;
  // Without alt=sse the body is one array; an SSE chunk holding an array is read the same way.
  if (startsAsArray(sse.data)) return decodeArray(state, sse.data, out);
  const json = state.json.read(sse.data, 'stream chunk');
  if (json.error) return fail(state, out, json.error);
  try {
    decodeChunk(state, json.payload, out);
  } catch (error) {
    fail(state, out, upstreamDecodeFailure(PROTOCOL, 'stream chunk', error));
  }
}

/**
 * End of input (Gemini has no terminal event: the connection closes). Complete when every
 * candidate sent its `finishReason`, or when a blocked prompt's `promptFeedback.blockReason`
 * came with no candidates: then every finish, with the last usage. Otherwise the stream was cut
 * ("streams can also just stop (no finishReason) on transport errors"): it ends with an
 * `upstream` error, blocks left open, so a call whose streamed arguments were still arriving is
 * never handed on as complete.
 */
export function decodeEnd(state: DecodeState, out: Out): void {
  if (state.done) return;
  const candidates = [...state.candidates].sort((a, b) => a[0] - b[0]);
  const finished = candidates.length > 0 && candidates.every(([, cand]) => cand.finish !== undefined);
  const blocked = candidates.length === 0 && state.blockReason !== undefined;
  if (!finished && !blocked) return fail(state, out, streamEndedEarly(PROTOCOL, 'a finishReason'));
  state.done = true;
  const usage = decodeUsage(state.usage);
  const finishes: Array<Extract<LlmStreamEvent, { type: 'finish' }>> = [];
  for (const [choice, cand] of candidates) {
    close(cand, out);
    const event: Extract<LlmStreamEvent, { type: 'finish' }> = {
      type: 'finish',
      reason: decodeFinishReason(cand.finish!, cand.hasCalls),
      rawReason: cand.finish,
    };
    if (choice !== 0) event.choice = choice;
    if (cand.meta) event.extensions = { [PROTOCOL]: cand.meta };
    finishes.push(event);
  }
  if (blocked) {
    if (!state.started) out.enqueue({ type: 'start' });
    finishes.push({ type: 'finish', reason: 'content_filter', rawReason: state.blockReason });
  }
  for (const finish of finishes) {
    if (usage) finish.usage = usage;
    out.enqueue(finish);
  }
}

/** Whether JSON text is an array (its first non-blank character is `[`). */
function startsAsArray(data: string): boolean {
  let at = 0;
  while (at < data.length && data.charCodeAt(at) <= 32) at++;
  return data.charCodeAt(at) === 91;
}

/** A JSON array of chunks, each decoded in turn. */
function decodeArray(state: DecodeState, data: string, out: Out): void {
  let chunks: unknown[];
  try {
    chunks = JSON.parse(data) as unknown[];
  } catch (error) {
    return fail(state, out, upstreamDecodeFailure(PROTOCOL, 'stream chunk', error));
  }
  try {
    checkParsedDepth(data, chunks);
    for (const chunk of chunks) {
      if (typeof chunk !== 'object' || chunk === null) throw invalidUpstream(PROTOCOL, 'stream chunk');
      decodeChunk(state, chunk as Wire, out);
      if (state.done) return;
    }
  } catch (error) {
    fail(state, out, upstreamDecodeFailure(PROTOCOL, 'stream chunk', error));
  }
}

function fail(state: DecodeState, out: Out, error: LlmError): void {
  state.done = true;
  out.enqueue({ type: 'error', error });
}

/** Decodes one parsed chunk. */
function decodeChunk(state: DecodeState, chunk: Wire, out: Out): void {
  if (isErrorChunk(chunk)) return fail(state, out, decodeError(statusOfChunk(chunk), chunk));
  if (!state.started) {
    state.started = true;
    const start: Extract<LlmStreamEvent, { type: 'start' }> = { type: 'start' };
    if (typeof chunk.responseId === 'string') start.id = chunk.responseId;
    if (typeof chunk.modelVersion === 'string') {
      start.model = chunk.modelVersion;
      state.origin = { protocol: PROTOCOL, model: chunk.modelVersion };
    }
    // promptFeedback and other response fields of the first chunk ride on the start.
    const rest = unknownFields(chunk, CHUNK_EVENTS);
    if (rest) start.extensions = { [PROTOCOL]: rest };
    out.enqueue(start);
    state.ids = new CallIds(callIdPrefix(start.id));
  }
  if (chunk.usageMetadata !== undefined) state.usage = chunk.usageMetadata;
  const block = (chunk.promptFeedback as Wire | undefined)?.blockReason;
  if (typeof block === 'string') state.blockReason = block;
  if (chunk.candidates === undefined) return;
  // A chunk the stream cannot read ends it with an error: its content must not vanish silently.
  if (!Array.isArray(chunk.candidates)) throw malformed('candidates');
  chunk.candidates.forEach((value, position) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed(`candidates[${position}]`);
    const candidate = value as Wire;
    const choice = typeof candidate.index === 'number' ? candidate.index : position;
    let cand = state.candidates.get(choice);
    if (!cand) state.candidates.set(choice, (cand = { hasCalls: false }));
    const content = candidate.content;
    if (content !== undefined && (typeof content !== 'object' || content === null || Array.isArray(content)))
      throw malformed(`candidates[${position}].content`);
    const parts = (content as Wire | undefined)?.parts;
    if (parts !== undefined && !Array.isArray(parts)) throw malformed(`candidates[${position}].content.parts`);
    if (parts) for (let at = 0; at < parts.length; at++) decodeStreamPart(state, cand, choice, parts, at, out);
    const logprobs = decodeLogprobs(candidate.logprobsResult, `candidates[${position}].logprobsResult`);
    if (logprobs && cand.open?.kind === 'text') out.enqueue({ type: 'logprobs', index: cand.open.index, logprobs });
    // Grounding (usually on the finishing chunk) cites the text block still open.
    if (candidate.groundingMetadata !== undefined && cand.open?.kind === 'text') {
      for (const citation of groundingCitations(candidate.groundingMetadata, cand.open.text ?? '', undefined))
        out.enqueue({ type: 'citation', index: cand.open.index, citation });
    }
    const meta = unknownFields(candidate, CANDIDATE_EVENTS);
    if (meta) cand.meta = mergeMeta(cand.meta, meta);
    if (typeof candidate.finishReason === 'string') {
      // Only the empty functionCall closes streamed arguments: a finish with a call still open
      // means the rest was lost, so the call must not close as complete. MAX_TOKENS says the
      // output was cut, so the call closes under that finish.
      if (cand.open?.partial && candidate.finishReason !== 'MAX_TOKENS') throw streamEndedEarly(PROTOCOL, 'the functionCall that closes its arguments');
      close(cand, out);
      cand.finish = candidate.finishReason;
    }
  });
}

function open(state: DecodeState, cand: CandidateState, choice: number, block: Extract<LlmStreamEvent, { type: 'block-start' }>['block'], out: Out): number {
  close(cand, out);
  const index = state.nextIndex++;
  const event: Extract<LlmStreamEvent, { type: 'block-start' }> = { type: 'block-start', index, block };
  if (choice !== 0) event.choice = choice;
  out.enqueue(event);
  return index;
}

function close(cand: CandidateState, out: Out): void {
  const block = cand.open;
  if (!block) return;
  cand.open = undefined;
  if (block.partial) out.enqueue({ type: 'tool-args-delta', index: block.index, json: JSON.stringify(block.partial.value) });
  out.enqueue({ type: 'block-end', index: block.index });
}

function decodeStreamPart(state: DecodeState, cand: CandidateState, choice: number, parts: unknown[], at: number, out: Out): void {
  const wire = parts[at] as Wire;
  const signature = typeof wire?.thoughtSignature === 'string' ? wire.thoughtSignature : undefined;
  const call = wire?.functionCall as Wire | undefined;
  // Vertex: the arguments of an open call keep arriving; an empty functionCall closes it.
  if (call && cand.open?.partial) {
    cand.open.partial.add(call.partialArgs);
    if (call.name === undefined && call.willContinue !== true) close(cand, out);
    return;
  }
  if (call && (Array.isArray(call.partialArgs) || call.willContinue === true)) {
    const name = String(call.name ?? '');
    const id = typeof call.id === 'string' ? call.id : state.ids!.call(name);
    const index = open(state, cand, choice, { kind: 'tool_call', id, name, origin: state.origin, ...(signature ? { signature } : {}) }, out);
    cand.hasCalls = true;
    cand.open = { index, kind: 'tool_call', partial: new PartialArgs() };
    cand.open.partial!.add(call.partialArgs);
    return;
  }
  const part = decodePart(parts, at, 'candidates[].content.parts', { origin: state.origin, callId: (name) => state.ids!.call(name) });
  switch (part.type) {
    case 'text': {
      if (part.text === '' && signature !== undefined && cand.open?.kind === 'text') {
        out.enqueue({ type: 'reasoning-signature', index: cand.open.index, signature, origin: state.origin });
        return;
      }
      // An empty unsigned fragment (often on the finishing chunk) says nothing: no empty block for it.
      if (part.text === '' && signature === undefined) return;
      if (cand.open?.kind !== 'text') cand.open = { index: open(state, cand, choice, { kind: 'text' }, out), kind: 'text', text: '' };
      if (part.text !== '') {
        cand.open.text += part.text;
        out.enqueue({ type: 'text-delta', index: cand.open.index, text: part.text });
      }
      if (signature !== undefined) out.enqueue({ type: 'reasoning-signature', index: cand.open.index, signature, origin: state.origin });
      return;
    }
    case 'reasoning': {
      if (cand.open?.kind !== 'reasoning')
        cand.open = { index: open(state, cand, choice, { kind: 'reasoning', origin: state.origin }, out), kind: 'reasoning' };
      if (part.text !== '') out.enqueue({ type: 'reasoning-delta', index: cand.open.index, text: part.text });
      if (signature !== undefined) out.enqueue({ type: 'reasoning-signature', index: cand.open.index, signature, origin: state.origin });
      return;
    }
    case 'tool-call': {
      cand.hasCalls = true;
      // The origin marks the call as Gemini's own even unsigned: it needs no skip placeholder on replay.
      const index = open(
        state,
        cand,
        choice,
        { kind: 'tool_call', id: part.id, name: part.name, origin: state.origin, ...(signature ? { signature } : {}) },
        out,
      );
      out.enqueue({ type: 'tool-args-delta', index, json: JSON.stringify(part.arguments) });
      out.enqueue({ type: 'block-end', index });
      return;
    }
    case 'image':
    case 'audio':
    case 'file':
    case 'code-execution':
    case 'code-execution-result':
    case 'provider': {
      const index = open(state, cand, choice, { kind: 'part', part }, out);
      out.enqueue({ type: 'block-end', index });
      return;
    }
    default: {
      // A function response in a model stream has no meaning; kept whole.
      const index = open(state, cand, choice, { kind: 'part', part: { type: 'provider', protocol: PROTOCOL, value: wire } }, out);
      out.enqueue({ type: 'block-end', index });
    }
  }
}

/**
 * Later chunks repeat or update a candidate's metadata (last wins), except citations, which each
 * chunk gives for its own text only: those add up.
 */
function mergeMeta(kept: Wire | undefined, next: Wire): Wire {
  if (!kept) return next;
  const merged = { ...kept, ...next };
  const before = (kept.citationMetadata as Wire | undefined)?.citations;
  const after = (next.citationMetadata as Wire | undefined)?.citations;
  if (Array.isArray(before) && Array.isArray(after)) merged.citationMetadata = { ...(next.citationMetadata as Wire), citations: [...before, ...after] };
  return merged;
}

/** The error a chunk of the wrong shape ends the stream with, `path` naming what is wrong. */
function malformed(path: string): LlmError {
  return invalidUpstream(PROTOCOL, 'stream chunk', { path });
}
