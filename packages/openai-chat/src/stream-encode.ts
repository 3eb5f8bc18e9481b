import type { CodecContext, LlmCitation, LlmStreamEvent, LlmUsage, SseEvent, StepOutput, StreamOptions, StreamStep } from '@llm/core';
import { CODE_EXECUTION_LOSS } from './code-execution-loss.js';
import {
  JsonSseEvent,
  isCodeExecutionPart,
  isMcpPart,
  reportCodeExecutionDropped,
  reportForeignPartState,
  reportLoss,
  reportMcpPartDropped,
  unfinishedStreamError,
} from '@llm/core';
import { jsonString } from '@llm/core/kit';
import { completionCreated, completionId } from './answer-identity.js';
import { encodeError } from './error.js';
import { REFUSAL_FALLBACK_TEXT, encodeFinishReason } from './finish-reason.js';
import { PROTOCOL } from './protocol.js';
import { TARGET, encodeLogprobs, reportReasoningState } from './response-encode.js';
import { urlAnnotations } from './url-annotations.js';
import { encodeUsage } from './usage.js';

const P = PROTOCOL;
type Out = StepOutput<SseEvent>;
type Wire = Record<string, unknown>;

/** What an open canonical block maps to on the wire. */
interface BlockState {
  choice: number;
  kind: 'text' | 'refusal' | 'reasoning' | 'tool_call' | 'part';
  /** Wire `tool_calls[].index` of a tool-call block. */
  toolIndex: number;
  freeform: boolean;
  /** A text block's length so far, and where it starts in its choice's content (its citations' ranges need both). */
  textLength?: number;
  offset?: number;
  /** A text block's citations, made annotations once its text is whole. */
  citations?: LlmCitation[];
}

/** State of one stream encode. */
export interface ChatEncodeState {
  id: string;
  model: string;
  created: number;
  serviceTier: string | undefined;
  /** `system_fingerprint` from the start event's extensions, repeated on every chunk as the API does. */
  fingerprint: string | undefined;
  includeUsage: boolean;
  blocks: Map<number, BlockState>;
  /** Choices whose role delta was sent. */
  roleSent: Set<number>;
  /** Choices that sent content or refusal text (a refusal without either gets the fallback text). */
  spoke: Set<number>;
  /** Next wire tool index per choice. */
  toolCount: Map<number, number>;
  /** Length of the `content` text of each choice's ended text blocks (where its next text block starts). */
  contentLength: Map<number, number>;
  /** Per choice, the annotations of its ended text blocks' citations, sent before its finish. */
  annotations: Map<number, Wire[]>;
  usage: LlmUsage | undefined;
  /** A `finish` was encoded: only then does the stream end with `[DONE]`. */
  finished: boolean;
  ended: boolean;
  context: CodecContext | undefined;
  /** {@link chunk}'s JSON text around its choices, made on first use after `start` (see {@link chunkFrame}). */
  frame: ChunkFrame | undefined;
}

/** The JSON text of a chunk before and after the elements of its `choices` array. */
interface ChunkFrame {
  head: string;
  tail: string;
}

/** A fresh state: the answer's id (`options.id`, else minted), the usage chunk when `options.includeUsage`. */
export function createEncodeState(options: StreamOptions = {}): ChatEncodeState {
  return {
    id: completionId(options.id),
    model: '',
    created: completionCreated(undefined),
    serviceTier: undefined,
    fingerprint: undefined,
    includeUsage: options.includeUsage === true,
    blocks: new Map(),
    roleSent: new Set(),
    spoke: new Set(),
    toolCount: new Map(),
    contentLength: new Map(),
    annotations: new Map(),
    usage: undefined,
    finished: false,
    ended: false,
    context: options,
    frame: undefined,
  };
}

/**
 * Canonical stream events -> Chat Completions SSE events (`chat.completion.chunk` payloads, the
 * usage-only chunk when `includeUsage`, then `[DONE]`; an `error` event, or input that ends
 * without a `finish`, becomes a `{"error":...}` payload and ends the stream without `[DONE]`).
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 */
export function streamEncoder(options: StreamOptions = {}): StreamStep<LlmStreamEvent, SseEvent> {
  const state = createEncodeState(options);
  return {
    transform: (event, out) => encodeStep(state, event, out),
    flush: (out) => encodeEnd(state, out),
  };
}

function chunk(state: ChatEncodeState, choices: Wire[]): Wire {
  const out: Wire = { id: state.id, object: 'chat.completion.chunk', created: state.created, model: state.model, choices };
  if (state.serviceTier !== undefined) out.service_tier = state.serviceTier;
  if (state.fingerprint !== undefined) out.system_fingerprint = state.fingerprint;
  return out;
}

/** What splits {@link chunk}'s JSON text: no string value can hold it (its quotes would be escaped). */
const CHOICES = '"choices":[]';

/**
 * The JSON text of {@link chunk} around its choices, the same bytes `JSON.stringify` writes: the
 * envelope is fixed once the stream started, so a delta (most of a stream) is written as text,
 * with one `JSON.stringify` of its string, instead of five objects serialised whole.
 */
