import {
  answersCode,
  JsonSseEvent,
  LlmStreamAccumulator,
  unfinishedStreamError,
  type StreamStep,
  type LlmBlockStart,
  type LlmCitation,
  type LlmCodeExecutionPart,
  type LlmCodeExecutionResultPart,
  type LlmError,
  type LlmMcpApprovalRequestPart,
  type LlmMcpCallPart,
  type LlmMcpListToolsPart,
  type LlmMcpResultPart,
  type Extensions,
  type LlmTokenLogprob,
  type LlmStreamEvent,
  type SseEvent,
  type StreamOptions,
} from '@llm/core';
import { jsonString } from '@llm/core/kit';
import { encodeError } from './errors.js';
import { WrittenJson, arrayJson, objectJson } from './written-json.js';
import { logprobsToWire } from './logprobs.js';
import { annotationOf } from './parts-encode.js';
import { PROTOCOL } from './protocol.js';
import { reasoningItem } from './items-encode.js';
import { mcpApprovalRequestItem, mcpCallItem, mcpListToolsItem } from './mcp-items.js';
import { codeInterpreterCallItem } from './code-interpreter-call.js';
import { callNameFields } from './namespaces.js';
import { missingRefusal } from './refusal.js';
import { encodeResponse } from './response-encode.js';

type Out = Pick<TransformStreamDefaultController<SseEvent>, 'enqueue'>;
type Wire = Record<string, unknown>;

/** One open output item. */
interface OpenItem {
  kind: LlmBlockStart['kind'];
  outputIndex: number;
  itemId: string;
  text: string;
  /** Reasoning: whether the summary (or reasoning_text) part was opened. */
  partOpen?: boolean;
  full?: boolean;
  signature?: string;
  reasoningId?: string;
  name?: string;
  callId?: string;
  freeform?: boolean;
  /** A text item's citations, written as its annotations when it ends. */
  citations?: LlmCitation[];
  /** A text item's token logprobs, written on its done events. */
  logprobs?: LlmTokenLogprob[];
  /** An MCP tool list or approval request, or the result that closes the open MCP call: its item is written at the block's end. */
  mcp?: LlmMcpListToolsPart | LlmMcpApprovalRequestPart | LlmMcpResultPart;
  /** A text or refusal block: its message item, and its part's index there. */
  message?: OpenMessage;
  contentIndex?: number;
  /** The JSON text of this item's delta events up to their `delta`, and the type it was made for. */
  deltaHead?: string;
  deltaType?: string;
}

/** A message item: consecutive text and refusal blocks share one, as their parts do in the body. */
interface OpenMessage {
  itemId: string;
  outputIndex: number;
  /** Its finished parts' JSON. */
  parts: string[];
}

/** State of the canonical -> Responses SSE encoder. */
export interface EncodeState {
  options: StreamOptions;
  sequence: number;
  id: string;
  base: string;
  model: string;
  created: number;
  started: boolean;
  finished: boolean;
  open: Map<number, OpenItem>;
  /** Finished output items' JSON, in order, for the terminal event (each written once). */
  output: { outputIndex: number; json: string }[];
  /** An MCP call whose `mcp_call` item waits for the result block that may follow it. */
  mcpCall?: { part: LlmMcpCallPart; outputIndex: number; block: number };
  /** The message item whose last part just ended, nothing started since: a next text or refusal block joins it. */
  message?: OpenMessage;
  /**
   * A code run whose `code_interpreter_call` item waits for the result block that may follow it
   * (and for that block's end, whose wire fields the item needs).
   */
  codeCall?: {
    part: LlmCodeExecutionPart;
    id: string;
    outputIndex: number;
    block: number;
    announced?: boolean;
    result?: LlmCodeExecutionResultPart;
    resultBlock?: number;
  };
  accumulator: LlmStreamAccumulator;
}

