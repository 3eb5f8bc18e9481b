import {
  CALL_ARGUMENTS_LOSS,
  JsonSseEvent,
  objectCallArguments,
  reportLoss,
  unfinishedStreamError,
  type LlmCitation,
  type LlmWarningCode,
  type StreamStep,
  type LlmStreamEvent,
  type LlmUsage,
  type SseEvent,
  type StreamOptions,
  type WithExtensions,
} from '@llm/core';
import { jsonString } from '@llm/core/kit';
import { isMadeUpId } from './call-ids.js';
import { encodeError } from './errors.js';
import { PROTOCOL, ext } from './protocol.js';
import { encodeFinishReason } from './finish-reason.js';
import { groundingMetadataOf, type CitedText } from './grounding.js';
import { encodePart } from './parts-encode.js';
import { encodeLogprobs } from './logprobs.js';
import { encodeUsage } from './usage.js';

type Out = Pick<TransformStreamDefaultController<SseEvent>, 'enqueue'>;
type Wire = Record<string, unknown>;

interface OpenBlock {
  kind: 'text' | 'reasoning' | 'tool_call' | 'part';
  choice: number;
  /** The part a `part` block holds, or the call of a `tool_call` block. */
  id?: string;
  name?: string;
  args?: string;
  /** A free-form call: `args` is its raw input. */
  freeform?: boolean;
  signature?: string;
  /** Whether any part of the block was sent (an empty text block still sends one part). */
  sent?: boolean;
  /** A text block's text so far and its citations (they become grounding on the finish). */
  text?: string;
  citations?: LlmCitation[];
}

/** State of the canonical -> Gemini SSE encoder. */
export interface EncodeState {
  options: StreamOptions;
  id?: string;
  model?: string;
  open: Map<number, OpenBlock>;
  usage?: LlmUsage;
  finished: boolean;
  /** A `finish` was encoded (a stream may carry one per candidate; any one makes an answer). */
  finishSent?: boolean;
  reported: Set<string>;
  /** The start event whose Gemini bag (promptFeedback, ...) still goes on the first chunk. */
  start?: WithExtensions;
  /** Whether a chunk was sent. */
  sent?: boolean;
  /** Choices that held a refusal block (their `stop` finish is sent as a refusal). */
  refused?: Set<number>;
  /** Cited text blocks per choice, written as `groundingMetadata` on its finish. */
  cited?: Map<number, CitedText[]>;
  /** {@link chunk}'s JSON text after its candidates (model version, response id), made on first use after `start`. */
  tail?: string;
}

/** A fresh encoder state. */
export function createEncodeState(options: StreamOptions = {}): EncodeState {
  return { options, open: new Map(), finished: false, reported: new Set(), ...(options.id ? { id: options.id } : {}) };
}

/**
 * Canonical stream events -> Gemini SSE chunks: each text or thought delta a chunk holding one
 * part; a call is sent whole when its block ends (Gemini streams never split arguments); a
 * signature rides on its call, or on an empty part closing its text or thought. The finish chunk
 * carries the finish reason and the final usage.
 */
export function streamEncoder(options: StreamOptions = {}): StreamStep<LlmStreamEvent, SseEvent> {
  const state = createEncodeState(options);
  return { transform: (event, out) => encodeStep(state, event, out), flush: (out) => encodeEnd(state, out) };
}

