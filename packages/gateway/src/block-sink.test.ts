import { describe, expect, it } from 'vitest';
import { BlockSink } from './block-sink.js';

describe('BlockSink', () => {
  it('hands the writer one block once the lines reach the block size, and the rest on flush', () => {
    const writes: string[] = [];
    const sink = new BlockSink({ write: (text) => writes.push(text) }, 10);
    sink.write('abcd\n');
    expect(writes).toEqual([]);
    sink.write('efgh\n');
    expect(writes).toEqual(['abcd\nefgh\n']);
    sink.write('ij\n');
    sink.flush();
    sink.flush();
    expect(writes).toEqual(['abcd\nefgh\n', 'ij\n']);
  });
});