/** A fresh encoder state. */
export function createEncodeState(options: StreamOptions = {}): EncodeState {
  return {
    options,
    sequence: 0,
    id: options.id ?? '',
    base: '',
    model: '',
    created: 0,
    started: false,
    finished: false,
    open: new Map(),
    output: [],
    accumulator: new LlmStreamAccumulator(),
  };
}

/**
 * Canonical events -> Responses SSE, in the order the `openai` SDK's stream accumulator expects:
 * `response.created`, `response.in_progress`, then per block `output_item.added` (+
 * `content_part.added`), deltas, `.done` events and `output_item.done` (reasoning with its
 * `encrypted_content`), and a terminal `response.completed` / `.incomplete` / `.failed` carrying
 * the whole response. Every event has a `sequence_number`.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export function streamEncoder(options: StreamOptions = {}): StreamStep<LlmStreamEvent, SseEvent> {
  const state = createEncodeState(options);
  return { transform: (event, out) => encodeStep(state, event, out), flush: (out) => encodeEnd(state, out) };
}

function emit(state: EncodeState, payload: Wire, out: Out): void {
  payload.sequence_number = state.sequence++;
  out.enqueue(new JsonSseEvent(payload.type as string, JSON.stringify(payload)));
}

/** {@link emit} of a payload holding JSON already written (an item's text, a finished item). */
function emitWritten(state: EncodeState, payload: Wire, out: Out): void {
  payload.sequence_number = state.sequence++;
  out.enqueue(new JsonSseEvent(payload.type as string, objectJson(payload)));
}

/** The finished items' JSON array, in output order (items that interleave finish out of it). */
function outputJson(state: EncodeState): WrittenJson {
  return arrayJson([...state.output].sort((a, b) => a.outputIndex - b.outputIndex).map((item) => item.json));
}

/** Adds a finished item to the output: its JSON, written once, serves its `output_item.done` and the terminal event. */
function finishItem(state: EncodeState, itemJson: string, outputIndex: number, out: Out): void {
  state.output.push({ outputIndex, json: itemJson });
  emitWritten(state, { type: 'response.output_item.done', output_index: outputIndex, item: new WrittenJson(itemJson) }, out);
}

/**
 * A delta event `{type, item_id, output_index, <slot>, delta, <after>, sequence_number}`, written
 * as the text {@link emit} makes of it: deltas are most of a stream, and only their strings need
 * escaping. `slot` and `after` are fixed JSON members (`,"content_index":0`) or empty.
 */
function emitDelta(state: EncodeState, type: string, item: OpenItem, slot: string, delta: string, after: string, out: Out): void {
  if (item.deltaType !== type) {
    // The same for every delta of the item (one type each): made once.
    item.deltaType = type;
    item.deltaHead = `{"type":"${type}","item_id":${JSON.stringify(item.itemId)},"output_index":${JSON.stringify(item.outputIndex)}${slot},"delta":`;
  }
  // The encoder's own count, an integer: a template writes it as JSON does.
  const sequence = state.sequence++;
  out.enqueue(new JsonSseEvent(type, `${item.deltaHead}${jsonString(delta)}${after},"sequence_number":${sequence}}`));
}

