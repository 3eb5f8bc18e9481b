import {
  LlmError,
  streamEndedEarly,
  upstreamDecodeFailure,
  type LlmFinishReason,
  type LlmStreamEvent,
  type SseEvent,
  type StreamOptions,
  type StreamStep,
} from '@llm/core';
import { SseJsonReader } from '@llm/core/kit';
import { decodeError, isExceptionEvent } from './errors.js';
import { PROTOCOL } from './protocol.js';
import { decodeStopReason, isKnownStopReason } from './stop-reason.js';
import { memberOf } from './union.js';
import { decodeUsage } from './usage.js';

type Out = Pick<TransformStreamDefaultController<LlmStreamEvent>, 'enqueue'>;
type Wire = Record<string, unknown>;

/** A wire block being received: its canonical index and what it holds. */
interface BlockState {
  index: number;
  kind: 'text' | 'reasoning' | 'tool_call' | 'skipped';
}

/** State of the ConverseStream -> canonical events decoder. */
export interface ConverseDecodeState {
  /** Reads the events' JSON, events shaped like the one before them without a parse. */
  json: SseJsonReader;
  /** The model the request went to (the stream does not name it). */
  model?: string;
  started: boolean;
  done: boolean;
  nextIndex: number;
  blocks: Map<number, BlockState>;
  stopReason?: string;
  /** `messageStop` fields besides the stop reason (`additionalModelResponseFields`). */
  stopExtras?: Wire;
  /** `metadata` received: usage, and the rest (`metrics`, `trace`) for Converse clients. */
  metadata?: Wire;
}

/** A fresh decoder state. */
export function createDecodeState(options: StreamOptions = {}): ConverseDecodeState {
  const state: ConverseDecodeState = { started: false, done: false, nextIndex: 0, blocks: new Map(), json: new SseJsonReader(PROTOCOL) };
  if (options.model !== undefined) state.model = options.model;
  return state;
}

/**
 * ConverseStream events -> canonical stream events. Each AWS event-stream frame arrives as an
 * SSE event named by its `:event-type` with the frame's JSON payload as data (the gateway's
 * transport unframes them). Text and reasoning blocks open with their first delta (Converse
 * sends `contentBlockStart` only for tool calls); the finish is held from `messageStop` until
 * `metadata` brings the usage, or the stream ends. Exception events end the stream with an
 * `error` event.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */
export function streamDecoder(options: StreamOptions = {}): StreamStep<SseEvent, LlmStreamEvent> {
  const state = createDecodeState(options);
  return { transform: (event, out) => decodeStep(state, event, out), flush: (out) => decodeEnd(state, out) };
}

/** Handles one event. Never throws: bad input becomes an `error` event. */
export function decodeStep(state: ConverseDecodeState, sse: SseEvent, out: Out): void {
  if (state.done) return;
  const { payload, error } = state.json.read(sse.data, 'stream event');
  if (error) return fail(state, error, out);
  const name = sse.event ?? '';
  if (isExceptionEvent(name)) return fail(state, decodeError(0, { ...payload, __type: name }), out);
  try {
    decodeEvent(state, name, payload, out);
  } catch (error) {
    fail(state, upstreamDecodeFailure(PROTOCOL, 'stream event', error), out);
  }
}

/**
 * End of input. A stream cut after `messageStop` still finishes (only the usage is missing); one
 * cut earlier ends with an `upstream` error, open blocks left unfinished (a tool call cut
 * mid-input is never handed on as complete).
 */
export function decodeEnd(state: ConverseDecodeState, out: Out): void {
  if (state.done) return;
  if (state.stopReason !== undefined) return finish(state, out);
  fail(state, streamEndedEarly(PROTOCOL, 'messageStop'), out);
}

function fail(state: ConverseDecodeState, error: LlmError, out: Out): void {
  state.done = true;
  out.enqueue({ type: 'error', error });
}

