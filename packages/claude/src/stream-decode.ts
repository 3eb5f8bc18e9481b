import {
  LlmError,
  checkJsonDepth,
  invalidUpstream,
  upstreamDecodeFailure,
  streamEndedEarly,
  responseToEvents,
  type StreamStep,
  type LlmBlockStart,
  type LlmFinishReason,
  type LlmResponse,
  type LlmStreamEvent,
  type LlmUsage,
  type SseEvent,
  type StreamOptions,
} from '@llm/core';
import { SseJsonReader } from '@llm/core/kit';
import { asAssistantContent, decodeBlock } from './blocks-decode.js';
import { decodeCitation } from './citations.js';
import { decodeMcpToolListing, decodeMcpToolResult, decodeMcpToolUse } from './mcp-blocks.js';
import { decodeCodeResult, decodeCodeUse } from './code-execution-blocks.js';
import { decodeError } from './errors.js';
import { PROTOCOL, ext } from './protocol.js';
import { decodeStopReason } from './stop-reason.js';
import { decodeUsage } from './usage.js';

type Out = Pick<TransformStreamDefaultController<LlmStreamEvent>, 'enqueue'>;
type Wire = Record<string, unknown>;

/** A wire block being received. */
interface BlockState {
  /** Canonical index (assigned in start order). */
  index: number;
  kind: 'text' | 'reasoning' | 'tool_call' | 'part';
  /** Provider blocks: the start payload, completed at `content_block_stop`. */
  value?: Wire;
  /** Provider blocks: `input_json_delta` text received. */
  json?: string;
  /** Start fields with no canonical home (`caller`, ...), put on the block's `block-end`. */
  extras?: Wire;
}

/** Fields of a streamed block's start that the canonical events carry. */
const START_KNOWN: Readonly<Record<string, ReadonlySet<string>>> = {
  text: new Set(['type', 'text', 'citations']),
  thinking: new Set(['type', 'thinking', 'signature']),
  redacted_thinking: new Set(['type', 'data']),
  tool_use: new Set(['type', 'id', 'name', 'input']),
};

/** State of the Claude SSE -> canonical events decoder. */
export interface DecodeState {
  /** Reads the events' JSON, events shaped like the one before them without a parse. */
  json: SseJsonReader;
  started: boolean;
  /** Id from `message_start` (a repeated `message_start` of the same message is ignored). */
  id?: string;
  done: boolean;
  nextIndex: number;
  blocks: Map<number, BlockState>;
  /** Usage fields so far (`message_start`, then `message_delta`'s cumulative totals overwrite). */
  usage?: Wire;
  stopReason?: string;
  stopSequence?: string;
  /** `message_delta.delta` fields without a canonical home (stop_details, container, ...). */
  finishExtras?: Wire;
}

/** A fresh decoder state (Claude's decoder takes no options). */
export function createDecodeState(_options: StreamOptions = {}): DecodeState {
  return { started: false, done: false, nextIndex: 0, blocks: new Map(), json: new SseJsonReader(PROTOCOL) };
}