function chunkFrame(state: ChatEncodeState): ChunkFrame {
  if (state.frame) return state.frame;
  const text = JSON.stringify(chunk(state, []));
  const at = text.indexOf(CHOICES) + CHOICES.length - 1;
  return (state.frame = { head: text.slice(0, at), tail: text.slice(at) });
}

/**
 * A delta of one field for a choice whose role went out already, as {@link sendDelta} would write
 * `{ [name]: value }` (`value` a JSON text); `false` when the role is still to send.
 */
function sendFieldDelta(state: ChatEncodeState, choice: number, name: string, value: string, out: Out): boolean {
  if (!state.roleSent.has(choice)) return false;
  const frame = chunkFrame(state);
  out.enqueue(
    new JsonSseEvent(
      undefined,
      `${frame.head}{"index":${choice === 0 ? '0' : JSON.stringify(choice)},"delta":{"${name}":${value}},"finish_reason":null}${frame.tail}`,
    ),
  );
  return true;
}

function send(payload: Wire, out: Out): void {
  out.enqueue(new JsonSseEvent(undefined, JSON.stringify(payload)));
}

/** Sends one delta for `choice`, adding the role on the choice's first chunk. */
function sendDelta(state: ChatEncodeState, choice: number, delta: Wire, out: Out, extra?: Wire): void {
  if (!state.roleSent.has(choice)) {
    state.roleSent.add(choice);
    delta = { role: 'assistant', ...delta };
  }
  const wire: Wire = { index: choice, delta, finish_reason: null };
  if (extra) Object.assign(wire, extra);
  send(chunk(state, [wire]), out);
}

