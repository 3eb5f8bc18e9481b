import { splitAt, utf8 as encode } from '@llm/test-utils';
import fc from 'fast-check';
import { propertyRuns } from '@llm/test-utils/property-runs';
import { describe, expect, it } from 'vitest';
import { utf8ChunkDecoder } from './decode.js';

/**
 * The reference: one TextDecoder over all the bytes at once, which the Encoding standard says a
 * streaming decode must equal. (Node 24's streaming decoder itself drops a second byte-order mark
 * when the first is cut between chunks, `[EF] [BB BF EF BB BF]` -> '', against the standard's
 * '\ufeff'; found by the property below, so it is not the reference.)
 */
function streamingText(chunks: Uint8Array[]): string {
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}

function chunkedText(chunks: Uint8Array[]): string {
  const decoder = utf8ChunkDecoder();
  let text = '';
  for (const chunk of chunks) text += decoder.decode(chunk);
  return text + decoder.end();
}

/** `bytes` cut at `offsets`, wrapped into its length. */
const cut = (bytes: Uint8Array, offsets: number[]): Uint8Array[] =>
  splitAt(
    bytes,
    offsets.map((offset) => offset % (bytes.length + 1)),
  );

describe('utf8ChunkDecoder', () => {
  it('gives what a streaming TextDecoder gives, characters split between chunks included', () => {
    const text = 'a\u00e9\u20ac\u{1F600}z';
    const bytes = encode(text);
    for (let at = 0; at <= bytes.length; at++) {
      for (let second = at; second <= bytes.length; second++) {
        const chunks = cut(bytes, [at, second]);
        expect(chunkedText(chunks)).toBe(text);
      }
    }
  });

  it('drops a byte-order mark only at the very start, even when it arrives split', () => {
    const bytes = encode('\uFEFFab\uFEFFc');
    expect(chunkedText([bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2)])).toBe('ab\uFEFFc');
    expect(chunkedText([new Uint8Array(0), bytes])).toBe('ab\uFEFFc');
    expect(chunkedText([encode('x'), bytes])).toBe('x\uFEFFab\uFEFFc');
  });

  it('replaces malformed and cut sequences exactly as the streaming decoder does', () => {
    const cases = [
      [0xe2, 0x82],
      [0xe2, 0x82, 0x41],
      [0xf0, 0x9f, 0xe2, 0x82, 0xac],
      [0xe0, 0x80, 0x80],
      [0xc0, 0xaf],
      [0xff, 0x80, 0x80, 0x80, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xed, 0xa0, 0x80],
    ];
    for (const list of cases) {
      const bytes = Uint8Array.from(list);
      for (let at = 0; at <= bytes.length; at++) expect(chunkedText(cut(bytes, [at]))).toBe(streamingText([bytes]));
    }
  });

  it('keeps a second byte-order mark when the first is cut between chunks', () => {
    expect(chunkedText([Uint8Array.of(0xef), Uint8Array.of(0xbb, 0xbf, 0xef, 0xbb, 0xbf)])).toBe('\ufeff');
  });

  it('agrees with one TextDecoder over the whole input on any bytes cut anywhere (property)', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary' }).map(encode),
      fc.uint8Array({ maxLength: 8 }),
      fc.constantFrom(Uint8Array.of(0xef, 0xbb, 0xbf), Uint8Array.of(0xf0, 0x9f), Uint8Array.of(0xe2, 0x82)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 6 }), (pieces, offsets) => {
        const bytes = new Uint8Array(pieces.reduce((sum, item) => sum + item.length, 0));
        let at = 0;
        for (const item of pieces) {
          bytes.set(item, at);
          at += item.length;
        }
        const chunks = cut(bytes, offsets);
        expect(chunkedText(chunks)).toBe(streamingText(chunks));
      }),
      propertyRuns(500),
    );
  });
});
