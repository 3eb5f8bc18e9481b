import { toolArgumentsText, type LlmAssistantContent } from './content.js';
import type { LlmResponse } from './response.js';
import type { LlmBlockStart, LlmStreamEvent } from './stream-event.js';

/**
 * The inverse of the accumulator: the events a stream of `response` would have carried, so that a
 * non-streaming answer can serve a streaming client. Each part becomes one block with its text in
 * a single delta; usage rides on the last `finish`.
 *
 * `accumulateEvents(responseToEvents(r))` equals `r` up to tool-call arguments, which come back as
 * JSON text when they were objects.
 */
export function responseToEvents(response: LlmResponse): LlmStreamEvent[] {
  const events: LlmStreamEvent[] = [];
  const start: Extract<LlmStreamEvent, { type: 'start' }> = { type: 'start', id: response.id, model: response.model };
  if (response.created !== undefined) start.created = response.created;
  if (response.serviceTier !== undefined) start.serviceTier = response.serviceTier;
  if (response.extensions) start.extensions = response.extensions;
  events.push(start);

  let index = 0;
  response.choices.forEach((choice, position) => {
    let logprobsPending = choice.logprobs && choice.logprobs.length > 0;
    for (const part of choice.content) {
      const block = index++;
      const blockStart: LlmStreamEvent = { type: 'block-start', index: block, block: blockStartFor(part) };
      if (choice.index !== 0) blockStart.choice = choice.index;
      events.push(blockStart);
      pushBody(events, block, part);
      if (logprobsPending && part.type === 'text' && choice.logprobs) {
        events.push({ type: 'logprobs', index: block, logprobs: choice.logprobs });
        logprobsPending = false;
      }
      const end: LlmStreamEvent = { type: 'block-end', index: block };
      if (part.extensions) end.extensions = part.extensions;
      events.push(end);
    }
    const finish: Extract<LlmStreamEvent, { type: 'finish' }> = {
      type: 'finish',
      reason: choice.finishReason ?? 'stop',
    };
    if (choice.rawFinishReason !== undefined) finish.rawReason = choice.rawFinishReason;
    if (choice.stopSequence !== undefined) finish.stopSequence = choice.stopSequence;
    if (choice.index !== 0) finish.choice = choice.index;
    if (choice.extensions) finish.extensions = choice.extensions;
    if (position === response.choices.length - 1 && response.usage) finish.usage = response.usage;
    events.push(finish);
  });
  return events;
}

function blockStartFor(part: LlmAssistantContent): LlmBlockStart {
  switch (part.type) {
    case 'text':
      return { kind: 'text' };
    case 'refusal':
      return { kind: 'refusal' };
    case 'reasoning': {
      const block: Extract<LlmBlockStart, { kind: 'reasoning' }> = { kind: 'reasoning' };
      if (part.format !== undefined) block.format = part.format;
      if (part.id !== undefined) block.id = part.id;
      if (part.origin !== undefined) block.origin = part.origin;
      if (part.redacted) {
        block.redacted = true;
        if (part.signature !== undefined) block.signature = part.signature;
      }
      return block;
    }
    case 'tool-call': {
      const block: Extract<LlmBlockStart, { kind: 'tool_call' }> = { kind: 'tool_call', id: part.id, name: part.name };
      if (part.freeform) block.freeform = true;
      if (part.signature !== undefined) block.signature = part.signature;
      if (part.origin !== undefined) block.origin = part.origin;
      return block;
    }
    case 'image':
    case 'audio':
    case 'file':
    case 'provider':
    case 'mcp-list-tools':
    case 'mcp-call':
    case 'mcp-result':
    case 'mcp-approval-request':
    case 'code-execution':
    case 'code-execution-result': {
      const { extensions: _extensions, ...rest } = part;
      return { kind: 'part', part: rest };
    }
    default: {
      const unreachable: never = part;
      return unreachable;
    }
  }
}

function pushBody(events: LlmStreamEvent[], index: number, part: LlmAssistantContent): void {
  switch (part.type) {
    case 'text':
      if (part.text !== '') events.push({ type: 'text-delta', index, text: part.text });
      if (part.signature !== undefined) pushSignature(events, index, part.signature, part.origin);
      for (const citation of part.citations ?? []) events.push({ type: 'citation', index, citation });
      return;
    case 'refusal':
      if (part.text !== '') events.push({ type: 'text-delta', index, text: part.text });
      return;
    case 'reasoning':
      if (part.text !== '') events.push({ type: 'reasoning-delta', index, text: part.text });
      if (!part.redacted && part.signature !== undefined) pushSignature(events, index, part.signature, part.origin);
      return;
    case 'tool-call': {
      const json = toolArgumentsText(part.arguments);
      if (json !== '') events.push({ type: 'tool-args-delta', index, json });
      return;
    }
    default:
      return;
  }
}

function pushSignature(
  events: LlmStreamEvent[],
  index: number,
  signature: string,
  origin: Extract<LlmStreamEvent, { type: 'reasoning-signature' }>['origin'],
): void {
  const event: Extract<LlmStreamEvent, { type: 'reasoning-signature' }> = { type: 'reasoning-signature', index, signature };
  if (origin !== undefined) event.origin = origin;
  events.push(event);
}