/**
 * One canonical event -> zero or more chunks.
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 */
export function encodeStep(state: ChatEncodeState, event: LlmStreamEvent, out: Out): void {
  if (state.ended) return;
  switch (event.type) {
    case 'start':
      // An empty id is none: the fresh one made with the state stays.
      state.frame = undefined;
      if (event.id) state.id = event.id;
      if (event.model !== undefined) state.model = event.model;
      if (event.created !== undefined) state.created = event.created;
      state.serviceTier = event.serviceTier;
      {
        const fingerprint = event.extensions?.[P]?.system_fingerprint;
        if (typeof fingerprint === 'string') state.fingerprint = fingerprint;
      }
      return;
    case 'block-start': {
      const choice = event.choice ?? 0;
      const block = event.block;
      if (block.kind === 'tool_call') {
        reportForeignPartState(state.context, `blocks[${event.index}]`, block, TARGET);
        const toolIndex = state.toolCount.get(choice) ?? 0;
        state.toolCount.set(choice, toolIndex + 1);
        state.blocks.set(event.index, { choice, kind: 'tool_call', toolIndex, freeform: block.freeform === true });
        const call: Wire = block.freeform
          ? { index: toolIndex, id: block.id, type: 'custom', custom: { name: block.name, input: '' } }
          : { index: toolIndex, id: block.id, type: 'function', function: { name: block.name, arguments: '' } };
        sendDelta(state, choice, { tool_calls: [call] }, out);
        return;
      }
      // A redacted block's signature rides on its start (no signature event follows).
      if (block.kind === 'reasoning' && block.redacted) reportReasoningState(state.context, `blocks[${event.index}]`, block.origin);
      else if (block.kind === 'part' && isMcpPart(block.part)) reportMcpPartDropped(block.part, `blocks[${event.index}]`, P, state.context);
      else if (block.kind === 'part' && isCodeExecutionPart(block.part))
        reportCodeExecutionDropped(block.part, `blocks[${event.index}]`, P, state.context, CODE_EXECUTION_LOSS);
      else if (block.kind === 'part') {
        // The body's words: a stream has no more room for the part than the body.
        reportLoss(state.context, {
          code: 'dropped-part',
          path: `blocks[${event.index}]`,
          message: `a ${block.part.type} part has no openai-chat response form`,
          protocol: P,
        });
      }
      const open: BlockState = { choice, kind: block.kind, toolIndex: -1, freeform: false };
      if (block.kind === 'text') {
        open.textLength = 0;
        open.offset = state.contentLength.get(choice) ?? 0;
      }
      state.blocks.set(event.index, open);
      if (!state.roleSent.has(choice) && block.kind === 'text') sendDelta(state, choice, { content: '' }, out);
      return;
    }
    case 'text-delta':
    case 'reasoning-delta': {
      const block = state.blocks.get(event.index);
      if (!block) return;
      const field = block.kind === 'refusal' ? 'refusal' : block.kind === 'reasoning' ? 'reasoning_content' : 'content';
      if (field !== 'reasoning_content' && event.text !== '') state.spoke.add(block.choice);
      if (block.textLength !== undefined) block.textLength += event.text.length;
      if (!sendFieldDelta(state, block.choice, field, jsonString(event.text), out)) sendDelta(state, block.choice, { [field]: event.text }, out);
      return;
    }
    case 'tool-args-delta': {
      const block = state.blocks.get(event.index);
      if (block?.kind !== 'tool_call') return;
      const json = jsonString(event.json);
      const callText = block.freeform
        ? `[{"index":${JSON.stringify(block.toolIndex)},"custom":{"input":${json}}}]`
        : `[{"index":${JSON.stringify(block.toolIndex)},"function":{"arguments":${json}}}]`;
      if (sendFieldDelta(state, block.choice, 'tool_calls', callText, out)) return;
      const call: Wire = block.freeform
        ? { index: block.toolIndex, custom: { input: event.json } }
        : { index: block.toolIndex, function: { arguments: event.json } };
      sendDelta(state, block.choice, { tool_calls: [call] }, out);
      return;
    }
    case 'logprobs': {
      const block = state.blocks.get(event.index);
      if (!block) return;
      sendDelta(state, block.choice, {}, out, { logprobs: { content: encodeLogprobs(event.logprobs), refusal: null } });
      return;
    }
    case 'reasoning-signature': {
      // Reported as the body reports the part's signature: Chat carries none.
      const path = `blocks[${event.index}]`;
      if (state.blocks.get(event.index)?.kind === 'reasoning') reportReasoningState(state.context, path, event.origin);
      else reportForeignPartState(state.context, path, event, TARGET);
      return;
    }
    case 'citation': {
      const block = state.blocks.get(event.index);
      if (block?.textLength !== undefined) (block.citations ??= []).push(event.citation);
      else reportLoss(state.context, { code: 'dropped-field', path: `blocks[${event.index}]`, message: 'openai-chat cites text only', protocol: P });
      return;
    }
    case 'block-end': {
      const block = state.blocks.get(event.index);
      if (block) endCitations(state, event.index, block);
      // The choice's content grows by the text at its end (counted there, not per delta).
      if (block?.textLength !== undefined) state.contentLength.set(block.choice, (state.contentLength.get(block.choice) ?? 0) + block.textLength);
      state.blocks.delete(event.index);
      return;
    }
    case 'usage':
      state.usage = event.usage;
      return;
    case 'finish': {
      const choice = event.choice ?? 0;
      state.finished = true;
      if (event.usage) state.usage = event.usage;
      // The choice's citations (those of blocks the finish ends too), in one chunk before it.
      for (const [index, block] of state.blocks) if (block.choice === choice) endCitations(state, index, block);
      const annotations = state.annotations.get(choice);
      if (annotations) sendDelta(state, choice, { annotations }, out);
      const finish = encodeFinishReason(event.reason, event.rawReason, state.context, choice === 0 ? 'finish' : `finish[${choice}]`);
      // As response-encode does: a refusal that said nothing still says it refused.
      if (event.reason === 'refusal' && finish === 'content_filter' && !state.spoke.has(choice))
        sendDelta(state, choice, { refusal: REFUSAL_FALLBACK_TEXT }, out);
      // A choice that said nothing has no content, as its body's `content: null` says.
      const delta: Wire = state.roleSent.has(choice) ? {} : { role: 'assistant', content: null };
      state.roleSent.add(choice);
      send(chunk(state, [{ index: choice, delta, finish_reason: finish }]), out);
      return;
    }
    case 'error':
      state.ended = true;
      send(encodeError(event.error).body as unknown as Wire, out);
      return;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/**
 * A text block's citations -> the annotations the body writes for them (`url_citation`s over the
 * choice's whole content), made once its text is whole (a citation without a range covers it all).
 * A choice's annotations go in one `delta.annotations` chunk, as search models send them: the
 * SDK keeps the last `annotations` a delta carries, as a message field.
 */
function endCitations(state: ChatEncodeState, index: number, block: BlockState): void {
  const citations = block.citations;
  if (!citations) return;
  block.citations = undefined;
  const annotations = state.annotations.get(block.choice) ?? [];
  state.annotations.set(block.choice, annotations);
  const pathOf = (at: number) => `blocks[${index}].citations[${at}]`;
  annotations.push(...urlAnnotations(citations, { length: block.textLength ?? 0 }, block.offset ?? 0, pathOf, state.context));
}

/**
 * Ends the stream: the usage-only chunk (when asked for) and `[DONE]`. Input that stopped with
 * neither a `finish` nor an `error` was cut: it ends with an error chunk and no `[DONE]`, as a
 * mid-stream error does, so no client reads the silence as a normal end.
 */
export function encodeEnd(state: ChatEncodeState, out: Out): void {
  if (state.ended) return;
  if (!state.finished) return encodeStep(state, { type: 'error', error: unfinishedStreamError() }, out);
  state.ended = true;
  if (state.includeUsage && state.usage) {
    const last = chunk(state, []);
    last.usage = encodeUsage(state.usage);
    send(last, out);
  }
  out.enqueue(new JsonSseEvent(undefined, '[DONE]'));
}
