import type { LlmAssistantContent, LlmReasoningPart, LlmRefusalPart, LlmTextPart, LlmToolCallPart } from './content.js';
import { LlmError } from './errors.js';
import type { LlmChoice, LlmResponse } from './response.js';
import type { LlmStreamEvent } from './stream-event.js';

/** An open block: the part being filled and, for tool calls, the argument fragments so far. */
interface OpenBlock {
  part: LlmAssistantContent;
  argumentChunks?: string[];
}

/**
 * Folds canonical stream events into a canonical response: the stream -> non-stream half of
 * the conversion between the two (`responseToEvents` is the other half). Feed events with
 * {@link LlmStreamAccumulator.push} in order, then read {@link LlmStreamAccumulator.response}.
 *
 * Memory holds the response being built, nothing per event. Tool-call arguments are collected as
 * fragments and joined once, at `block-end`.
 */
export class LlmStreamAccumulator {
  private readonly result: LlmResponse = { id: '', model: '', choices: [] };
  private readonly open = new Map<number, OpenBlock>();
  private failure: LlmError | undefined;
  private finished = false;

  /** The error the stream ended with, if it did. */
  get error(): LlmError | undefined {
    return this.failure;
  }

  /** True once every choice seen has a `finish` (or the stream failed). */
  get done(): boolean {
    return this.failure !== undefined || this.finished;
  }

