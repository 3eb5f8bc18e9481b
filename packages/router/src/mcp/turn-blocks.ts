import { LlmStreamAccumulator, type LlmAssistantContent, type LlmStreamEvent, type LlmUsage } from '@llm/core';

/** The numbering of the client's blocks across the loop's turns: the next free index. */
export interface BlockNumbering {
  next: number;
}

type IndexedEvent = Extract<LlmStreamEvent, { index: number }>;
type FinishEvent = Extract<LlmStreamEvent, { type: 'finish' }>;

/**
 * One upstream turn's events as the client sees them inside the loop's single answer: blocks
 * renumbered after the earlier turns', calls of MCP functions hidden (the loop shows them as MCP
 * parts once they ran), the client's own calls held until the turn ends (they come last, after
 * the MCP parts). The turn's usage, finish and content are kept for the loop.
 */
export class TurnBlocks {
  private readonly forwarded = new Map<number, number>();
  private readonly hidden = new Set<number>();
  private readonly held = new Map<number, IndexedEvent[]>();
  private readonly accumulator = new LlmStreamAccumulator();
  /** The turn's cumulative usage, as last reported. */
  usage: LlmUsage | undefined;
  finish: FinishEvent | undefined;

  constructor(
    private readonly numbering: BlockNumbering,
    private readonly isMcpFunction: (name: string) => boolean,
  ) {}

  /** Takes one upstream event (not `start` or `error`): what the client gets now, renumbered. */
  take(event: LlmStreamEvent): IndexedEvent[] {
    this.accumulator.push(event);
    switch (event.type) {
      case 'start':
      case 'error':
        return [];
      case 'usage':
        this.usage = event.usage;
        return [];
      case 'finish':
        this.finish = event;
        if (event.usage) this.usage = event.usage;
        return [];
      case 'block-start':
        if (event.block.kind === 'tool_call') {
          if (this.isMcpFunction(event.block.name)) this.hidden.add(event.index);
          else this.held.set(event.index, [event]);
          return [];
        }
        this.forwarded.set(event.index, this.numbering.next++);
        return [this.renumbered(event)];
      default: {
        if (this.hidden.has(event.index)) return [];
        const held = this.held.get(event.index);
        if (held) {
          held.push(event);
          return [];
        }
        return this.forwarded.has(event.index) ? [this.renumbered(event)] : [];
      }
    }
  }

  /** The client's own calls of this turn, numbered after everything sent so far. */
  releaseCalls(): IndexedEvent[] {
    const out: IndexedEvent[] = [];
    for (const [index, events] of this.held) {
      this.forwarded.set(index, this.numbering.next++);
      for (const event of events) out.push(this.renumbered(event));
    }
    this.held.clear();
    return out;
  }

  /** The upstream's whole assistant content of the turn (its own names and state), for the loop's history. */
  content(): LlmAssistantContent[] {
    return this.accumulator.response().choices[0]?.content ?? [];
  }

  private renumbered(event: IndexedEvent): IndexedEvent {
    return { ...event, index: this.forwarded.get(event.index) as number };
  }
}
