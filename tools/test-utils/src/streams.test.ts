import { describe, expect, it } from 'vitest';
import { byteAtATime, collect, runTransform, splitAt, splitOffsets, streamOf, utf8 } from './streams.js';

describe('splitAt', () => {
  it('cuts at sorted, unique, in-range offsets', () => {
    const chunks = splitAt(utf8('abcdef'), [4, 2, 2, 0, 6, 9]);
    expect(chunks.map((chunk) => new TextDecoder().decode(chunk))).toEqual(['ab', 'cd', 'ef']);
  });
});

describe('splitOffsets', () => {
  it('lists every offset of a short input', () => {
    expect(splitOffsets(5)).toEqual([1, 2, 3, 4]);
  });
  it('samples the same offsets for the same seed', () => {
    const first = splitOffsets(10_000, 50, 7);
    expect(first).toHaveLength(50);
    expect(splitOffsets(10_000, 50, 7)).toEqual(first);
    expect(first.every((offset) => offset > 0 && offset < 10_000)).toBe(true);
  });
});

describe('streams', () => {
  it('round-trips items through streamOf and collect', async () => {
    expect(await collect(streamOf([1, 2, 3]))).toEqual([1, 2, 3]);
  });
  it('feeds a transform', async () => {
    const double = new TransformStream<number, number>({ transform: (value, c) => c.enqueue(value * 2) });
    expect(await runTransform(double, [1, 2])).toEqual([2, 4]);
  });
  it('splits one byte per chunk', () => {
    expect(byteAtATime(utf8('é')).map((chunk) => chunk.length)).toEqual([1, 1]);
  });
});
