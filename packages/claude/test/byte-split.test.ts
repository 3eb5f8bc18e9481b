import { decodeSse, type LlmStreamEvent } from '@llm/core';
import { byteAtATime, collect, readFixtureBytes, splitAt, splitOffsets, streamOf } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';

async function eventsOf(chunks: Uint8Array[]): Promise<LlmStreamEvent[]> {
  return collect(decodeSse(streamOf(chunks)).pipeThrough(claude.stream.decode()));
}

describe('streams split at byte boundaries decode to the same events', () => {
  it.each(['basic_response.txt', 'tool_use_response.txt'])('anthropic-sdk-typescript/%s', async (name) => {
    const bytes = readFixtureBytes('claude', `anthropic-sdk-typescript/${name}`);
    const whole = await eventsOf([bytes]);
    expect(whole.at(-1)?.type).toBe('finish');
    // Every split into two pieces (or a seeded sample of them), and one byte at a time.
    for (const offset of splitOffsets(bytes.length, 150)) expect(await eventsOf(splitAt(bytes, [offset]))).toEqual(whole);
    expect(await eventsOf(byteAtATime(bytes))).toEqual(whole);
  });
});
