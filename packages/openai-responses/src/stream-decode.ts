import {
  collectUnknown,
  LlmError,
  invalidUpstream,
  isCodeExecutionPart,
  isMcpPart,
  streamEndedEarly,
  upstreamDecodeFailure,
  type StreamStep,
  type LlmAssistantContent,
  type LlmStreamEvent,
  type LlmUsage,
  type SseEvent,
  type StreamOptions,
} from '@llm/core';
import { logprobsFromWire } from './logprobs.js';
import { SseJsonReader } from '@llm/core/kit';
import { PROTOCOL, ext } from './protocol.js';
import { decodeFinishReason } from './finish-reason.js';
import { decodeAssistantItem, MESSAGE_KNOWN } from './items-decode.js';
import { callItemName } from './namespaces.js';
import { decodeContentPart } from './parts-decode.js';
import { decodeUsage } from './usage.js';

type Out = Pick<TransformStreamDefaultController<LlmStreamEvent>, 'enqueue'>;
type Wire = Record<string, unknown>;

/** What the decoder knows about one output item. */
interface ItemState {
  type: string;
  /** Canonical block of a reasoning or tool-call item. */
  block?: number;
  /** Blocks of a message item's content parts, by `content_index`. */
  parts?: Map<number, number>;
  /** Reasoning: summary parts seen so far (to join them with blank lines). */
  summaries?: number;
  /**
   * Reasoning: the block, announced once its form is known (summary parts or raw
   * `reasoning_text`); `output_item.added` does not say which is coming.
   */
  pending?: Extract<LlmStreamEvent, { type: 'block-start' }>['block'] & { kind: 'reasoning' };
  /** Tool call: argument text received as deltas. */
  argsSeen?: boolean;
  /** Message: the item's own fields as `output_item.added` gave them (no status yet). */
  fields?: Record<string, unknown>;
  /**
   * Message: the first part, finished but left open until `output_item.done`, whose item fields
   * (final `status`) it carries as `$item`.
   */
  first?: { block: number; bag: Record<string, unknown> };
}

/** State of the Responses SSE -> canonical events decoder. */
export interface DecodeState {
  /** Reads the events' JSON, deltas shaped like the one before them without a parse. */
  json: SseJsonReader;
  started: boolean;
  done: boolean;
  nextBlock: number;
  items: Map<number, ItemState>;
  /** Kinds of finished parts, for the finish reason. */
  kinds: LlmAssistantContent[];
  model?: string;
}

/** A fresh decoder state. */
export function createDecodeState(_options: StreamOptions = {}): DecodeState {
  return { json: new SseJsonReader(PROTOCOL), started: false, done: false, nextBlock: 0, items: new Map(), kinds: [] };
}

/**
 * Responses SSE events -> canonical stream events. Usage and the finish reason come from the
 * terminal `response.completed` / `.incomplete` / `.failed`; `error` events (flat or nested
 * `error` object) end the stream with an `error` event, and so does an input that ends before
 * any of them. Progress events of built-in tools are
 * skipped: the finished item arrives whole in `output_item.done`.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export function streamDecoder(options: StreamOptions = {}): StreamStep<SseEvent, LlmStreamEvent> {
  const state = createDecodeState(options);
  return { transform: (event, out) => decodeStep(state, event, out), flush: (out) => decodeEnd(state, out) };
}

/** Handles one SSE event. Never throws: bad input becomes an `error` event. */
export function decodeStep(state: DecodeState, sse: SseEvent, out: Out): void {
  if (state.done) return;
  const { payload, error } = state.json.read(sse.data, 'stream event');
  if (error) return fail(state, error, out);
  // Every event names its type; an unknown type is skipped (events are added over time), but an
  // event without one is not this protocol's.
  if (typeof payload.type !== 'string') return fail(state, invalidUpstream(PROTOCOL, 'stream event', { path: 'type' }), out);
  try {
    decodeEvent(state, payload, out);
  } catch (error) {
    fail(state, upstreamDecodeFailure(PROTOCOL, 'stream event', error), out);
  }
}