/** Encodes one canonical event. */
export function encodeStep(state: EncodeState, event: LlmStreamEvent, out: Out): void {
  if (state.finished) return;
  switch (event.type) {
    case 'start':
      state.tail = undefined;
      if (event.id !== undefined && state.id === undefined) state.id = event.id;
      if (event.model !== undefined) state.model = event.model;
      if (ext.bag(event)) state.start = event;
      return;
    case 'block-start': {
      const choice = event.choice ?? 0;
      const block = event.block;
      switch (block.kind) {
        case 'refusal':
          (state.refused ??= new Set()).add(choice);
          state.open.set(event.index, { kind: 'text', choice });
          return;
        case 'text':
          state.open.set(event.index, { kind: 'text', choice, text: '' });
          return;
        case 'reasoning': {
          const open: OpenBlock = { kind: 'reasoning', choice };
          if (block.signature !== undefined && !block.redacted && (block.origin === undefined || block.origin.protocol === PROTOCOL))
            open.signature = block.signature;
          if (block.redacted) lossOnce(state, 'redacted', `blocks[${event.index}]`, 'redacted reasoning has no Gemini form');
          state.open.set(event.index, open);
          return;
        }
        case 'tool_call': {
          const open: OpenBlock = { kind: 'tool_call', choice, id: block.id, name: block.name, args: '' };
          if (block.signature !== undefined && (block.origin === undefined || block.origin.protocol === PROTOCOL)) open.signature = block.signature;
          if (block.freeform) open.freeform = true;
          state.open.set(event.index, open);
          return;
        }
        case 'part': {
          const part = encodePart(block.part, `blocks[${event.index}]`, { context: state.options, callNames: new Map(), response: true });
          if (part) partChunk(state, out, choice, part);
          return;
        }
      }
      return;
    }
    case 'text-delta': {
      const block = state.open.get(event.index);
      if (!block) return;
      block.sent = true;
      if (block.text !== undefined) block.text += event.text;
      if (state.start) partChunk(state, out, block.choice, { text: event.text });
      else textChunk(state, out, block.choice, `{"text":${jsonString(event.text)}}`);
      return;
    }
    case 'reasoning-delta': {
      const block = state.open.get(event.index);
      if (!block) return;
      block.sent = true;
      if (state.start) partChunk(state, out, block.choice, { text: event.text, thought: true });
      else textChunk(state, out, block.choice, `{"text":${jsonString(event.text)},"thought":true}`);
      return;
    }
    case 'reasoning-signature': {
      const block = state.open.get(event.index);
      if (!block) return;
      if (event.origin !== undefined && event.origin.protocol !== PROTOCOL) {
        lossOnce(state, 'foreign-signature', `blocks[${event.index}]`, `provider state issued by ${event.origin.protocol} was not sent to a Gemini client`);
        return;
      }
      block.signature = event.signature;
      return;
    }
    case 'tool-args-delta': {
      const block = state.open.get(event.index);
      if (block?.kind === 'tool_call') block.args += event.json;
      return;
    }
    case 'citation': {
      const block = state.open.get(event.index);
      if (block?.text !== undefined) (block.citations ??= []).push(event.citation);
      else lossOnce(state, 'citation', `blocks[${event.index}]`, 'a citation outside an open text block has no Gemini grounding');
      return;
    }
    case 'logprobs': {
      // A chunk's candidate carries the logprobs of the tokens streamed so far in it.
      const block = state.open.get(event.index);
      if (block) chunk(state, out, { index: block.choice, logprobsResult: encodeLogprobs(event.logprobs) });
      else lossOnce(state, 'logprobs', `blocks[${event.index}]`, 'logprobs outside an open block have no Gemini chunk');
      return;
    }
    case 'block-end':
      return blockEnd(state, event.index, out);
    case 'usage':
      state.usage = event.usage;
      return;
    case 'finish': {
      state.finishSent = true;
      const usage = event.usage ?? state.usage;
      const blocked = (ext.bag(state.start)?.promptFeedback as Wire | undefined)?.blockReason;
      if (!state.sent && blocked !== undefined && blocked === event.rawReason) {
        // A blocked prompt: Gemini sends one chunk with promptFeedback and no candidates.
        chunk(state, out, undefined, usage ? { usageMetadata: encodeUsage(usage) } : undefined);
        return;
      }
      const choice = event.choice ?? 0;
      const candidate: Wire = { finishReason: encodeFinishReason(event.reason, event.rawReason, state.refused?.has(choice)), index: choice };
      // Candidate metadata decoded from Gemini (safety ratings, citations, grounding) goes on the
      // last chunk; citations from elsewhere become grounding there.
      const meta = ext.bag(event);
      const cited = state.cited?.get(choice);
      if (cited && meta?.groundingMetadata === undefined) {
        const grounding = groundingMetadataOf(cited, state.options);
        if (grounding) candidate.groundingMetadata = grounding;
      }
      ext.writeRest(candidate, event);
      chunk(state, out, candidate, usage ? { usageMetadata: encodeUsage(usage) } : undefined);
      return;
    }
    case 'error': {
      // A call still buffered (its block never ended) is dropped: Gemini clients get calls whole.
      state.finished = true;
      out.enqueue(new JsonSseEvent(undefined, JSON.stringify(encodeError(event.error).body)));
      return;
    }
  }
}

