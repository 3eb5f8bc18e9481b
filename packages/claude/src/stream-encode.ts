import {
  CALL_ARGUMENTS_LOSS,
  JsonSseEvent,
  isCodeExecutionPart,
  isMcpPart,
  reportForeignPartState,
  type CodeExecutionPairs,
  reportLoss,
  unfinishedStreamError,
  type StreamStep,
  type LlmError,
  type LlmStreamEvent,
  type LlmUsage,
  type LlmWarning,
  type SseEvent,
  type StreamOptions,
} from '@llm/core';
import { HeldCallArguments, jsonString } from '@llm/core/kit';
import { encodePart, reportForeignReasoning } from './blocks-encode.js';
import { codeExecutionPairs } from './code-execution-blocks.js';
import { encodeCitation } from './citations.js';
import { encodeError } from './errors.js';
import { PROTOCOL } from './protocol.js';
import { encodeStopReason } from './stop-reason.js';
import { encodeUsage } from './usage.js';

type Out = Pick<TransformStreamDefaultController<SseEvent>, 'enqueue'>;
type Wire = Record<string, unknown>;

/** One open wire block. */
interface OpenBlock {
  wireIndex: number;
  kind: 'text' | 'thinking' | 'tool_use' | 'kept';
  /** Thinking: the signature to send just before the block stops (the last one wins). */
  signature?: string;
  /** Free-form tool call: raw input text, sent as `{"input": ...}` when the block ends. */
  freeform?: string;
  /** Tool call (not free-form): its argument text, held back until it opens a JSON object. */
  args?: HeldCallArguments;
}

/** State of the canonical -> Claude SSE encoder. */
export interface EncodeState {
  options: StreamOptions;
  /** The `start` event, held until the first other event so early usage can join `message_start`. */
  pendingStart?: Extract<LlmStreamEvent, { type: 'start' }>;
  started: boolean;
  finished: boolean;
  nextWireIndex: number;
  open: Map<number, OpenBlock>;
  /** Canonical blocks not sent (other choices, parts Claude cannot hold). */
  skipped: Set<number>;
  usage?: LlmUsage;
  /** The answer's model (from `start`), named in loss reports as the body names it. */
  model?: string;
  /** Loss kinds already reported (each once per stream). */
  reported: Set<string>;
  /** Pairs the answer's code runs with their results. */
  codePairs: CodeExecutionPairs;
}

/** A fresh encoder state. */
export function createEncodeState(options: StreamOptions = {}): EncodeState {
  return {
    options,
    started: false,
    finished: false,
    nextWireIndex: 0,
    open: new Map(),
    skipped: new Set(),
    reported: new Set(),
    codePairs: codeExecutionPairs(),
  };
}

/**
 * Canonical stream events -> Claude SSE, every event with its `event:` line, in the order the
 * SDK's `MessageStream` requires: `message_start`, blocks one at a time (start, deltas, stop),
 * `message_delta` with the stop reason and cumulative usage, `message_stop`. A thinking block's
 * signature is sent once, just before it stops. Extra choices are dropped (reported).
 */
export function streamEncoder(options: StreamOptions = {}): StreamStep<LlmStreamEvent, SseEvent> {
  const state = createEncodeState(options);
  return { transform: (event, out) => encodeStep(state, event, out), flush: (out) => encodeEnd(state, out) };
}