/**
 * End of input before a terminal event (`response.completed` / `.incomplete` / `.failed` or
 * `error`): the stream was cut. It ends with an `upstream` error, open items left unfinished
 * (a function call cut mid-arguments is never handed on as complete).
 */
export function decodeEnd(state: DecodeState, out: Out): void {
  if (!state.done) fail(state, streamEndedEarly(PROTOCOL, 'response.completed'), out);
}

function fail(state: DecodeState, error: LlmError, out: Out): void {
  state.done = true;
  out.enqueue({ type: 'error', error });
}

/** Decodes one parsed event payload (exported for the bench's synchronous step). */
export function decodeEvent(state: DecodeState, event: Wire, out: Out): void {
  switch (event.type) {
    case 'response.created':
    case 'response.in_progress':
    case 'response.queued': {
      if (state.started) return;
      state.started = true;
      const response = (event.response ?? {}) as Wire;
      const start: Extract<LlmStreamEvent, { type: 'start' }> = { type: 'start' };
      if (typeof response.id === 'string') start.id = response.id;
      if (typeof response.model === 'string') start.model = state.model = response.model;
      if (typeof response.created_at === 'number') start.created = response.created_at;
      out.enqueue(start);
      return;
    }
    case 'response.output_item.added':
      return itemAdded(state, event, out);
    case 'response.output_item.done':
      return itemDone(state, event, out);
    case 'response.content_part.added': {
      const item = state.items.get(event.output_index as number);
      if (item?.type === 'reasoning' && (event.part as Wire | undefined)?.type === 'reasoning_text') startReasoning(item, 'full', out);
      if (item?.type !== 'message') return;
      const part = event.part as Wire | undefined;
      const block = state.nextBlock++;
      (item.parts ??= new Map()).set(event.content_index as number, block);
      out.enqueue({ type: 'block-start', index: block, block: { kind: part?.type === 'refusal' ? 'refusal' : 'text' } });
      return;
    }
    case 'response.output_text.delta':
    case 'response.refusal.delta': {
      const block = state.items.get(event.output_index as number)?.parts?.get(event.content_index as number);
      if (block !== undefined && typeof event.delta === 'string' && event.delta !== '') {
        out.enqueue({ type: 'text-delta', index: block, text: event.delta });
      }
      return;
    }
    case 'response.content_part.done': {
      const item = state.items.get(event.output_index as number);
      const contentIndex = event.content_index as number;
      const block = item?.parts?.get(contentIndex);
      if (!item || block === undefined) return;
      const part = decodeContentPart([event.part], 0, 'part');
      const bag: Record<string, unknown> = { ...ext.bag(part) };
      state.kinds.push(part);
      if (part.type === 'text' && part.citations) {
        for (const citation of part.citations) out.enqueue({ type: 'citation', index: block, citation });
      }
      // The part's token logprobs go as their own event (one source, not also the part's bag).
      if (part.type === 'text' && Array.isArray(bag.logprobs) && bag.logprobs.length > 0) {
        out.enqueue({ type: 'logprobs', index: block, logprobs: logprobsFromWire(bag.logprobs as Record<string, unknown>[]) });
        delete bag.logprobs;
      }
      item.parts?.delete(contentIndex);
      if (contentIndex === 0) item.first = { block, bag };
      else out.enqueue({ type: 'block-end', index: block, extensions: { [PROTOCOL]: bag } });
      return;
    }
    case 'response.reasoning_summary_part.added': {
      const item = state.items.get(event.output_index as number);
      if (item?.block === undefined) return;
      startReasoning(item, 'summary', out);
      if ((item.summaries = (item.summaries ?? 0) + 1) > 1) out.enqueue({ type: 'reasoning-delta', index: item.block, text: '\n\n' });
      return;
    }
    case 'response.reasoning_summary_text.delta':
    case 'response.reasoning_text.delta': {
      const item = state.items.get(event.output_index as number);
      if (item) startReasoning(item, event.type === 'response.reasoning_text.delta' ? 'full' : 'summary', out);
      if (item?.block !== undefined && typeof event.delta === 'string' && event.delta !== '') {
        out.enqueue({ type: 'reasoning-delta', index: item.block, text: event.delta });
      }
      return;
    }
    case 'response.function_call_arguments.delta':
    case 'response.custom_tool_call_input.delta': {
      const item = state.items.get(event.output_index as number);
      if (item?.block !== undefined && typeof event.delta === 'string' && event.delta !== '') {
        item.argsSeen = true;
        out.enqueue({ type: 'tool-args-delta', index: item.block, json: event.delta });
      }
      return;
    }
    case 'response.completed':
    case 'response.incomplete':
    case 'response.failed':
      return terminal(state, event, out);
    case 'error':
      return fail(state, streamError(event), out);
    default:
      // Progress events (`*.in_progress`, `*.searching`, `.done` of texts, `keepalive`, ...).
      return;
  }
}

