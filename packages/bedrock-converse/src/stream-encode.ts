import {
  CALL_ARGUMENTS_LOSS,
  reportForeignPartState,
  reportLoss,
  unfinishedStreamError,
  type LlmError,
  type LlmStreamEvent,
  type LlmUsage,
  type LlmWarning,
  type SseEvent,
  type StreamOptions,
  type StreamStep,
} from '@llm/core';
import { HeldCallArguments, jsonString } from '@llm/core/kit';
import { encodePart, reportForeignReasoning } from './content-encode.js';
import { encodeError, exceptionEventName } from './errors.js';
import { PROTOCOL } from './protocol.js';
import { encodeStopReason } from './stop-reason.js';
import { encodeUsage, reportUnwrittenUsage } from './usage.js';

type Out = Pick<TransformStreamDefaultController<SseEvent>, 'enqueue'>;
type Wire = Record<string, unknown>;

/** One open wire block. */
interface OpenBlock {
  wireIndex: number;
  kind: 'text' | 'reasoning' | 'tool_use';
  /** Reasoning: the signature to send just before the block stops (the last one wins). */
  signature?: string;
  /** Free-form tool call: raw input text, sent as `{"input": ...}` when the block ends. */
  freeform?: string;
  /** Tool call (not free-form): its argument text, held back until it opens a JSON object. */
  args?: HeldCallArguments;
  /** A delta said what the block is (a tool call's start does): else it ends with an empty one. */
  described?: boolean;
}

/** Answer fields of a Converse answer that stream in `messageStop`; the others go in `metadata`. */
const STOP_FIELDS = new Set(['additionalModelResponseFields']);

/** State of the canonical -> ConverseStream encoder. */
export interface ConverseEncodeState {
  options: StreamOptions;
  started: boolean;
  finished: boolean;
  nextWireIndex: number;
  open: Map<number, OpenBlock>;
  /** Response-level Converse fields from `start` (a Converse JSON answer's `metrics`, ...). */
  answerFields?: Wire;
  usage?: LlmUsage;
  /** The answer's service tier (from `start`), sent in `metadata` as the body sends it. */
  serviceTier?: string;
  /** The answer's model (from `start`), named in loss reports as the body names it. */
  model?: string;
  /** Loss kinds already reported (each once per stream). */
  reported: Set<string>;
}

/** A fresh encoder state. */
export function createEncodeState(options: StreamOptions = {}): ConverseEncodeState {
  return { options, started: false, finished: false, nextWireIndex: 0, open: new Map(), reported: new Set() };
}

/**
 * Canonical stream events -> ConverseStream events (SSE events named by the event type, JSON
 * payloads), in the order the AWS SDK reads them: `messageStart`, blocks one at a time
 * (`contentBlockStart` for tool calls only, deltas, `contentBlockStop`), `messageStop` with the
 * stop reason, then `metadata` with usage and metrics. A reasoning block's signature is sent once,
 * just before it stops. Extra choices are dropped (reported). The gateway frames each event as
 * an AWS event-stream message for Converse clients.
 */
export function streamEncoder(options: StreamOptions = {}): StreamStep<LlmStreamEvent, SseEvent> {
  const state = createEncodeState(options);
  return { transform: (event, out) => encodeStep(state, event, out), flush: (out) => encodeEnd(state, out) };
}