/**
 * Claude SSE events -> canonical stream events. `ping` is skipped; the finish (stop reason and
 * final cumulative usage from `message_delta`) is sent at `message_stop`, or when the stream
 * ends after `message_delta` without one. Server-tool blocks are kept whole and sent complete
 * when they stop. `event: error` ends the stream with an `error` event.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export function streamDecoder(options: StreamOptions = {}): StreamStep<SseEvent, LlmStreamEvent> {
  const state = createDecodeState(options);
  return { transform: (event, out) => decodeStep(state, event, out), flush: (out) => decodeEnd(state, out) };
}

/** Handles one SSE event. Never throws: bad input becomes an `error` event. */
export function decodeStep(state: DecodeState, sse: SseEvent, out: Out): void {
  if (state.done) return;
  if (sse.event === 'ping') return;
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
 * End of input. A stream cut after `message_delta` still finishes: that event carries the stop
 * reason and final usage, and `message_stop` adds nothing (the Chat decoder treats a
 * `finish_reason` without `[DONE]` alike). One cut earlier ends with an `upstream` error, open
 * blocks left unfinished (a tool call cut mid-input is never handed on as complete).
 */
export function decodeEnd(state: DecodeState, out: Out): void {
  if (state.done) return;
  if (state.stopReason !== undefined) return finish(state, out);
  fail(state, streamEndedEarly(PROTOCOL, 'message_stop'), out);
}

function fail(state: DecodeState, error: LlmError, out: Out): void {
  state.done = true;
  out.enqueue({ type: 'error', error });
}

function unexpected(what: string): LlmError {
  return new LlmError({ kind: 'upstream', message: `unexpected Claude stream event: ${what}`, protocol: PROTOCOL });
}

/** A tool call (client `tool_use`, or a server tool whose input streams) still open. */
function hasOpenCall(state: DecodeState): boolean {
  for (const block of state.blocks.values()) if (block.kind === 'tool_call' || block.json !== undefined) return true;
  return false;
}

/** Decodes one parsed event payload. */
export function decodeEvent(state: DecodeState, event: Wire, out: Out): void {
  switch (event.type) {
    case 'message_start': {
      const message = (event.message ?? {}) as Wire;
      if (state.started) {
        if (message.id === state.id && state.nextIndex === 0) return;
        throw unexpected('a second message_start in one stream');
      }
      state.started = true;
      if (typeof message.id === 'string') state.id = message.id;
      const start: Extract<LlmStreamEvent, { type: 'start' }> = { type: 'start' };
      if (typeof message.id === 'string') start.id = message.id;
      if (typeof message.model === 'string') start.model = message.model;
      if (typeof message.usage === 'object' && message.usage !== null) {
        state.usage = { ...(message.usage as Wire) };
        const tier = state.usage.service_tier;
        if (typeof tier === 'string') start.serviceTier = tier;
      }
      const extras = messageExtras(message);
      if (extras) start.extensions = { [PROTOCOL]: extras };
      out.enqueue(start);
      // Input counts are known from the start; clients of any protocol may show them early.
      const early = decodeUsage(state.usage);
      if (early) out.enqueue({ type: 'usage', usage: early });
      // Blocks the message already holds (programmatic tool calls resume this way) come whole.
      if (Array.isArray(message.content)) for (let at = 0; at < message.content.length; at++) completeBlock(state, message.content, at, out);
      return;
    }
    case 'content_block_start':
      return blockStart(state, event, out);
    case 'content_block_delta':
      return blockDelta(state, event, out);
    case 'content_block_stop': {
      const block = state.blocks.get(event.index as number);
      if (!block) throw unexpected(`content_block_stop for unopened block ${String(event.index)}`);
      state.blocks.delete(event.index as number);
      if (block.kind === 'part') {
        const value = block.value!;
        if (block.json !== undefined) {
          value.input = block.json === '' ? {} : JSON.parse(block.json);
          checkJsonDepth(value.input, { path: 'input' });
        }
        out.enqueue({ type: 'block-start', index: block.index, block: { kind: 'part', part: completedPart(value) } });
      }
      out.enqueue(
        block.extras ? { type: 'block-end', index: block.index, extensions: { [PROTOCOL]: block.extras } } : { type: 'block-end', index: block.index },
      );
      return;
    }
    case 'message_delta': {
      const delta = (event.delta ?? {}) as Wire;
      if (typeof delta.stop_reason === 'string') state.stopReason = delta.stop_reason;
      if (typeof delta.stop_sequence === 'string') state.stopSequence = delta.stop_sequence;
      for (const key in delta) {
        if (key === 'stop_reason' || key === 'stop_sequence') continue;
        (state.finishExtras ??= {})[key] = delta[key];
      }
      if (typeof event.usage === 'object' && event.usage !== null) {
        // Cumulative totals: overwrite what message_start said.
        state.usage = { ...state.usage, ...(event.usage as Wire) };
      }
      return;
    }
    case 'message_stop':
      return finish(state, out);
    case 'ping':
      return;
    case 'error': {
      const error = decodeError(statusOf(event), event);
      return fail(state, error, out);
    }
    default:
      // Event types added later are skipped, as the SDK does.
      return;
  }
}

/** The HTTP status an in-stream error would have had. */
function statusOf(event: Wire): number {
  const type = (event.error as Wire | undefined)?.type;
  switch (type) {
    case 'overloaded_error':
      return 529;
    case 'rate_limit_error':
      return 429;
    case 'invalid_request_error':
      return 400;
    case 'timeout_error':
      return 504;
    default:
      return 500;
  }
}

/** Fields of the `message_start` message besides the ones the stream reports elsewhere. */
function messageExtras(message: Wire): Wire | undefined {
  let extras: Wire | undefined;
  for (const key in message) {
    switch (key) {
      case 'id':
      case 'type':
      case 'role':
      case 'model':
      case 'content':
      case 'stop_reason':
      case 'stop_sequence':
      case 'usage':
        continue;
      default:
        if (message[key] !== null) (extras ??= {})[key] = message[key];
    }
  }
  return extras;
}

function blockStart(state: DecodeState, event: Wire, out: Out): void {
  if (!state.started) throw unexpected('content_block_start before message_start');
  const wireIndex = event.index as number;
  const content = event.content_block as Wire | undefined;
  if (typeof wireIndex !== 'number' || typeof content !== 'object' || content === null) throw unexpected('malformed content_block_start');
  if (state.blocks.has(wireIndex)) throw unexpected(`block ${wireIndex} started twice`);
  const index = state.nextIndex++;
  const known = START_KNOWN[content.type as string];
  const extras = known ? ext.rest(content, known) : undefined;
  decodeStart(state, wireIndex, index, content, out);
  if (extras) state.blocks.get(wireIndex)!.extras = extras;
}

function decodeStart(state: DecodeState, wireIndex: number, index: number, content: Wire, out: Out): void {
  switch (content.type) {
    case 'text': {
      state.blocks.set(wireIndex, { index, kind: 'text' });
      out.enqueue({ type: 'block-start', index, block: { kind: 'text' } });
      if (typeof content.text === 'string' && content.text !== '') out.enqueue({ type: 'text-delta', index, text: content.text });
      return;
    }
    case 'thinking': {
      state.blocks.set(wireIndex, { index, kind: 'reasoning' });
      out.enqueue({ type: 'block-start', index, block: { kind: 'reasoning', origin: { protocol: PROTOCOL } } });
      if (typeof content.thinking === 'string' && content.thinking !== '') out.enqueue({ type: 'reasoning-delta', index, text: content.thinking });
      if (typeof content.signature === 'string' && content.signature !== '') {
        out.enqueue({ type: 'reasoning-signature', index, signature: content.signature, origin: { protocol: PROTOCOL } });
      }
      return;
    }
    case 'redacted_thinking': {
      state.blocks.set(wireIndex, { index, kind: 'reasoning' });
      const data = typeof content.data === 'string' ? content.data : '';
      out.enqueue({ type: 'block-start', index, block: { kind: 'reasoning', redacted: true, signature: data, origin: { protocol: PROTOCOL } } });
      return;
    }
    case 'tool_use': {
      if (typeof content.id !== 'string' || typeof content.name !== 'string') throw unexpected('tool_use block without id or name');
      state.blocks.set(wireIndex, { index, kind: 'tool_call' });
      out.enqueue({ type: 'block-start', index, block: { kind: 'tool_call', id: content.id, name: content.name } });
      // Some servers send the whole input at start instead of as deltas.
      const input = content.input;
      if (typeof input === 'object' && input !== null && Object.keys(input).length > 0) {
        out.enqueue({ type: 'tool-args-delta', index, json: JSON.stringify(input) });
      }
      return;
    }
    default: {
      // Server tool calls and their results: kept whole, sent when complete (input may stream).
      const value = { ...content };
      const streamsInput = typeof value.input === 'object' && value.input !== null && Object.keys(value.input).length === 0;
      state.blocks.set(wireIndex, streamsInput ? { index, kind: 'part', value, json: '' } : { index, kind: 'part', value });
    }
  }
}

function blockDelta(state: DecodeState, event: Wire, out: Out): void {
  const block = state.blocks.get(event.index as number);
  if (!block) throw unexpected(`content_block_delta for unopened block ${String(event.index)}`);
  const delta = (event.delta ?? {}) as Wire;
  const index = block.index;
  switch (delta.type) {
    case 'text_delta':
      if (typeof delta.text === 'string' && block.kind === 'text') out.enqueue({ type: 'text-delta', index, text: delta.text });
      return;
    case 'thinking_delta':
      if (typeof delta.thinking === 'string' && block.kind === 'reasoning') out.enqueue({ type: 'reasoning-delta', index, text: delta.thinking });
      return;
    case 'signature_delta':
      if (typeof delta.signature === 'string') {
        out.enqueue({ type: 'reasoning-signature', index, signature: delta.signature, origin: { protocol: PROTOCOL } });
      }
      return;
    case 'input_json_delta': {
      const json = typeof delta.partial_json === 'string' ? delta.partial_json : '';
      if (block.kind === 'tool_call') {
        if (json !== '') out.enqueue({ type: 'tool-args-delta', index, json });
      } else if (block.kind === 'part') block.json = (block.json ?? '') + json;
      return;
    }
    case 'citations_delta':
      if (block.kind === 'text') out.enqueue({ type: 'citation', index, citation: decodeCitation(delta, 'citation', 'delta') });
      return;
    default:
      // Beta deltas on kept blocks (compaction_delta, ...) are folded into the block's value.
      if (block.kind === 'part' && block.value) {
        const key = typeof delta.type === 'string' ? delta.type.replace(/_delta$/, '') : '';
        const piece = delta[key];
        if (typeof piece === 'string' && (block.value[key] === undefined || typeof block.value[key] === 'string')) {
          block.value[key] = ((block.value[key] as string | undefined) ?? '') + piece;
        }
      }
      return;
  }
}

/** A kept block once complete: an MCP call or result, or a code run, as its canonical part, any other whole. */
function completedPart(value: Wire): Extract<LlmBlockStart, { kind: 'part' }>['part'] {
  if (value.type === 'mcp_tool_use') return decodeMcpToolUse(value, 'content_block');
  if (value.type === 'mcp_tool_result') return decodeMcpToolResult(value, 'content_block');
  if (value.type === 'mcp_tool_listing') return decodeMcpToolListing(value, 'content_block');
  const code =
    value.type === 'server_tool_use'
      ? decodeCodeUse(value, 'content_block')
      : value.type === 'code_execution_tool_result' || value.type === 'bash_code_execution_tool_result'
        ? decodeCodeResult(value, 'content_block')
        : undefined;
  return code ?? { type: 'provider', protocol: PROTOCOL, value };
}

/** A block that arrives complete (inside `message_start`) -> its canonical block events. */
function completeBlock(state: DecodeState, blocks: unknown[], at: number, out: Out): void {
  const part = asAssistantContent(decodeBlock(blocks, at, 'message.content'), `message.content[${at}]`);
  const response: LlmResponse = { id: '', model: '', choices: [{ index: 0, content: [part] }] };
  for (const event of responseToEvents(response)) {
    if (event.type === 'start' || event.type === 'finish' || event.type === 'usage') continue;
    out.enqueue({ ...event, index: state.nextIndex } as LlmStreamEvent);
  }
  state.nextIndex++;
}

function finish(state: DecodeState, out: Out): void {
  if (state.done) return;
  if (!state.started) return fail(state, unexpected('message_stop before message_start'), out);
  // Only `content_block_stop` completes a call's input: a call still open at the end means its
  // stop (and perhaps input) was lost, as when a proxy cuts a stream and closes it with
  // message_stop. `max_tokens` says the output was cut, so its open blocks close under it; other
  // open blocks (text, thinking) end before the finish.
  if (state.stopReason !== 'max_tokens' && hasOpenCall(state)) return fail(state, streamEndedEarly(PROTOCOL, 'content_block_stop'), out);
  for (const wireIndex of [...state.blocks.keys()]) decodeEvent(state, { type: 'content_block_stop', index: wireIndex }, out);
  state.done = true;
  const raw = state.stopReason;
  const reason: LlmFinishReason = raw === undefined ? 'stop' : decodeStopReason(raw);
  const event: Extract<LlmStreamEvent, { type: 'finish' }> = { type: 'finish', reason };
  if (raw !== undefined) event.rawReason = raw;
  if (state.stopSequence !== undefined) event.stopSequence = state.stopSequence;
  const usage: LlmUsage | undefined = decodeUsage(state.usage);
  if (usage) event.usage = usage;
  if (state.finishExtras) event.extensions = { [PROTOCOL]: state.finishExtras };
  out.enqueue(event);
}
