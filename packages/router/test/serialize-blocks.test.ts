import { LlmError, type LlmStreamEvent } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { serializeBlocks } from '../src/serialize-blocks.js';

async function run(events: LlmStreamEvent[]): Promise<LlmStreamEvent[]> {
  const out: LlmStreamEvent[] = [];
  const source = new ReadableStream<LlmStreamEvent>({
    start(controller) {
      for (const event of events) controller.enqueue(event);
      controller.close();
    },
  });
  const reader = source.pipeThrough(serializeBlocks()).getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value);
  return out;
}

const start = (index: number): LlmStreamEvent => ({ type: 'block-start', index, block: { kind: 'tool_call', id: `c${index}`, name: 'f' } });
const args = (index: number, text: string): LlmStreamEvent => ({ type: 'tool-args-delta', index, json: text });
const end = (index: number): LlmStreamEvent => ({ type: 'block-end', index });

describe('serializeBlocks', () => {
  it('holds a block that starts while another is open until that one ends', async () => {
    const finish: LlmStreamEvent = { type: 'finish', reason: 'tool_calls' };
    expect(await run([start(0), args(0, '{'), start(1), args(1, '{}'), start(2), args(0, '}'), end(0), end(2), args(1, ' '), end(1), finish])).toEqual([
      start(0),
      args(0, '{'),
      args(0, '}'),
      end(0),
      start(1),
      args(1, '{}'),
      args(1, ' '),
      end(1),
      start(2),
      end(2),
      finish,
    ]);
  });

  it('keeps events outside blocks behind held blocks; an error passes at once and ends the stream', async () => {
    const usage: LlmStreamEvent = { type: 'usage', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } };
    const error: LlmStreamEvent = { type: 'error', error: new LlmError({ kind: 'server', message: 'cut' }) };
    expect(await run([start(0), start(1), usage, args(0, 'x'), end(0), end(1)])).toEqual([start(0), args(0, 'x'), end(0), start(1), end(1), usage]);
    expect(await run([start(0), start(1), usage, args(0, 'x'), error])).toEqual([start(0), args(0, 'x'), error]);
  });

  it('leaves sequential blocks untouched', async () => {
    const events = [start(0), args(0, '{}'), end(0), start(1), args(1, '{}'), end(1)];
    expect(await run(events)).toEqual(events);
  });
});