/** Encodes one canonical event. */
export function encodeStep(state: EncodeState, event: LlmStreamEvent, out: Out): void {
  if (state.finished) return;
  if (event.type === 'start') {
    if (!state.started && state.pendingStart === undefined) state.pendingStart = event;
    return;
  }
  if (event.type === 'usage') {
    state.usage = event.usage;
    return;
  }
  if (event.type === 'error') return fail(state, event.error, out);
  ensureStarted(state, out);
  switch (event.type) {
    case 'block-start':
      return blockStart(state, event, out);
    case 'text-delta': {
      const block = state.open.get(event.index);
      if (block?.kind === 'text') sendDelta(out, block.wireIndex, 'text_delta', 'text', event.text);
      return;
    }
    case 'reasoning-delta': {
      const block = state.open.get(event.index);
      if (block?.kind === 'thinking') sendDelta(out, block.wireIndex, 'thinking_delta', 'thinking', event.text);
      return;
    }
    case 'reasoning-signature': {
      const block = state.open.get(event.index);
      if (!block) return;
      // Reported as the body reports the part's signature.
      const path = `blocks[${event.index}]`;
      if (block.kind !== 'thinking') reportForeignPartState(state.options, path, event, { protocol: PROTOCOL, model: state.model });
      else if (event.origin !== undefined && event.origin.protocol !== PROTOCOL)
        reportForeignReasoning(event, path, { context: state.options, model: state.model });
      else block.signature = event.signature;
      return;
    }
    case 'tool-args-delta': {
      const block = state.open.get(event.index);
      if (block?.kind !== 'tool_use') return;
      if (block.freeform !== undefined) block.freeform += event.json;
      else {
        const text = (block.args ??= new HeldCallArguments()).push(event.json);
        if (text !== undefined) sendDelta(out, block.wireIndex, 'input_json_delta', 'partial_json', text);
      }
      return;
    }
    case 'citation': {
      const block = state.open.get(event.index);
      if (block?.kind !== 'text') return;
      const citation = encodeCitation(event.citation, `blocks[${event.index}].citations`, state.options);
      send(out, { type: 'content_block_delta', index: block.wireIndex, delta: { type: 'citations_delta', citation } });
      return;
    }
    case 'logprobs':
      lossOnce(state, 'logprobs', `blocks[${event.index}].logprobs`, 'Claude has no logprobs');
      return;
    case 'block-end': {
      const extras = event.extensions?.[PROTOCOL];
      if (extras && state.open.has(event.index) && Object.keys(extras).some((key) => !key.startsWith('$'))) {
        lossOnce(
          state,
          'block-fields',
          `blocks[${event.index}]`,
          'block fields known only when the block ended (such as `caller`) cannot be added to a block already started',
        );
      }
      return blockEnd(state, event.index, out);
    }
    case 'finish': {
      if ((event.choice ?? 0) !== 0) return;
      for (const index of [...state.open.keys()]) blockEnd(state, index, out);
      const delta: Wire = {
        stop_reason: encodeStopReason(event.reason, event.rawReason, event.stopSequence),
        stop_sequence: event.stopSequence ?? null,
      };
      const extras = event.extensions?.[PROTOCOL];
      if (extras) Object.assign(delta, extras);
      send(out, { type: 'message_delta', delta, usage: encodeUsage(event.usage ?? state.usage) });
      send(out, { type: 'message_stop' });
      state.finished = true;
      return;
    }
  }
}

/**
 * End of input: a stream that stopped without `finish` or `error` (even one that sent nothing)
 * tells the client so with `event: error`, never an empty body or a made-up finish.
 */
export function encodeEnd(state: EncodeState, out: Out): void {
  if (!state.finished) fail(state, unfinishedStreamError(), out);
}

/**
 * `content_block_delta` `{type, index, delta: {type: kind, [field]: text}}`, written as the text
 * `JSON.stringify` makes of it: deltas are most of a stream, and only their string needs escaping
 * (`index` is the encoder's own block count, an integer, which a template writes as JSON does).
 */
function sendDelta(out: Out, index: number, kind: string, field: string, text: string): void {
  out.enqueue(
    new JsonSseEvent('content_block_delta', `{"type":"content_block_delta","index":${index},"delta":{"type":"${kind}","${field}":${jsonString(text)}}}`),
  );
}

function send(out: Out, payload: Wire): void {
  out.enqueue(new JsonSseEvent(payload.type as string, JSON.stringify(payload)));
}

function lossOnce(state: EncodeState, key: string, path: string, message: string, code: LlmWarning['code'] = 'dropped-field'): void {
  if (state.reported.has(key)) return;
  state.reported.add(key);
  reportLoss(state.options, { code, path, message, protocol: PROTOCOL });
}

/** Sends `message_start` if it has not gone yet. */
function ensureStarted(state: EncodeState, out: Out): void {
  if (state.started) return;
  state.started = true;
  const start = state.pendingStart;
  state.pendingStart = undefined;
  state.model = start?.model;
  const message: Wire = {
    id: start?.id ?? state.options.id ?? `msg_${crypto.randomUUID().replace(/-/g, '')}`,
    type: 'message',
    role: 'assistant',
    model: start?.model ?? '',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: encodeUsage(state.usage),
  };
  const extras = start?.extensions?.[PROTOCOL];
  if (extras) Object.assign(message, extras);
  send(out, { type: 'message_start', message });
}