  /** Applies one event. Throws `LlmError` kind `upstream` when the sequence breaks the rules. */
  push(event: LlmStreamEvent): void {
    switch (event.type) {
      case 'start':
        if (event.id !== undefined) this.result.id = event.id;
        if (event.model !== undefined) this.result.model = event.model;
        if (event.created !== undefined) this.result.created = event.created;
        if (event.serviceTier !== undefined) this.result.serviceTier = event.serviceTier;
        if (event.extensions) this.result.extensions = { ...this.result.extensions, ...event.extensions };
        return;
      case 'block-start': {
        if (this.open.has(event.index)) throw sequenceError(`block ${event.index} started twice`);
        const block: OpenBlock = { part: partFor(event.block) };
        if (event.block.kind === 'tool_call') block.argumentChunks = [];
        this.open.set(event.index, block);
        this.choice(event.choice ?? 0).content.push(block.part);
        return;
      }
      case 'text-delta': {
        const part = this.block(event.index, event.type).part;
        if (part.type !== 'text' && part.type !== 'refusal') throw sequenceError(`text-delta for a ${part.type} block`);
        part.text += event.text;
        return;
      }
      case 'reasoning-delta': {
        const part = this.block(event.index, event.type).part;
        if (part.type !== 'reasoning') throw sequenceError(`reasoning-delta for a ${part.type} block`);
        part.text += event.text;
        return;
      }
      case 'reasoning-signature': {
        const part = this.block(event.index, event.type).part;
        if (part.type !== 'reasoning' && part.type !== 'text' && part.type !== 'tool-call') {
          throw sequenceError(`reasoning-signature for a ${part.type} block`);
        }
        part.signature = event.signature;
        if (event.origin) part.origin = event.origin;
        return;
      }
      case 'tool-args-delta': {
        const block = this.block(event.index, event.type);
        if (!block.argumentChunks) throw sequenceError(`tool-args-delta for a ${block.part.type} block`);
        block.argumentChunks.push(event.json);
        return;
      }
      case 'citation': {
        const part = this.block(event.index, event.type).part;
        if (part.type !== 'text') throw sequenceError(`citation for a ${part.type} block`);
        (part.citations ??= []).push(event.citation);
        return;
      }
      case 'logprobs': {
        this.block(event.index, event.type);
        const choice = this.choiceOfBlock(event.index);
        if (choice) (choice.logprobs ??= []).push(...event.logprobs);
        return;
      }
      case 'block-end': {
        const block = this.block(event.index, event.type);
        if (block.argumentChunks) (block.part as LlmToolCallPart).arguments = block.argumentChunks.join('');
        if (event.extensions) block.part.extensions = { ...block.part.extensions, ...event.extensions };
        this.open.delete(event.index);
        return;
      }
      case 'usage':
        this.result.usage = event.usage;
        return;
      case 'finish': {
        const choice = this.choice(event.choice ?? 0);
        choice.finishReason = event.reason;
        if (event.rawReason !== undefined) choice.rawFinishReason = event.rawReason;
        if (event.stopSequence !== undefined) choice.stopSequence = event.stopSequence;
        if (event.extensions) choice.extensions = { ...choice.extensions, ...event.extensions };
        if (event.usage) this.result.usage = event.usage;
        this.finished = this.result.choices.every((item) => item.finishReason !== undefined);
        return;
      }
      case 'error':
        this.failure = event.error;
        return;
      default: {
        const unreachable: never = event;
        throw sequenceError(`unknown event ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /**
   * The response built so far. Blocks still open are included as they stand. Throws the stream's
   * error if it ended with one.
   */
  response(): LlmResponse {
    if (this.failure) throw this.failure;
    for (const block of this.open.values()) {
      if (block.argumentChunks) (block.part as LlmToolCallPart).arguments = block.argumentChunks.join('');
    }
    return this.result;
  }

  private choice(index: number): LlmChoice {
    let choice = this.result.choices.find((item) => item.index === index);
    if (!choice) {
      choice = { index, content: [] };
      this.result.choices.push(choice);
      this.result.choices.sort((a, b) => a.index - b.index);
    }
    return choice;
  }

  private choiceOfBlock(index: number): LlmChoice | undefined {
    const part = this.open.get(index)?.part;
    return this.result.choices.find((choice) => part !== undefined && choice.content.includes(part));
  }

  private block(index: number, type: string): OpenBlock {
    const block = this.open.get(index);
    if (!block) throw sequenceError(`${type} for block ${index}, which is not open`);
    return block;
  }
}

function partFor(block: Extract<LlmStreamEvent, { type: 'block-start' }>['block']): LlmAssistantContent {
  switch (block.kind) {
    case 'text':
      return { type: 'text', text: '' } satisfies LlmTextPart;
    case 'refusal':
      return { type: 'refusal', text: '' } satisfies LlmRefusalPart;
    case 'reasoning': {
      const part: LlmReasoningPart = { type: 'reasoning', text: '' };
      if (block.format !== undefined) part.format = block.format;
      if (block.id !== undefined) part.id = block.id;
      if (block.redacted) part.redacted = true;
      if (block.signature !== undefined) part.signature = block.signature;
      if (block.origin !== undefined) part.origin = block.origin;
      return part;
    }
    case 'tool_call': {
      const part: LlmToolCallPart = { type: 'tool-call', id: block.id, name: block.name, arguments: '' };
      if (block.freeform) part.freeform = true;
      if (block.signature !== undefined) part.signature = block.signature;
      if (block.origin !== undefined) part.origin = block.origin;
      return part;
    }
    case 'part':
      return structuredClone(block.part);
    default: {
      const unreachable: never = block;
      throw sequenceError(`unknown block ${JSON.stringify(unreachable)}`);
    }
  }
}

function sequenceError(message: string): LlmError {
  return new LlmError({ kind: 'upstream', message: `invalid stream: ${message}` });
}

/** Folds a whole event sequence into a response (throws the stream's error, if any). */
export function accumulateEvents(events: Iterable<LlmStreamEvent>): LlmResponse {
  const accumulator = new LlmStreamAccumulator();
  for (const event of events) accumulator.push(event);
  return accumulator.response();
}

/** Folds an async event stream (a `ReadableStream` or any async iterable) into a response. */
export async function accumulateStream(events: ReadableStream<LlmStreamEvent> | AsyncIterable<LlmStreamEvent>): Promise<LlmResponse> {
  const accumulator = new LlmStreamAccumulator();
  if (events instanceof ReadableStream) {
    const reader = events.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      accumulator.push(value);
    }
  } else {
    for await (const event of events) accumulator.push(event);
  }
  return accumulator.response();
}