/** Encodes one canonical event. */
export function encodeStep(state: ConverseEncodeState, event: LlmStreamEvent, out: Out): void {
  if (state.finished) return;
  switch (event.type) {
    case 'start': {
      const fields = event.extensions?.[PROTOCOL];
      if (fields) state.answerFields = fields;
      state.serviceTier = event.serviceTier;
      state.model = event.model;
      return ensureStarted(state, out);
    }
    case 'usage':
      state.usage = event.usage;
      return;
    case 'error':
      return fail(state, event.error, out);
  }
  ensureStarted(state, out);
  switch (event.type) {
    case 'block-start':
      return blockStart(state, event, out);
    case 'text-delta': {
      const block = state.open.get(event.index);
      if (block?.kind === 'text' && event.text !== '') stringDelta(out, block, '{"text":', event.text, '}');
      return;
    }
    case 'reasoning-delta': {
      const block = state.open.get(event.index);
      if (block?.kind === 'reasoning' && event.text !== '') stringDelta(out, block, '{"reasoningContent":{"text":', event.text, '}}');
      return;
    }
    case 'reasoning-signature': {
      const block = state.open.get(event.index);
      if (!block) return;
      // Reported as the body reports the part's signature.
      const path = `blocks[${event.index}]`;
      if (block.kind !== 'reasoning') reportForeignPartState(state.options, path, event, { protocol: PROTOCOL, model: state.model });
      else if (event.origin !== undefined && event.origin.protocol !== PROTOCOL)
        reportForeignReasoning(event.origin, path, { context: state.options, model: state.model });
      else block.signature = event.signature;
      return;
    }
    case 'tool-args-delta': {
      const block = state.open.get(event.index);
      if (block?.kind !== 'tool_use') return;
      if (block.freeform !== undefined) block.freeform += event.json;
      else {
        const text = (block.args ??= new HeldCallArguments()).push(event.json);
        if (text) stringDelta(out, block, '{"toolUse":{"input":', text, '}}');
      }
      return;
    }
    case 'citation':
      lossOnce(state, 'citations', `blocks[${event.index}].citations`, 'Converse text carries no citations');
      return;
    case 'logprobs':
      lossOnce(state, 'logprobs', `blocks[${event.index}].logprobs`, 'Converse has no logprobs');
      return;
    case 'block-end':
      return blockEnd(state, event.index, out);
    case 'finish':
      return finish(state, event, out);
  }
}

/**
 * End of input: a stream that stopped without `finish` or `error` (even one that sent nothing)
 * tells the client so with an exception event, never an empty body or a made-up finish.
 */
export function encodeEnd(state: ConverseEncodeState, out: Out): void {
  if (!state.finished) fail(state, unfinishedStreamError(), out);
}

function send(out: Out, event: string, payload: Wire): void {
  out.enqueue({ event, data: JSON.stringify(payload) });
}

function delta(out: Out, block: OpenBlock, payload: Wire): void {
  block.described = true;
  send(out, 'contentBlockDelta', { contentBlockIndex: block.wireIndex, delta: payload });
}

/**
 * `contentBlockDelta` `{contentBlockIndex, delta}` whose delta holds one string between `head` and
 * `tail`, written as the text `JSON.stringify` makes of it: deltas are most of a stream, and only
 * their string needs escaping.
 */
function stringDelta(out: Out, block: OpenBlock, head: string, text: string, tail: string): void {
  block.described = true;
  out.enqueue({ event: 'contentBlockDelta', data: `{"contentBlockIndex":${block.wireIndex},"delta":${head}${jsonString(text)}${tail}}` });
}

function lossOnce(state: ConverseEncodeState, key: string, path: string, message: string, code: LlmWarning['code'] = 'dropped-field'): void {
  if (state.reported.has(key)) return;
  state.reported.add(key);
  reportLoss(state.options, { code, path, message, protocol: PROTOCOL });
}

function ensureStarted(state: ConverseEncodeState, out: Out): void {
  if (state.started) return;
  state.started = true;
  send(out, 'messageStart', { role: 'assistant' });
}