function itemAdded(state: DecodeState, event: Wire, out: Out): void {
  const item = (event.item ?? {}) as Wire;
  const type = typeof item.type === 'string' ? item.type : 'message';
  const entry: ItemState = { type };
  state.items.set(event.output_index as number, entry);
  switch (type) {
    case 'message': {
      const { role: _role, content: _content, status: _status, ...fields } = item;
      entry.fields = fields;
      return;
    }
    case 'reasoning': {
      entry.block = state.nextBlock++;
      const block: NonNullable<ItemState['pending']> = { kind: 'reasoning', format: 'summary' };
      if (typeof item.id === 'string') block.id = item.id;
      block.origin = state.model ? { protocol: PROTOCOL, model: state.model } : { protocol: PROTOCOL };
      entry.pending = block;
      return;
    }
    case 'function_call':
    case 'custom_tool_call': {
      entry.block = state.nextBlock++;
      const id = typeof item.call_id === 'string' ? item.call_id : '';
      const name = callItemName(item, typeof item.name === 'string' ? item.name : '');
      out.enqueue({
        type: 'block-start',
        index: entry.block,
        block: type === 'custom_tool_call' ? { kind: 'tool_call', id, name, freeform: true } : { kind: 'tool_call', id, name },
      });
      return;
    }
    default:
      return;
  }
}

function itemDone(state: DecodeState, event: Wire, out: Out): void {
  const entry = state.items.get(event.output_index as number);
  const item = (event.item ?? {}) as Wire;
  const parts = decodeAssistantItem(item, 'item');
  state.items.delete(event.output_index as number);
  const part = parts[0];
  if (entry?.block !== undefined && part) {
    state.kinds.push(part);
    if (part.type === 'reasoning') {
      startReasoning(entry, part.format ?? 'summary', out);
      if (part.signature !== undefined) {
        out.enqueue({
          type: 'reasoning-signature',
          index: entry.block,
          signature: part.signature,
          origin: state.model ? { protocol: PROTOCOL, model: state.model } : { protocol: PROTOCOL },
        });
      }
    } else if (part.type === 'tool-call' && !entry.argsSeen && typeof part.arguments === 'string' && part.arguments !== '') {
      out.enqueue({ type: 'tool-args-delta', index: entry.block, json: part.arguments });
    }
    out.enqueue({ type: 'block-end', index: entry.block, extensions: { [PROTOCOL]: { ...ext.bag(part) } } });
    return;
  }
  if (entry?.type === 'message' && (entry.first || (entry.parts && entry.parts.size > 0))) {
    closeMessage(entry, collectUnknown(item, MESSAGE_KNOWN) ?? {}, out);
    return;
  }
  if (entry?.type === 'message' && Array.isArray(item.content) && item.content.length > 0) return;
  // A built-in item (or an empty message): complete parts (an `mcp_call` or a `code_interpreter_call`: the call and its result).
  for (const done of parts) {
    if (done.type !== 'provider' && !isMcpPart(done) && !isCodeExecutionPart(done)) continue;
    state.kinds.push(done);
    const block = state.nextBlock++;
    out.enqueue({ type: 'block-start', index: block, block: { kind: 'part', part: done } });
    out.enqueue({ type: 'block-end', index: block });
  }
}

