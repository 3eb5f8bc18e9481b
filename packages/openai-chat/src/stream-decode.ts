import type { CodecContext, LlmError, LlmFinishReason, LlmStreamEvent, LlmUsage, SseEvent, StepOutput, StreamOptions, StreamStep } from '@llm/core';
import { invalidUpstream, isJsonObject, streamEndedEarly, upstreamDecodeFailure } from '@llm/core';
import { SseJsonReader } from '@llm/core/kit';
import { decodeDeltaAnnotations } from './delta-annotations.js';
import { decodeError } from './error.js';
import { decodeChoiceFinish } from './finish-reason.js';
import { PROTOCOL } from './protocol.js';
import { decodeLogprobs } from './response-decode.js';
import { decodeUsage } from './usage.js';

const P = PROTOCOL;
type Out = StepOutput<LlmStreamEvent>;
type TextKind = 'text' | 'refusal' | 'reasoning';

/** Per-choice state: the open text-like block and the tool calls by wire index. */
interface ChoiceState {
  /** The open text / refusal / reasoning block, if any. */
  open: { kind: TextKind; index: number } | undefined;
  /** Wire tool-call index -> canonical block index (open until the choice finishes). */
  tools: Map<number, number>;
  /** A refusal delta was seen (a `stop` finish is then a refusal). */
  refused: boolean;
  finished: boolean;
}

/** State of one stream decode. */
export interface ChatDecodeState {
  /** Reads the events' JSON, events shaped like the one before them without a parse. */
  json: SseJsonReader;
  started: boolean;
  nextBlock: number;
  choices: Map<number, ChoiceState>;
  /** Finish events held back until the usage is known. */
  pending: Array<Extract<LlmStreamEvent, { type: 'finish' }>>;
  usage: LlmUsage | undefined;
  /** Set after `[DONE]`, the usage chunk that released the finishes, or an error. */
  done: boolean;
  /** Where losses are reported (annotations without a canonical form). */
  context: CodecContext | undefined;
}

/** A fresh state; the options are only the context losses are reported to. */
export function createDecodeState(options?: StreamOptions): ChatDecodeState {
  return { started: false, nextBlock: 0, choices: new Map(), pending: [], usage: undefined, done: false, json: new SseJsonReader(P), context: options };
}

/**
 * Chat Completions SSE events -> canonical stream events. `finish` events are held until the
 * usage is known (the usage-only chunk, `[DONE]` or the end of the stream). A stream that ends
 * before every choice's `finish_reason` (and without `[DONE]`) ends with an `upstream` error.
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 */
export function streamDecoder(options?: StreamOptions): StreamStep<SseEvent, LlmStreamEvent> {
  const state = createDecodeState(options);
  return {
    transform: (sse, out) => decodeStep(state, sse, out),
    flush: (out) => decodeEnd(state, out),
  };
}

/**
 * One SSE event -> canonical events: `[DONE]` ends the stream, an empty event is skipped, any
 * other is a JSON chunk (text that is not one ends the stream with an `upstream` error).
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 */
export function decodeStep(state: ChatDecodeState, sse: SseEvent, out: Out): void {
  if (state.done) return;
  const data = sse.data;
  if (data === '[DONE]') return decodeDone(state, out);
  if (data === '') return;
  const { payload, error } = state.json.read(data, 'stream chunk');
  if (error) failStream(state, error, out);
  else decodeChunk(state, payload, out);
}

/**
 * The input ended without `[DONE]`. A stream in which every choice sent its `finish_reason` is
 * complete: OpenAI sends `finish_reason` on the last content chunk and the digest notes it is
 * "missing only on broken connections", while some compatible servers (and proxies) close
 * without `[DONE]`, or lose the usage-only chunk that would follow. Any other stream was cut: it
 * ends with an `upstream` error, blocks left open (a tool call cut mid-arguments is never handed
 * on as complete) and no finish made up.
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 */
export function decodeEnd(state: ChatDecodeState, out: Out): void {
  if (state.done) return;
  let finished = state.choices.size > 0;
  for (const choice of state.choices.values()) finished &&= choice.finished;
  if (finished) decodeDone(state, out);
  else failStream(state, streamEndedEarly(P, 'finish_reason'), out);
}

function choiceState(state: ChatDecodeState, index: number): ChoiceState {
  let choice = state.choices.get(index);
  if (!choice) {
    choice = { open: undefined, tools: new Map(), refused: false, finished: false };
    state.choices.set(index, choice);
  }
  return choice;
}