/** Handles one canonical event. */
export function encodeStep(state: EncodeState, event: LlmStreamEvent, out: Out): void {
  if (state.finished) return;
  if (event.type !== 'error') state.accumulator.push(event);
  switch (event.type) {
    case 'start':
      return start(state, event, out);
    case 'block-start':
      if (!state.started) start(state, { type: 'start' }, out);
      return blockStart(state, event.index, event.block, out);
    case 'text-delta': {
      const item = state.open.get(event.index);
      if (item) textDelta(state, item, event.text, out);
      return;
    }
    case 'reasoning-delta': {
      const item = state.open.get(event.index);
      if (!item) return;
      openReasoningPart(state, item, out);
      item.text += event.text;
      if (item.full) emitDelta(state, 'response.reasoning_text.delta', item, ',"content_index":0', event.text, '', out);
      else emitDelta(state, 'response.reasoning_summary_text.delta', item, ',"summary_index":0', event.text, '', out);
      return;
    }
    case 'reasoning-signature': {
      const item = state.open.get(event.index);
      if (item) item.signature = event.signature;
      return;
    }
    case 'tool-args-delta': {
      const item = state.open.get(event.index);
      if (!item) return;
      item.text += event.json;
      const type = item.freeform ? 'response.custom_tool_call_input.delta' : 'response.function_call_arguments.delta';
      emitDelta(state, type, item, '', event.json, '', out);
      return;
    }
    case 'citation': {
      const item = state.open.get(event.index);
      if (item?.kind === 'text') (item.citations ??= []).push(event.citation);
      return;
    }
    case 'logprobs': {
      const item = state.open.get(event.index);
      if (item?.kind === 'text') (item.logprobs ??= []).push(...event.logprobs);
      return;
    }
    case 'usage':
      return;
    case 'block-end':
      return blockEnd(state, event.index, out, event.extensions);
    case 'finish':
      return finish(state, out);
    case 'error':
      return failed(state, event.error, out);
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/**
 * End of input: a stream that stopped with neither a `finish` nor an `error` ends as a failed
 * one (`error`, then `response.failed` holding only the items that were finished), never as
 * `response.completed`.
 */
export function encodeEnd(state: EncodeState, out: Out): void {
  if (!state.finished) failed(state, unfinishedStreamError(), out);
}

function snapshot(state: EncodeState, status: string): Wire {
  return {
    id: state.id,
    object: 'response',
    created_at: state.created,
    status,
    error: null,
    incomplete_details: null,
    model: state.model,
    output: [],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
  };
}

function start(state: EncodeState, event: Extract<LlmStreamEvent, { type: 'start' }>, out: Out): void {
  if (state.started) return;
  state.started = true;
  state.id = state.options.id ?? event.id ?? `resp_${crypto.randomUUID().replace(/-/g, '')}`;
  state.base = state.id.replace(/^resp_/, '');
  state.model = event.model ?? '';
  state.created = event.created ?? Math.floor(Date.now() / 1000);
  emit(state, { type: 'response.created', response: snapshot(state, 'in_progress') }, out);
  emit(state, { type: 'response.in_progress', response: snapshot(state, 'in_progress') }, out);
}

function blockStart(state: EncodeState, index: number, block: LlmBlockStart, out: Out): void {
  const pending = state.mcpCall;
  if (pending && block.kind === 'part' && block.part.type === 'mcp-result' && block.part.callId === pending.part.id) {
    state.open.set(index, { kind: 'part', outputIndex: pending.outputIndex, itemId: pending.part.id, text: '', mcp: block.part });
    return;
  }
  if (pending) closeMcpCall(state, undefined, out);
  const code = state.codeCall;
  if (code && !code.result && block.kind === 'part' && block.part.type === 'code-execution-result' && answersCode(block.part, code)) {
    code.result = block.part;
    code.resultBlock = index;
    return;
  }
  if (code) closeCodeCall(state, out);
  const joinable = state.message;
  state.message = undefined;
  if (joinable && block.kind !== 'text' && block.kind !== 'refusal') closeMessage(state, joinable, out);
  const outputIndex = state.output.length + state.open.size;
  switch (block.kind) {
    case 'text':
    case 'refusal': {
      let joined = joinable;
      if (!joined) {
        joined = { itemId: `msg_${state.base}_${index}`, outputIndex, parts: [] };
        emit(
          state,
          {
            type: 'response.output_item.added',
            output_index: outputIndex,
            item: { id: joined.itemId, type: 'message', status: 'in_progress', content: [], role: 'assistant' },
          },
          out,
        );
      }
      const item: OpenItem = {
        kind: block.kind,
        outputIndex: joined.outputIndex,
        itemId: joined.itemId,
        text: '',
        message: joined,
        contentIndex: joined.parts.length,
      };
      state.open.set(index, item);
      emit(
        state,
        {
          type: 'response.content_part.added',
          item_id: item.itemId,
          output_index: item.outputIndex,
          content_index: item.contentIndex,
          part: block.kind === 'refusal' ? { type: 'refusal', refusal: '' } : { type: 'output_text', annotations: [], text: '' },
        },
        out,
      );
      return;
    }
    case 'reasoning': {
      const item: OpenItem = { kind: 'reasoning', outputIndex, itemId: block.id ?? `rs_${state.base}_${index}`, text: '', full: block.format === 'full' };
      if (block.signature !== undefined) item.signature = block.signature;
      state.open.set(index, item);
      emit(state, { type: 'response.output_item.added', output_index: outputIndex, item: { id: item.itemId, type: 'reasoning', summary: [] } }, out);
      return;
    }
    case 'tool_call': {
      const item: OpenItem = {
        kind: 'tool_call',
        outputIndex,
        itemId: `${block.freeform ? 'ctc' : 'fc'}_${state.base}_${index}`,
        text: '',
        name: block.name,
        callId: block.id,
        freeform: block.freeform === true,
      };
      state.open.set(index, item);
      emit(
        state,
        {
          type: 'response.output_item.added',
          output_index: outputIndex,
          item: block.freeform
            ? { id: item.itemId, type: 'custom_tool_call', status: 'in_progress', call_id: block.id, ...callNameFields(block.name), input: '' }
            : { id: item.itemId, type: 'function_call', status: 'in_progress', call_id: block.id, ...callNameFields(block.name), arguments: '' },
        },
        out,
      );
      return;
    }
    case 'part': {
      const part = block.part;
      if (part.type === 'mcp-call') return openMcpCall(state, index, part, outputIndex, out);
      if (part.type === 'mcp-list-tools' || part.type === 'mcp-approval-request') return openMcpItem(state, index, part, outputIndex, out);
      if (part.type === 'code-execution') return openCodeCall(state, index, part, outputIndex);
      // A result its code's item did not take: the terminal event's encodeResponse reports it, as the body does.
      if (part.type === 'code-execution-result') return;
      // No item for it: the terminal event's encodeResponse reports it, as the body does (once).
      if (part.type !== 'provider' || part.protocol !== PROTOCOL) return;
      state.open.set(index, { kind: 'part', outputIndex, itemId: '', text: '' });
      emit(state, { type: 'response.output_item.added', output_index: outputIndex, item: part.value }, out);
      state.open.delete(index);
      finishItem(state, JSON.stringify(part.value), outputIndex, out);
      return;
    }
    default: {
      const unreachable: never = block;
      return unreachable;
    }
  }
}

/**
 * An MCP call: `output_item.added` (no arguments yet), `mcp_call.in_progress`, the arguments as
 * one delta and their `.done`; the item stays open for the result block that may follow.
 */
function openMcpCall(state: EncodeState, index: number, part: LlmMcpCallPart, outputIndex: number, out: Out): void {
  const { output: _output, error: _error, ...added } = mcpCallItem(part, undefined);
  const args = added.arguments as string;
  const base = { item_id: part.id, output_index: outputIndex };
  emit(state, { type: 'response.output_item.added', output_index: outputIndex, item: { ...added, arguments: '', status: 'in_progress' } }, out);
  emit(state, { type: 'response.mcp_call.in_progress', ...base }, out);
  if (args !== '') emit(state, { type: 'response.mcp_call_arguments.delta', ...base, delta: args }, out);
  emit(state, { type: 'response.mcp_call_arguments.done', ...base, arguments: args }, out);
  state.mcpCall = { part, outputIndex, block: index };
}

/** Ends the open MCP call's item: `mcp_call.completed` / `.failed` by its result, then `output_item.done`. */
function closeMcpCall(state: EncodeState, result: LlmMcpResultPart | undefined, out: Out): void {
  const pending = state.mcpCall;
  if (!pending) return;
  state.mcpCall = undefined;
  const item = mcpCallItem(pending.part, result);
  if (result)
    emit(
      state,
      { type: result.isError ? 'response.mcp_call.failed' : 'response.mcp_call.completed', item_id: pending.part.id, output_index: pending.outputIndex },
      out,
    );
  finishItem(state, JSON.stringify(item), pending.outputIndex, out);
}

/**
 * A code run: its item opens when its block ends (with the block's wire fields, such as the
 * container), then waits for the result block that may follow.
 */
function openCodeCall(state: EncodeState, index: number, part: LlmCodeExecutionPart, outputIndex: number): void {
  state.codeCall = { part, id: part.id ?? `ci_${state.base}_${index}`, outputIndex, block: index };
}

/** `output_item.added` (no code yet), `code_interpreter_call.in_progress`, the code as one delta and its `.done` (once). */
function announceCodeCall(state: EncodeState, out: Out): void {
  const pending = state.codeCall;
  if (!pending || pending.announced) return;
  pending.announced = true;
  const { part, id, outputIndex } = pending;
  const added = codeInterpreterCallItem(part, undefined, id, { call: `blocks[${pending.block}]` }, undefined);
  const base = { item_id: id, output_index: outputIndex };
  emit(state, { type: 'response.output_item.added', output_index: outputIndex, item: { ...added, status: 'in_progress', code: '' } }, out);
  emit(state, { type: 'response.code_interpreter_call.in_progress', ...base }, out);
  if (part.code !== '') emit(state, { type: 'response.code_interpreter_call_code.delta', ...base, delta: part.code }, out);
  emit(state, { type: 'response.code_interpreter_call_code.done', ...base, code: part.code }, out);
}

/** Ends the open code run's item: with its result, `.interpreting` and `.completed`; then `output_item.done`. */
function closeCodeCall(state: EncodeState, out: Out): void {
  const pending = state.codeCall;
  if (!pending) return;
  announceCodeCall(state, out);
  state.codeCall = undefined;
  const result = pending.result;
  // Unreported here: the terminal event's encodeResponse reports the run's losses, once.
  const item = codeInterpreterCallItem(
    pending.part,
    result,
    pending.id,
    { call: `blocks[${pending.block}]`, result: `blocks[${pending.resultBlock}]` },
    undefined,
  );
  if (result) {
    const base = { item_id: pending.id, output_index: pending.outputIndex };
    emit(state, { type: 'response.code_interpreter_call.interpreting', ...base }, out);
    emit(state, { type: 'response.code_interpreter_call.completed', ...base }, out);
  }
  finishItem(state, JSON.stringify(item), pending.outputIndex, out);
}

/** A tool list (`output_item.added` without tools, `mcp_list_tools.in_progress`) or an approval request, finished at its block's end. */
function openMcpItem(state: EncodeState, index: number, part: LlmMcpListToolsPart | LlmMcpApprovalRequestPart, outputIndex: number, out: Out): void {
  state.open.set(index, { kind: 'part', outputIndex, itemId: part.id, text: '', mcp: part });
  if (part.type === 'mcp-approval-request') {
    emit(state, { type: 'response.output_item.added', output_index: outputIndex, item: mcpApprovalRequestItem(part) }, out);
    return;
  }
  const { error: _error, ...added } = mcpListToolsItem(part);
  emit(state, { type: 'response.output_item.added', output_index: outputIndex, item: { ...added, tools: [] } }, out);
  emit(state, { type: 'response.mcp_list_tools.in_progress', item_id: part.id, output_index: outputIndex }, out);
}

/** The end of an MCP item's block: with the block's wire fields, its item is written (a result closes its call's item). */
function endMcpItem(state: EncodeState, item: OpenItem & { mcp: NonNullable<OpenItem['mcp']> }, extensions: Extensions | undefined, out: Out): void {
  const part = extensions ? { ...item.mcp, extensions: { ...item.mcp.extensions, ...extensions } } : item.mcp;
  if (part.type === 'mcp-result') return closeMcpCall(state, part, out);
  if (part.type === 'mcp-list-tools') {
    const type = part.error === undefined ? 'response.mcp_list_tools.completed' : 'response.mcp_list_tools.failed';
    emit(state, { type, item_id: part.id, output_index: item.outputIndex }, out);
  }
  const done = part.type === 'mcp-list-tools' ? mcpListToolsItem(part) : mcpApprovalRequestItem(part);
  finishItem(state, JSON.stringify(done), item.outputIndex, out);
}

function textDelta(state: EncodeState, item: OpenItem, text: string, out: Out): void {
  item.text += text;
  const type = item.kind === 'refusal' ? 'response.refusal.delta' : 'response.output_text.delta';
  // emitDelta reads the slot only when it makes the item's head (its first delta): built then, not per delta.
  const slot = item.deltaType === type ? '' : `,"content_index":${item.contentIndex ?? 0}`;
  emitDelta(state, type, item, slot, text, item.kind === 'refusal' ? '' : ',"logprobs":[]', out);
}

/** Ends a message item: `output_item.done` with its parts. */
function closeMessage(state: EncodeState, message: OpenMessage, out: Out): void {
  const done = { id: message.itemId, type: 'message', status: 'completed', content: arrayJson(message.parts), role: 'assistant' };
  finishItem(state, objectJson(done), message.outputIndex, out);
}

function openReasoningPart(state: EncodeState, item: OpenItem, out: Out): void {
  if (item.partOpen) return;
  item.partOpen = true;
  emit(
    state,
    item.full
      ? {
          type: 'response.content_part.added',
          item_id: item.itemId,
          output_index: item.outputIndex,
          content_index: 0,
          part: { type: 'reasoning_text', text: '' },
        }
      : {
          type: 'response.reasoning_summary_part.added',
          item_id: item.itemId,
          output_index: item.outputIndex,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        },
    out,
  );
}

function blockEnd(state: EncodeState, index: number, out: Out, extensions?: Extensions): void {
  const item = state.open.get(index);
  const call = state.mcpCall;
  if (!item) {
    // An MCP call's wire fields, for its item (written when its result ends).
    if (call?.block === index && extensions) call.part = { ...call.part, extensions: { ...call.part.extensions, ...extensions } };
    const code = state.codeCall;
    // A code run's and its result's wire fields, for their item (written when the result ends).
    if (code?.block === index) {
      if (extensions) code.part = { ...code.part, extensions: { ...code.part.extensions, ...extensions } };
      announceCodeCall(state, out);
    }
    if (code?.result && code.resultBlock === index) {
      if (extensions) code.result = { ...code.result, extensions: { ...code.result.extensions, ...extensions } };
      closeCodeCall(state, out);
    }
    return;
  }
  state.open.delete(index);
  if (item.mcp) return endMcpItem(state, { ...item, mcp: item.mcp }, extensions, out);
  const base = { item_id: item.itemId, output_index: item.outputIndex };
  let done: Wire;
  switch (item.kind) {
    case 'text':
    case 'refusal': {
      const at = { ...base, content_index: item.contentIndex ?? 0 };
      // Citations are ranges of the whole text: their annotations go out once it is known.
      const annotations = item.citations?.map((citation) => annotationOf(citation, item.text)) ?? [];
      annotations.forEach((annotation, index) =>
        emit(state, { type: 'response.output_text.annotation.added', ...at, annotation_index: index, annotation }, out),
      );
      const logprobs = item.logprobs ? logprobsToWire(item.logprobs) : undefined;
      // The whole text, written once for the four events that carry it.
      const text = new WrittenJson(JSON.stringify(item.text));
      const part = new WrittenJson(
        objectJson(
          item.kind === 'refusal' ? { type: 'refusal', refusal: text } : { type: 'output_text', annotations, text, ...(logprobs ? { logprobs } : {}) },
        ),
      );
      if (item.kind === 'refusal') emitWritten(state, { type: 'response.refusal.done', ...at, refusal: text }, out);
      else emitWritten(state, { type: 'response.output_text.done', ...at, text, logprobs: logprobs ?? [] }, out);
      emitWritten(state, { type: 'response.content_part.done', ...at, part }, out);
      const message = item.message!;
      message.parts.push(part.json);
      // With nothing else open the item waits for a next text or refusal block; blocks that
      // interleave with it end their own items.
      if (state.open.size === 0) state.message = message;
      else closeMessage(state, message, out);
      return;
    }
    case 'reasoning': {
      if (item.partOpen) {
        if (item.full) {
          emit(state, { type: 'response.reasoning_text.done', ...base, content_index: 0, text: item.text }, out);
          emit(state, { type: 'response.content_part.done', ...base, content_index: 0, part: { type: 'reasoning_text', text: item.text } }, out);
        } else {
          emit(state, { type: 'response.reasoning_summary_text.done', ...base, summary_index: 0, text: item.text }, out);
          emit(state, { type: 'response.reasoning_summary_part.done', ...base, summary_index: 0, part: { type: 'summary_text', text: item.text } }, out);
        }
      }
      const reasoning: Parameters<typeof reasoningItem>[0] = { type: 'reasoning', text: item.text, id: item.itemId, format: item.full ? 'full' : 'summary' };
      if (item.signature !== undefined) reasoning.signature = item.signature;
      done = reasoningItem(reasoning);
      break;
    }
    case 'tool_call': {
      const input = new WrittenJson(JSON.stringify(item.text));
      if (item.freeform) {
        emitWritten(state, { type: 'response.custom_tool_call_input.done', ...base, input }, out);
        done = { id: item.itemId, type: 'custom_tool_call', status: 'completed', call_id: item.callId, ...callNameFields(item.name), input };
      } else {
        emitWritten(state, { type: 'response.function_call_arguments.done', ...base, name: callNameFields(item.name).name, arguments: input }, out);
        done = { id: item.itemId, type: 'function_call', status: 'completed', call_id: item.callId, ...callNameFields(item.name), arguments: input };
      }
      break;
    }
    default:
      return;
  }
  finishItem(state, objectJson(done), item.outputIndex, out);
}

function finish(state: EncodeState, out: Out): void {
  if (!state.started) start(state, { type: 'start' }, out);
  for (const index of [...state.open.keys()]) blockEnd(state, index, out);
  closeMcpCall(state, undefined, out);
  closeCodeCall(state, out);
  state.finished = true;
  const response = state.accumulator.response();
  const choice = response.choices[0];
  const refusal = missingRefusal(choice);
  if (choice && refusal) {
    // A refusal finish with no refusal block: the same refusal part response.encode adds, as
    // its own message item (a block index no canonical block used).
    const index = choice.content.length;
    blockStart(state, index, { kind: 'refusal' }, out);
    textDelta(state, state.open.get(index) as OpenItem, refusal.text, out);
    blockEnd(state, index, out);
  }
  if (state.message) closeMessage(state, state.message, out);
  state.message = undefined;
  response.id = state.id;
  response.model = state.model;
  response.created = state.created;
  const body = encodeResponse(response, state.options) as unknown as Wire;
  body.output = outputJson(state);
  const status = body.status as string;
  const type = status === 'incomplete' ? 'response.incomplete' : status === 'failed' ? 'response.failed' : 'response.completed';
  emitWritten(state, { type, response: new WrittenJson(objectJson(body)) }, out);
}

function failed(state: EncodeState, error: LlmError, out: Out): void {
  if (!state.started) start(state, { type: 'start' }, out);
  state.finished = true;
  // Its finished parts are a finished item.
  if (state.message) closeMessage(state, state.message, out);
  state.message = undefined;
  const wire = encodeError(error).body.error;
  emit(state, { type: 'error', code: wire.code ?? wire.type, message: wire.message, param: wire.param }, out);
  const body = snapshot(state, 'failed');
  body.error = { code: error.kind === 'rate_limit' ? 'rate_limit_exceeded' : 'server_error', message: error.message };
  body.output = outputJson(state);
  emitWritten(state, { type: 'response.failed', response: new WrittenJson(objectJson(body)) }, out);
}
