import { describe, expect, it } from 'vitest';
import { citationSpan, utf16Index, utf8Offset } from './citation-span.js';

describe('citation spans', () => {
  it('a citation without a range covers the whole text', () => {
    expect(citationSpan({ kind: 'url' }, 'Hello.')).toEqual({ start: 0, end: 6 });
    expect(citationSpan({ kind: 'url', startIndex: 2, endIndex: 4 }, 'Hello.')).toEqual({ start: 2, end: 4 });
  });

  it('converts UTF-16 indices to UTF-8 byte offsets and back', () => {
    const text = 'Né 😀 x';
    expect(utf8Offset(text, 0)).toBe(0);
    expect(utf8Offset(text, 2)).toBe(3); // é is 2 bytes
    expect(utf8Offset(text, 5)).toBe(8); // the emoji is 2 UTF-16 units, 4 bytes
    expect(utf8Offset(text, text.length)).toBe(new TextEncoder().encode(text).length);
    expect(utf16Index(text, 3)).toBe(2);
    expect(utf16Index(text, 8)).toBe(5);
    expect(utf16Index(text, 10)).toBe(7);
    expect(utf8Offset('ascii', 3)).toBe(3);
    expect(utf16Index('ascii', 9)).toBe(5);
  });
});