function unexpected(what: string): LlmError {
  return new LlmError({ kind: 'upstream', message: `unexpected Bedrock Converse stream event: ${what}`, protocol: PROTOCOL });
}

function blockIndexOf(event: Wire, name: string): number {
  const index = event.contentBlockIndex;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) throw unexpected(`${name} without a contentBlockIndex`);
  return index;
}

function decodeEvent(state: ConverseDecodeState, name: string, event: Wire, out: Out): void {
  if (name !== 'messageStart' && !state.started && name !== 'metadata') throw unexpected(`${name} before messageStart`);
  switch (name) {
    case 'messageStart': {
      if (state.started) throw unexpected('a second messageStart in one stream');
      state.started = true;
      out.enqueue(state.model !== undefined ? { type: 'start', model: state.model } : { type: 'start' });
      return;
    }
    case 'contentBlockStart':
      return blockStart(state, event, out);
    case 'contentBlockDelta':
      return blockDelta(state, event, out);
    case 'contentBlockStop': {
      const wireIndex = blockIndexOf(event, name);
      const block = state.blocks.get(wireIndex);
      // A block whose every delta was empty never opened: nothing to close.
      if (!block) return;
      state.blocks.delete(wireIndex);
      if (block.kind !== 'skipped') out.enqueue({ type: 'block-end', index: block.index });
      return;
    }
    case 'messageStop': {
      if (typeof event.stopReason !== 'string') throw unexpected('messageStop without a stopReason');
      state.stopReason = event.stopReason;
      // A reason this codec does not know reads as `other`: the extension keeps the word for Converse clients.
      if (!isKnownStopReason(event.stopReason)) (state.stopExtras ??= {}).stopReason = event.stopReason;
      for (const key in event) if (key !== 'stopReason' && key !== 'p') (state.stopExtras ??= {})[key] = event[key];
      return;
    }
    case 'metadata': {
      state.metadata = event;
      if (state.stopReason !== undefined) finish(state, out);
      return;
    }
    default:
      // Event types added later are skipped, as the SDK does.
      return;
  }
}

function open(state: ConverseDecodeState, wireIndex: number, kind: BlockState['kind']): BlockState {
  if (state.blocks.has(wireIndex)) throw unexpected(`block ${wireIndex} started twice`);
  const block: BlockState = { index: kind === 'skipped' ? -1 : state.nextIndex++, kind };
  state.blocks.set(wireIndex, block);
  return block;
}

function blockStart(state: ConverseDecodeState, event: Wire, out: Out): void {
  const wireIndex = blockIndexOf(event, 'contentBlockStart');
  const start = event.start as Wire | undefined;
  if (typeof start !== 'object' || start === null) throw unexpected('contentBlockStart without start');
  const tool = start.toolUse as Wire | undefined;
  if (memberOf(start) !== 'toolUse' || typeof tool !== 'object' || tool === null) {
    // Server-side tool results and generated images: no canonical block streams them.
    open(state, wireIndex, 'skipped');
    return;
  }
  if (typeof tool.toolUseId !== 'string' || typeof tool.name !== 'string') throw unexpected('toolUse start without toolUseId or name');
  const block = open(state, wireIndex, 'tool_call');
  out.enqueue({ type: 'block-start', index: block.index, block: { kind: 'tool_call', id: tool.toolUseId, name: tool.name } });
}

