import { stepStream, type LlmStreamEvent, type StepOutput, type StreamStep } from '@llm/core';

/** A block that started while another was open: its events wait for their turn. */
interface Waiting {
  index: number;
  events: LlmStreamEvent[];
  ended: boolean;
}

/**
 * Emits content blocks one after the other, as Anthropic's own streams do: a block that starts
 * while another is open (a Chat upstream interleaving parallel tool-call deltas) is held until the
 * open one ends (clients that expect sequential blocks fall back to non-streaming, and every
 * tool call would run twice). Memory is bounded by the held blocks; events outside blocks
 * (usage, finish) wait behind them so the order stays meaningful, and an error is passed at once
 * (ending the stream, so held events are dropped).
 */
export function serializeBlocks(): TransformStream<LlmStreamEvent, LlmStreamEvent> {
  return stepStream(serializeBlocksStep());
}

/** {@link serializeBlocks} as a stream step. */
export function serializeBlocksStep(): StreamStep<LlmStreamEvent, LlmStreamEvent> {
  let active: number | undefined;
  const waiting: Waiting[] = [];
  /** Events outside blocks that arrived while blocks were held. */
  let tail: LlmStreamEvent[] = [];

  const drain = (controller: StepOutput<LlmStreamEvent>) => {
    active = undefined;
    while (waiting.length > 0) {
      const next = waiting.shift() as Waiting;
      for (const event of next.events) controller.enqueue(event);
      if (!next.ended) {
        active = next.index;
        return;
      }
    }
    for (const event of tail) controller.enqueue(event);
    tail = [];
  };

  return {
    transform(event, controller) {
      if (event.type === 'error') {
        // An error ends the stream: what was held would follow it, so it goes.
        waiting.length = 0;
        tail = [];
        controller.enqueue(event);
        return;
      }
      const index = 'index' in event ? event.index : undefined;
      if (index === undefined) {
        if (waiting.length > 0) tail.push(event);
        else controller.enqueue(event);
        return;
      }
      if (event.type === 'block-start' && active !== undefined && index !== active) {
        waiting.push({ index, events: [event], ended: false });
        return;
      }
      const held = waiting.find((block) => block.index === index);
      if (held) {
        held.events.push(event);
        if (event.type === 'block-end') held.ended = true;
        return;
      }
      if (event.type === 'block-start') active = index;
      controller.enqueue(event);
      if (event.type === 'block-end' && index === active) drain(controller);
    },
    flush(controller) {
      // A stream cut short: pass on what was held rather than lose it.
      for (const block of waiting) for (const event of block.events) controller.enqueue(event);
      for (const event of tail) controller.enqueue(event);
    },
  };
}
