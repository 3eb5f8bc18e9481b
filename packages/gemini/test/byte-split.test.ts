import { decodeSse, type LlmStreamEvent } from '@llm/core';
import { byteAtATime, collect, readChunkPayloads, splitAt, splitOffsets, streamOf, utf8 } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

async function eventsOf(chunks: Uint8Array[]): Promise<LlmStreamEvent[]> {
  return collect(decodeSse(streamOf(chunks)).pipeThrough(gemini.stream.decode()));
}

describe('streams split at byte boundaries decode to the same events', () => {
  it.each(['vercel-ai/google-reasoning-gemini3.chunks.txt', 'vercel-ai/google-tool-call.chunks.txt'])(
    '%s with CRLF separators, as the live API sends',
    async (path) => {
      const bytes = utf8(
        readChunkPayloads('gemini', path)
          .map((data) => `data: ${data}\r\n\r\n`)
          .join(''),
      );
      const whole = await eventsOf([bytes]);
      expect(whole.at(-1)?.type).toBe('finish');
      for (const offset of splitOffsets(bytes.length, 150)) expect(await eventsOf(splitAt(bytes, [offset]))).toEqual(whole);
      expect(await eventsOf(byteAtATime(bytes))).toEqual(whole);
    },
  );
});