/** Announces a reasoning item's block in the form its first content shows (once). */
function startReasoning(entry: ItemState, format: 'summary' | 'full', out: Out): void {
  const block = entry.pending;
  if (!block || entry.block === undefined) return;
  entry.pending = undefined;
  block.format = format;
  out.enqueue({ type: 'block-start', index: entry.block, block });
}

/** Ends a message item's open blocks; the first part gets the item's fields as `$item`. */
function closeMessage(entry: ItemState, fields: Record<string, unknown> | undefined, out: Out): void {
  if (entry.first) {
    const bag = fields ? { ...entry.first.bag, $item: fields } : entry.first.bag;
    out.enqueue({ type: 'block-end', index: entry.first.block, extensions: { [PROTOCOL]: bag } });
    entry.first = undefined;
  }
  for (const block of entry.parts?.values() ?? []) out.enqueue({ type: 'block-end', index: block });
  entry.parts?.clear();
}

function terminal(state: DecodeState, event: Wire, out: Out): void {
  const response = (event.response ?? {}) as Wire;
  // Only `output_item.done` completes a call; `response.completed` with one still open means the
  // events between were lost (a proxy that cuts a stream and ends it), so the call must not be
  // closed as complete. `.incomplete` (say `max_output_tokens`) and `.failed` tell the client the
  // output was cut, so their open items close under that finish.
  if (event.type === 'response.completed' && hasOpenCall(state)) return fail(state, streamEndedEarly(PROTOCOL, 'response.output_item.done'), out);
  if (!state.started) decodeEvent(state, { type: 'response.created', response }, out);
  for (const entry of state.items.values()) {
    startReasoning(entry, 'summary', out);
    if (entry.block !== undefined) out.enqueue({ type: 'block-end', index: entry.block });
    closeMessage(entry, entry.fields, out);
  }
  state.items.clear();
  // A failed response that no `error` event announced still carries its error: pass it on.
  if (event.type === 'response.failed' && typeof response.error === 'object' && response.error !== null)
    return fail(state, streamError({ error: response.error }), out);
  const incomplete = response.incomplete_details as Wire | null | undefined;
  const status = typeof response.status === 'string' ? response.status : event.type === 'response.completed' ? 'completed' : undefined;
  const finish = decodeFinishReason(status, typeof incomplete?.reason === 'string' ? incomplete.reason : undefined, state.kinds);
  const done: Extract<LlmStreamEvent, { type: 'finish' }> = { type: 'finish', reason: finish.reason, rawReason: finish.raw };
  if (response.usage && typeof response.usage === 'object') {
    const usage: LlmUsage = decodeUsage(response, 'response');
    done.usage = usage;
  }
  state.done = true;
  out.enqueue(done);
}

function hasOpenCall(state: DecodeState): boolean {
  for (const entry of state.items.values()) if (entry.type === 'function_call' || entry.type === 'custom_tool_call') return true;
  return false;
}

/** An `error` event, flat (`{code, message, param}`) or nested (`{error:{type, code, message}}`). */
function streamError(event: Wire): LlmError {
  const nested = typeof event.error === 'object' && event.error !== null ? (event.error as Wire) : event;
  const code = typeof nested.code === 'string' ? nested.code : typeof nested.type === 'string' ? nested.type : undefined;
  const message = typeof nested.message === 'string' ? nested.message : 'the upstream stream failed';
  const kind =
    code === 'insufficient_quota'
      ? 'quota'
      : code === 'rate_limit_exceeded'
        ? 'rate_limit'
        : code === 'context_length_exceeded'
          ? 'context_length'
          : 'upstream';
  return new LlmError({ kind, message, code, protocol: PROTOCOL, raw: event });
}