function blockStart(state: EncodeState, event: Extract<LlmStreamEvent, { type: 'block-start' }>, out: Out): void {
  if ((event.choice ?? 0) !== 0) {
    state.skipped.add(event.index);
    lossOnce(state, 'choices', 'choices', 'Claude answers with one message; blocks of other choices were dropped');
    return;
  }
  const block = event.block;
  const wireIndex = state.nextWireIndex;
  let open: OpenBlock;
  let content: Wire;
  switch (block.kind) {
    case 'text':
    case 'refusal':
      open = { wireIndex, kind: 'text' };
      content = { type: 'text', text: '' };
      break;
    case 'reasoning':
      if (block.redacted) {
        open = { wireIndex, kind: 'kept' };
        content = { type: 'redacted_thinking', data: block.signature ?? '' };
      } else {
        open = { wireIndex, kind: 'thinking' };
        if (block.signature !== undefined && (block.origin === undefined || block.origin.protocol === PROTOCOL)) open.signature = block.signature;
        content = { type: 'thinking', thinking: '', signature: '' };
      }
      break;
    case 'tool_call':
      reportForeignPartState(state.options, `blocks[${event.index}]`, block, { protocol: PROTOCOL, model: state.model });
      open = { wireIndex, kind: 'tool_use' };
      if (block.freeform) {
        open.freeform = '';
        lossOnce(state, 'freeform', `blocks[${event.index}]`, CALL_ARGUMENTS_LOSS.freeform, 'lossy-conversion');
      }
      content = { type: 'tool_use', id: block.id, name: block.name, input: {} };
      break;
    case 'part': {
      const part = block.part;
      // MCP parts, code runs and provider parts go through the JSON encoder's own mapping, so both paths write and report them alike.
      const mapped = isMcpPart(part) || isCodeExecutionPart(part) || part.type === 'provider';
      const value = mapped ? encodePart(part, `blocks[${event.index}]`, { context: state.options, response: true, codePairs: state.codePairs }) : undefined;
      if (!value) {
        state.skipped.add(event.index);
        if (!mapped) lossOnce(state, `part-${part.type}`, `blocks[${event.index}]`, `a generated ${part.type} has no Claude stream block`, 'dropped-part');
        return;
      }
      open = { wireIndex, kind: 'kept' };
      const input = value.input;
      if (typeof input === 'object' && input !== null && Object.keys(input).length > 0) {
        // Server tool calls stream their input like tool_use does.
        state.nextWireIndex++;
        state.open.set(event.index, open);
        send(out, { type: 'content_block_start', index: wireIndex, content_block: { ...value, input: {} } });
        send(out, { type: 'content_block_delta', index: wireIndex, delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) } });
        return;
      }
      content = value;
      break;
    }
  }
  state.nextWireIndex++;
  state.open.set(event.index, open);
  send(out, { type: 'content_block_start', index: wireIndex, content_block: content });
}

function blockEnd(state: EncodeState, index: number, out: Out): void {
  const block = state.open.get(index);
  if (!block) return;
  state.open.delete(index);
  // Every thinking block ends with its signature, as the API sends it (empty when there is none,
  // as in the JSON form), so streamed and non-streamed answers replay the same way.
  if (block.kind === 'thinking') {
    send(out, { type: 'content_block_delta', index: block.wireIndex, delta: { type: 'signature_delta', signature: block.signature ?? '' } });
  }
  block.args?.end((kind) => lossOnce(state, kind, `blocks[${index}].arguments`, CALL_ARGUMENTS_LOSS[kind], 'lossy-conversion'));
  if (block.freeform !== undefined) {
    send(out, {
      type: 'content_block_delta',
      index: block.wireIndex,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify({ input: block.freeform }) },
    });
  }
  send(out, { type: 'content_block_stop', index: block.wireIndex });
}

/**
 * Ends the stream with `event: error` (no `message_delta`, no `message_stop`), after whatever
 * was already sent. `message_start` goes first only when there is a message to start (a `start`
 * was received): the SDK raises `event: error` whether or not a message started, so a stream
 * that failed before anything is that one event.
 */
function fail(state: EncodeState, error: LlmError, out: Out): void {
  if (state.pendingStart !== undefined) ensureStarted(state, out);
  state.finished = true;
  send(out, encodeError(error).body as unknown as Wire);
}