function blockDelta(state: ConverseDecodeState, event: Wire, out: Out): void {
  const wireIndex = blockIndexOf(event, 'contentBlockDelta');
  const delta = event.delta as Wire | undefined;
  if (typeof delta !== 'object' || delta === null) throw unexpected('contentBlockDelta without delta');
  let block = state.blocks.get(wireIndex);
  if (block?.kind === 'skipped') return;
  switch (memberOf(delta)) {
    case 'text': {
      if (typeof delta.text !== 'string') throw unexpected('a text delta that is not a string');
      if (!block) {
        if (delta.text === '') return;
        block = open(state, wireIndex, 'text');
        out.enqueue({ type: 'block-start', index: block.index, block: { kind: 'text' } });
      }
      if (block.kind === 'text' && delta.text !== '') out.enqueue({ type: 'text-delta', index: block.index, text: delta.text });
      return;
    }
    case 'toolUse': {
      const input = (delta.toolUse as Wire | null)?.input;
      if (block?.kind !== 'tool_call' || typeof input !== 'string') throw unexpected('a toolUse delta outside a tool call');
      if (input !== '') out.enqueue({ type: 'tool-args-delta', index: block.index, json: input });
      return;
    }
    case 'reasoningContent':
      return reasoningDelta(state, wireIndex, block, delta.reasoningContent as Wire, out);
    default:
      // citation and kinds added later: skipped.
      return;
  }
}

function reasoningDelta(state: ConverseDecodeState, wireIndex: number, block: BlockState | undefined, delta: Wire, out: Out): void {
  if (typeof delta !== 'object' || delta === null) throw unexpected('a reasoningContent delta that is not an object');
  switch (memberOf(delta)) {
    case 'redactedContent': {
      if (block || typeof delta.redactedContent !== 'string') throw unexpected('redactedContent inside an open block');
      const opened = open(state, wireIndex, 'reasoning');
      out.enqueue({
        type: 'block-start',
        index: opened.index,
        block: { kind: 'reasoning', redacted: true, signature: delta.redactedContent, origin: { protocol: PROTOCOL } },
      });
      return;
    }
    case 'text':
    case 'signature': {
      if (!block) {
        block = open(state, wireIndex, 'reasoning');
        out.enqueue({ type: 'block-start', index: block.index, block: { kind: 'reasoning', origin: { protocol: PROTOCOL } } });
      }
      if (block.kind !== 'reasoning') throw unexpected('a reasoning delta inside another block');
      if (typeof delta.text === 'string') {
        if (delta.text !== '') out.enqueue({ type: 'reasoning-delta', index: block.index, text: delta.text });
      } else if (typeof delta.signature === 'string')
        out.enqueue({ type: 'reasoning-signature', index: block.index, signature: delta.signature, origin: { protocol: PROTOCOL } });
      else throw unexpected('a reasoning delta that is not a string');
      return;
    }
    default:
      return;
  }
}

function finish(state: ConverseDecodeState, out: Out): void {
  if (state.done) return;
  if (!state.started) return fail(state, unexpected('messageStop before messageStart'), out);
  // Only `contentBlockStop` completes a call's input; `max_tokens` says the output was cut, so its
  // open blocks close under it.
  if (state.stopReason !== 'max_tokens') {
    for (const block of state.blocks.values()) if (block.kind === 'tool_call') return fail(state, streamEndedEarly(PROTOCOL, 'contentBlockStop'), out);
  }
  for (const block of state.blocks.values()) if (block.kind !== 'skipped') out.enqueue({ type: 'block-end', index: block.index });
  state.blocks.clear();
  state.done = true;
  const raw = state.stopReason!;
  const reason: LlmFinishReason = decodeStopReason(raw);
  const event: Extract<LlmStreamEvent, { type: 'finish' }> = { type: 'finish', reason, rawReason: raw };
  let extras: Wire | undefined = state.stopExtras ? { $stop: state.stopExtras } : undefined;
  const metadata = state.metadata;
  if (metadata) {
    if (metadata.usage != null) event.usage = decodeUsage(metadata, 'usage', 'metadata');
    let rest: Wire | undefined;
    for (const key in metadata) if (key !== 'usage' && key !== 'p') (rest ??= {})[key] = metadata[key];
    if (rest) (extras ??= {}).$metadata = rest;
  }
  if (extras) event.extensions = { [PROTOCOL]: extras };
  out.enqueue(event);
}
