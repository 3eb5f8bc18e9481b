import type { LlmError, LlmFinishReason, LlmStreamEvent, LlmUsage } from '@llm/core';
import { invalidUpstream, isJsonObject, streamEndedEarly, upstreamDecodeFailure } from '@llm/core';
import { decodeError } from './error.js';
import { decodeChoiceFinish } from './finish-reason.js';
import { PROTOCOL } from './protocol.js';
import { decodeLogprobs } from './response-decode.js';
import { decodeUsage } from './usage.js';

const P = PROTOCOL;
type Emit = Pick<TransformStreamDefaultController<LlmStreamEvent>, 'enqueue'>;
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
  started: boolean;
  nextBlock: number;
  choices: Map<number, ChoiceState>;
  /** Finish events held back until the usage is known. */
  pending: Array<Extract<LlmStreamEvent, { type: 'finish' }>>;
  usage: LlmUsage | undefined;
  /** Set after `[DONE]`, the usage chunk that released the finishes, or an error. */
  done: boolean;
}

/** A fresh state. */
export function createDecodeState(): ChatDecodeState {
  return { started: false, nextBlock: 0, choices: new Map(), pending: [], usage: undefined, done: false };
}

function choiceState(state: ChatDecodeState, index: number): ChoiceState {
  let choice = state.choices.get(index);
  if (!choice) {
    choice = { open: undefined, tools: new Map(), refused: false, finished: false };
    state.choices.set(index, choice);
  }
  return choice;
}

function textDelta(state: ChatDecodeState, emit: Emit, choice: ChoiceState, choiceIndex: number, kind: TextKind, text: string): void {
  if (choice.open?.kind !== kind) {
    if (choice.open) emit.enqueue({ type: 'block-end', index: choice.open.index });
    const index = state.nextBlock++;
    choice.open = { kind, index };
    const block = kind === 'reasoning' ? { kind, origin: { protocol: P } } : { kind };
    emit.enqueue(choiceIndex === 0 ? { type: 'block-start', index, block } : { type: 'block-start', index, block, choice: choiceIndex });
  }
  if (text === '') return;
  emit.enqueue(kind === 'reasoning' ? { type: 'reasoning-delta', index: choice.open.index, text } : { type: 'text-delta', index: choice.open.index, text });
}