function blockStart(state: ConverseEncodeState, event: Extract<LlmStreamEvent, { type: 'block-start' }>, out: Out): void {
  if ((event.choice ?? 0) !== 0) {
    lossOnce(state, 'choices', 'choices', 'Converse answers with one message; blocks of other choices were dropped');
    return;
  }
  const block = event.block;
  const wireIndex = state.nextWireIndex;
  switch (block.kind) {
    case 'text':
    case 'refusal':
      state.open.set(event.index, { wireIndex, kind: 'text' });
      break;
    case 'reasoning': {
      const open: OpenBlock = { wireIndex, kind: 'reasoning' };
      const own = block.origin === undefined || block.origin.protocol === PROTOCOL;
      if (block.redacted) {
        if (!own) return reportForeignReasoning(block.origin!, `blocks[${event.index}]`, { context: state.options, model: state.model });
        state.open.set(event.index, open);
        delta(out, open, { reasoningContent: { redactedContent: block.signature ?? '' } });
        break;
      }
      if (block.signature !== undefined && own) open.signature = block.signature;
      state.open.set(event.index, open);
      break;
    }
    case 'tool_call': {
      reportForeignPartState(state.options, `blocks[${event.index}]`, block, { protocol: PROTOCOL, model: state.model });
      const open: OpenBlock = { wireIndex, kind: 'tool_use' };
      if (block.freeform) {
        open.freeform = '';
        lossOnce(state, 'freeform', `blocks[${event.index}]`, CALL_ARGUMENTS_LOSS.freeform, 'lossy-conversion');
      }
      open.described = true;
      state.open.set(event.index, open);
      send(out, 'contentBlockStart', { contentBlockIndex: wireIndex, start: { toolUse: { toolUseId: block.id, name: block.name } } });
      break;
    }
    case 'part': {
      const part = block.part;
      // The body's encoder decides: what it cannot write (a code run, an MCP part, another
      // protocol's item, an image by URL) is dropped with its report; what it writes (an image's
      // bytes, Converse's own item) has no ConverseStream block: a loss of the stream alone.
      if (!encodePart(part, `blocks[${event.index}]`, { context: state.options, model: state.model, response: true })) return;
      lossOnce(
        state,
        `part-${part.type}`,
        `blocks[${event.index}]`,
        `a generated ${part.type === 'provider' ? `${part.protocol} item` : part.type} has no Converse stream block`,
      );
      return;
    }
  }
  state.nextWireIndex++;
}

function blockEnd(state: ConverseEncodeState, index: number, out: Out): void {
  const block = state.open.get(index);
  if (!block) return;
  state.open.delete(index);
  if (block.kind === 'reasoning' && block.signature !== undefined) delta(out, block, { reasoningContent: { signature: block.signature } });
  // An empty text or reasoning still says what it is, as the body's `{"text": ""}` does.
  if (!block.described) delta(out, block, block.kind === 'reasoning' ? { reasoningContent: { text: '' } } : { text: '' });
  block.args?.end((kind) => lossOnce(state, kind, `blocks[${index}].arguments`, CALL_ARGUMENTS_LOSS[kind], 'lossy-conversion'));
  if (block.freeform !== undefined) delta(out, block, { toolUse: { input: JSON.stringify({ input: block.freeform }) } });
  send(out, 'contentBlockStop', { contentBlockIndex: block.wireIndex });
}

function finish(state: ConverseEncodeState, event: Extract<LlmStreamEvent, { type: 'finish' }>, out: Out): void {
  if ((event.choice ?? 0) !== 0) return;
  for (const index of [...state.open.keys()]) blockEnd(state, index, out);
  const streamed = event.extensions?.[PROTOCOL];
  const stop: Wire = { stopReason: encodeStopReason(event.reason, event.rawReason, event.stopSequence) };
  const usage = event.usage ?? state.usage;
  const metadata: Wire = { usage: encodeUsage(usage) };
  reportUnwrittenUsage(usage, state.options);
  if (state.serviceTier !== undefined) metadata.serviceTier = { type: state.serviceTier };
  if (streamed) {
    Object.assign(stop, streamed.$stop);
    Object.assign(metadata, streamed.$metadata);
  } else if (state.answerFields) {
    // A Converse JSON answer replayed as a stream: its fields go where the stream carries them.
    for (const key in state.answerFields) {
      if (key.startsWith('$')) continue;
      if (STOP_FIELDS.has(key)) stop[key] = state.answerFields[key];
      else metadata[key] = state.answerFields[key];
    }
  }
  metadata.metrics ??= { latencyMs: 0 };
  send(out, 'messageStop', stop);
  send(out, 'metadata', metadata);
  state.finished = true;
}

/** Ends the stream with the exception event of `error`, after whatever was already sent. */
function fail(state: ConverseEncodeState, error: LlmError, out: Out): void {
  state.finished = true;
  send(out, exceptionEventName(error), encodeError(error).body as unknown as Wire);
}