/**
 * End of input: a stream that stopped with neither a `finish` nor an `error` ends with an error
 * chunk (Gemini has no terminal event, so silence would read as an answer cut short without a
 * reason); calls still buffered are dropped.
 */
export function encodeEnd(state: EncodeState, out: Out): void {
  if (!state.finished && !state.finishSent) encodeStep(state, { type: 'error', error: unfinishedStreamError() }, out);
}

function chunk(state: EncodeState, out: Out, candidate: Wire | undefined, extra?: Wire): void {
  const payload: Wire = {};
  if (candidate) payload.candidates = [candidate];
  if (state.start) {
    ext.writeRest(payload, state.start);
    state.start = undefined;
  }
  state.sent = true;
  Object.assign(payload, extra);
  if (state.model !== undefined) payload.modelVersion = state.model;
  if (state.id !== undefined) payload.responseId = state.id;
  out.enqueue(new JsonSseEvent(undefined, JSON.stringify(payload)));
}

/**
 * {@link partChunk} of one part given as JSON text, once the start's fields went out: the bytes
 * `chunk` writes, built as text. Deltas are most of a stream, and only their strings need escaping.
 */
function textChunk(state: EncodeState, out: Out, choice: number, part: string): void {
  if (state.tail === undefined) {
    state.tail = '';
    if (state.model !== undefined) state.tail += `,"modelVersion":${JSON.stringify(state.model)}`;
    if (state.id !== undefined) state.tail += `,"responseId":${JSON.stringify(state.id)}`;
  }
  state.sent = true;
  out.enqueue(
    new JsonSseEvent(
      undefined,
      `{"candidates":[{"content":{"parts":[${part}],"role":"model"},"index":${choice === 0 ? '0' : JSON.stringify(choice)}}]${state.tail}}`,
    ),
  );
}

function partChunk(state: EncodeState, out: Out, choice: number, part: Wire): void {
  chunk(state, out, { content: { parts: [part], role: 'model' }, index: choice });
}

function blockEnd(state: EncodeState, index: number, out: Out): void {
  const block = state.open.get(index);
  if (!block) return;
  state.open.delete(index);
  if (block.citations && block.text !== undefined) {
    let cited = (state.cited ??= new Map()).get(block.choice);
    if (!cited) state.cited.set(block.choice, (cited = []));
    cited.push({ text: block.text, citations: block.citations, path: `blocks[${index}]` });
  }
  if (block.kind === 'tool_call') {
    const args = objectCallArguments(block.args ?? '', block.freeform, (kind) =>
      lossOnce(state, kind, `blocks[${index}]`, CALL_ARGUMENTS_LOSS[kind], 'lossy-conversion'),
    );
    const call: Wire = { name: block.name, args };
    if (block.id !== undefined && !isMadeUpId(block.id, state.id)) call.id = block.id;
    partChunk(state, out, block.choice, block.signature !== undefined ? { functionCall: call, thoughtSignature: block.signature } : { functionCall: call });
    return;
  }
  if (block.signature !== undefined) {
    partChunk(
      state,
      out,
      block.choice,
      block.kind === 'reasoning' ? { text: '', thought: true, thoughtSignature: block.signature } : { text: '', thoughtSignature: block.signature },
    );
  } else if (!block.sent) partChunk(state, out, block.choice, block.kind === 'reasoning' ? { text: '', thought: true } : { text: '' });
}

function lossOnce(state: EncodeState, key: string, path: string, message: string, code: LlmWarningCode = 'dropped-field'): void {
  if (state.reported.has(key)) return;
  state.reported.add(key);
  reportLoss(state.options, { code, path, message, protocol: PROTOCOL });
}