function toolDelta(state: ChatDecodeState, emit: Emit, choice: ChoiceState, choiceIndex: number, value: unknown, position: number): void {
  if (!isJsonObject(value)) return;
  const wireIndex = typeof value.index === 'number' ? value.index : position;
  const fn = isJsonObject(value.function) ? value.function : isJsonObject(value.custom) ? value.custom : undefined;
  const args = fn ? (typeof fn.arguments === 'string' ? fn.arguments : typeof fn.input === 'string' ? fn.input : undefined) : undefined;
  let index = choice.tools.get(wireIndex);
  if (index === undefined) {
    // Regression #36: only a new wire index starts a call; a repeated name does not.
    if (choice.open) {
      emit.enqueue({ type: 'block-end', index: choice.open.index });
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
    emit.enqueue(choiceIndex === 0 ? { type: 'block-start', index, block } : { type: 'block-start', index, block, choice: choiceIndex });
  }
  if (args) emit.enqueue({ type: 'tool-args-delta', index, json: args });
}

function closeChoice(emit: Emit, choice: ChoiceState): void {
  if (choice.open) emit.enqueue({ type: 'block-end', index: choice.open.index });
  choice.open = undefined;
  for (const index of choice.tools.values()) emit.enqueue({ type: 'block-end', index });
  choice.tools.clear();
}

/** Emits the held finishes (with the usage, when known). */
export function releaseFinishes(state: ChatDecodeState, emit: Emit): void {
  for (const finish of state.pending) {
    if (state.usage) finish.usage = state.usage;
    emit.enqueue(finish);
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
export function endStream(state: ChatDecodeState, emit: Emit): void {
  if (state.done) return;
  for (const choice of state.choices.values()) {
    if (!choice.finished && choice.tools.size > 0) return failStream(state, emit, streamEndedEarly(P, 'finish_reason'));
  }
  state.done = true;
  for (const [index, choice] of state.choices) {
    if (choice.finished) continue;
    closeChoice(emit, choice);
    state.pending.push(index === 0 ? { type: 'finish', reason: 'other' } : { type: 'finish', reason: 'other', choice: index });
  }
  releaseFinishes(state, emit);
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
export function endInput(state: ChatDecodeState, emit: Emit): void {
  if (state.done) return;
  let finished = state.choices.size > 0;
  for (const choice of state.choices.values()) finished &&= choice.finished;
  if (finished) endStream(state, emit);
  else failStream(state, emit, streamEndedEarly(P, 'finish_reason'));
}

/** Emits a terminal error. */
export function failStream(state: ChatDecodeState, emit: Emit, error: LlmError): void {
  state.done = true;
  emit.enqueue({ type: 'error', error });
}

/**
 * One chunk (already parsed) -> canonical events.
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 */
export function decodeChunk(state: ChatDecodeState, emit: Emit, chunk: unknown): void {
  if (state.done) return;
  if (!isJsonObject(chunk)) {
    failStream(state, emit, invalidUpstream(P, 'stream chunk'));
    return;
  }
  if (chunk.error !== undefined && chunk.error !== null) {
    const code = isJsonObject(chunk.error) ? chunk.error.code : undefined;
    const status = typeof code === 'number' ? code : 500;
    failStream(state, emit, decodeError(status, chunk));
    return;
  }
  // Every chunk has a `choices` list (empty on the usage-only chunk, which some servers send
  // without one): anything else is not this protocol, and skipping it would lose content silently.
  if (!Array.isArray(chunk.choices) && !isJsonObject(chunk.usage)) {
    failStream(state, emit, invalidUpstream(P, 'stream chunk', { path: 'choices' }));
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
    emit.enqueue(start);
  }
  const choices = chunk.choices;
  if (Array.isArray(choices)) {
    for (let i = 0; i < choices.length; i++) {
      const wire = choices[i];
      if (!isJsonObject(wire)) {
        failStream(state, emit, invalidUpstream(P, 'stream chunk', { path: `choices[${i}]` }));
        return;
      }
      const choiceIndex = typeof wire.index === 'number' ? wire.index : i;
      const choice = choiceState(state, choiceIndex);
      if (choice.finished) continue;
      // Some compatible servers send `message` where a chunk has `delta`: read it as one.
      const delta = isJsonObject(wire.delta) ? wire.delta : isJsonObject(wire.message) ? wire.message : undefined;
      if (delta) {
        const reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : typeof delta.reasoning === 'string' ? delta.reasoning : undefined;
        if (reasoning) textDelta(state, emit, choice, choiceIndex, 'reasoning', reasoning);
        // The opening `content: ""` carries nothing: a text block starts with the first text.
        if (typeof delta.content === 'string' && delta.content !== '') textDelta(state, emit, choice, choiceIndex, 'text', delta.content);
        if (typeof delta.refusal === 'string' && delta.refusal !== '') {
          choice.refused = true;
          textDelta(state, emit, choice, choiceIndex, 'refusal', delta.refusal);
        }
        if (Array.isArray(delta.tool_calls)) {
          for (let k = 0; k < delta.tool_calls.length; k++) toolDelta(state, emit, choice, choiceIndex, delta.tool_calls[k], k);
        }
        if (isJsonObject(delta.function_call)) toolDelta(state, emit, choice, choiceIndex, { index: -1, id: delta.function_call.name, function: delta.function_call }, 0);
      }
      if (isJsonObject(wire.logprobs) && choice.open?.kind === 'text') {
        let logprobs: ReturnType<typeof decodeLogprobs> | undefined;
        try {
          logprobs = decodeLogprobs(wire, 'logprobs', '');
        } catch {
          // Malformed logprobs are not worth ending the stream for.
        }
        // Enqueued outside the try: what the next step throws (a strict-mode loss) must not be swallowed.
        if (logprobs && logprobs.length > 0) emit.enqueue({ type: 'logprobs', index: choice.open.index, logprobs });
      }
      if (typeof wire.finish_reason === 'string') {
        const reason: LlmFinishReason = decodeChoiceFinish(wire.finish_reason, choice.tools.size > 0, choice.refused);
        closeChoice(emit, choice);
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
      failStream(state, emit, upstreamDecodeFailure(P, 'stream chunk', error));
      return;
    }
    emit.enqueue({ type: 'usage', usage: state.usage });
    // The usage chunk comes after every finish: release them now.
    if ((!Array.isArray(choices) || choices.length === 0) && state.pending.length > 0) releaseFinishes(state, emit);
  }
}