/** Text of `kind` for the choice, in its open block or a new one; the block's index. */
function textDelta(state: ChatDecodeState, choice: ChoiceState, choiceIndex: number, kind: TextKind, text: string, out: Out): number {
  if (choice.open?.kind !== kind) {
    if (choice.open) out.enqueue({ type: 'block-end', index: choice.open.index });
    const index = state.nextBlock++;
    choice.open = { kind, index };
    const block = kind === 'reasoning' ? { kind, origin: { protocol: P } } : { kind };
    out.enqueue(choiceIndex === 0 ? { type: 'block-start', index, block } : { type: 'block-start', index, block, choice: choiceIndex });
  }
  const index = choice.open.index;
  if (text !== '') out.enqueue(kind === 'reasoning' ? { type: 'reasoning-delta', index, text } : { type: 'text-delta', index, text });
  return index;
}

function toolDelta(state: ChatDecodeState, choice: ChoiceState, choiceIndex: number, value: unknown, position: number, out: Out): void {
  if (!isJsonObject(value)) return;
  const wireIndex = typeof value.index === 'number' ? value.index : position;
  const fn = isJsonObject(value.function) ? value.function : isJsonObject(value.custom) ? value.custom : undefined;
  const args = fn ? (typeof fn.arguments === 'string' ? fn.arguments : typeof fn.input === 'string' ? fn.input : undefined) : undefined;
  let index = choice.tools.get(wireIndex);
  if (index === undefined) {
    // Regression #36: only a new wire index starts a call; a repeated name does not.
    if (choice.open) {
      out.enqueue({ type: 'block-end', index: choice.open.index });
      choice.open = undefined;
    }
    index = state.nextBlock++;
    choice.tools.set(wireIndex, index);
    const block: { kind: 'tool_call'; id: string; name: string; freeform?: boolean } = {
      kind: 'tool_call',
      id: typeof value.id === 'string' ? value.id : `call_${choiceIndex}_${wireIndex}`,
      name: fn && typeof fn.name === 'string' ? fn.name : '',
    };
    if (value.type === 'custom') block.freeform = true;
    out.enqueue(choiceIndex === 0 ? { type: 'block-start', index, block } : { type: 'block-start', index, block, choice: choiceIndex });
  }
  if (args) out.enqueue({ type: 'tool-args-delta', index, json: args });
}

function closeChoice(choice: ChoiceState, out: Out): void {
  if (choice.open) out.enqueue({ type: 'block-end', index: choice.open.index });
  choice.open = undefined;
  for (const index of choice.tools.values()) out.enqueue({ type: 'block-end', index });
  choice.tools.clear();
}

/** Emits the held finishes (with the usage, when known). */
function releaseFinishes(state: ChatDecodeState, out: Out): void {
  for (const finish of state.pending) {
    if (state.usage) finish.usage = state.usage;
    out.enqueue(finish);
  }
  state.pending.length = 0;
}

/**
 * Ends the stream on `[DONE]`: closes what is open, releases finishes. `[DONE]` is the server
 * saying the answer is over, so a choice it left without a `finish_reason` finishes as `other`,
 * unless that choice has a tool call: only a `finish_reason` closes a call, so one still open at
 * `[DONE]` was cut (a proxy that drops the rest and appends `[DONE]` does this) and the stream
 * ends with the same `upstream` error as a stream cut without `[DONE]`. Whether the arguments
 * happen to parse decides nothing: a freeform call's input is not JSON, and telling would mean
 * keeping every call's text.
 */
function decodeDone(state: ChatDecodeState, out: Out): void {
  if (state.done) return;
  for (const choice of state.choices.values()) {
    if (!choice.finished && choice.tools.size > 0) return failStream(state, streamEndedEarly(P, 'finish_reason'), out);
  }
  state.done = true;
  for (const [index, choice] of state.choices) {
    if (choice.finished) continue;
    closeChoice(choice, out);
    state.pending.push(index === 0 ? { type: 'finish', reason: 'other' } : { type: 'finish', reason: 'other', choice: index });
  }
  releaseFinishes(state, out);
}

/** Emits a terminal error. */
function failStream(state: ChatDecodeState, error: LlmError, out: Out): void {
  state.done = true;
  out.enqueue({ type: 'error', error });
}

/**
 * One chunk (a JSON object) -> canonical events.
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 */
function decodeChunk(state: ChatDecodeState, chunk: Record<string, unknown>, out: Out): void {
  if (chunk.error !== undefined && chunk.error !== null) {
    const code = isJsonObject(chunk.error) ? chunk.error.code : undefined;
    const status = typeof code === 'number' ? code : 500;
    failStream(state, decodeError(status, chunk), out);
    return;
  }
  // Every chunk has a `choices` list (empty on the usage-only chunk, which some servers send
  // without one): anything else is not this protocol, and skipping it would lose content silently.
  if (!Array.isArray(chunk.choices) && !isJsonObject(chunk.usage)) {
    failStream(state, invalidUpstream(P, 'stream chunk', { path: 'choices' }), out);
    return;
  }
  if (!state.started) {
    state.started = true;
    const start: Extract<LlmStreamEvent, { type: 'start' }> = { type: 'start' };
    if (typeof chunk.id === 'string' && chunk.id !== '') start.id = chunk.id;
    if (typeof chunk.model === 'string' && chunk.model !== '') start.model = chunk.model;
    if (typeof chunk.created === 'number' && chunk.created !== 0) start.created = chunk.created;
    if (typeof chunk.service_tier === 'string') start.serviceTier = chunk.service_tier;
    if (typeof chunk.system_fingerprint === 'string') start.extensions = { [P]: { system_fingerprint: chunk.system_fingerprint } };
    out.enqueue(start);
  }
  const choices = chunk.choices;
  if (Array.isArray(choices)) {
    for (let i = 0; i < choices.length; i++) {
      const wire = choices[i];
      if (!isJsonObject(wire)) {
        failStream(state, invalidUpstream(P, 'stream chunk', { path: `choices[${i}]` }), out);
        return;
      }
      const choiceIndex = typeof wire.index === 'number' ? wire.index : i;
      const choice = choiceState(state, choiceIndex);
      if (choice.finished) continue;
      // Some compatible servers send `message` where a chunk has `delta`: read it as one.
      const delta = isJsonObject(wire.delta) ? wire.delta : isJsonObject(wire.message) ? wire.message : undefined;
      if (delta) {
        const reasoning =
          typeof delta.reasoning_content === 'string' ? delta.reasoning_content : typeof delta.reasoning === 'string' ? delta.reasoning : undefined;
        if (reasoning) textDelta(state, choice, choiceIndex, 'reasoning', reasoning, out);
        // The opening `content: ""` carries nothing: a text block starts with the first text.
        if (typeof delta.content === 'string' && delta.content !== '') textDelta(state, choice, choiceIndex, 'text', delta.content, out);
        if (Array.isArray(delta.annotations) && delta.annotations.length > 0) {
          const citations = decodeDeltaAnnotations(delta.annotations, `choices[${i}].delta.annotations`, state.context);
          // They cite the text: a text block is opened for them should none be open.
          const index = citations.length > 0 ? textDelta(state, choice, choiceIndex, 'text', '', out) : -1;
          for (const citation of citations) out.enqueue({ type: 'citation', index, citation });
        }
        if (typeof delta.refusal === 'string' && delta.refusal !== '') {
          choice.refused = true;
          textDelta(state, choice, choiceIndex, 'refusal', delta.refusal, out);
        }
        if (Array.isArray(delta.tool_calls)) {
          for (let k = 0; k < delta.tool_calls.length; k++) toolDelta(state, choice, choiceIndex, delta.tool_calls[k], k, out);
        }
        if (isJsonObject(delta.function_call))
          toolDelta(state, choice, choiceIndex, { index: -1, id: delta.function_call.name, function: delta.function_call }, 0, out);
      }
      if (isJsonObject(wire.logprobs) && choice.open?.kind === 'text') {
        let logprobs: ReturnType<typeof decodeLogprobs> | undefined;
        try {
          logprobs = decodeLogprobs(wire, 'logprobs', '');
        } catch {
          // Malformed logprobs are not worth ending the stream for.
        }
        // Enqueued outside the try: what the next step throws (a strict-mode loss) must not be swallowed.
        if (logprobs && logprobs.length > 0) out.enqueue({ type: 'logprobs', index: choice.open.index, logprobs });
      }
      if (typeof wire.finish_reason === 'string') {
        const reason: LlmFinishReason = decodeChoiceFinish(wire.finish_reason, choice.tools.size > 0, choice.refused);
        closeChoice(choice, out);
        choice.finished = true;
        state.pending.push(
          choiceIndex === 0
            ? { type: 'finish', reason, rawReason: wire.finish_reason }
            : { type: 'finish', reason, rawReason: wire.finish_reason, choice: choiceIndex },
        );
      }
    }
  }
  if (isJsonObject(chunk.usage)) {
    try {
      state.usage = decodeUsage(chunk, 'usage', '');
    } catch (error) {
      failStream(state, upstreamDecodeFailure(P, 'stream chunk', error), out);
      return;
    }
    out.enqueue({ type: 'usage', usage: state.usage });
    // The usage chunk comes after every finish: release them now.
    if ((!Array.isArray(choices) || choices.length === 0) && state.pending.length > 0) releaseFinishes(state, out);
  }
}
