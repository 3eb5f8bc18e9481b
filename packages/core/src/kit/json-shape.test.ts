import fc from 'fast-check';
import { propertyRuns } from '@llm/test-utils/property-runs';
import { describe, expect, it } from 'vitest';
import { learnJsonShape } from './json-shape.js';
import { readSseJson, SseJsonReader } from './sse-json.js';

/** What the reader gives for each text, side by side with what a parse of each gives. */
function readBoth(texts: string[]): { fast: unknown[]; slow: unknown[]; shaped: number } {
  const reader = new SseJsonReader('openai-chat');
  const fast: unknown[] = [];
  const slow: unknown[] = [];
  let shaped = 0;
  for (const text of texts) {
    if ((reader as unknown as { shape?: { read(text: string): unknown } }).shape?.read(text) !== undefined) shaped++;
    fast.push(summary(reader.read(text, 'stream chunk')));
    slow.push(summary(readSseJson('openai-chat', text, 'stream chunk')));
  }
  return { fast, slow, shaped };
}

/** A read's payload with its key order made visible, or its error's kind and message. */
function summary(json: ReturnType<typeof readSseJson>): unknown {
  if (json.error) return { kind: json.error.kind, message: json.error.message, path: json.error.path };
  return { payload: json.payload, order: JSON.stringify(json.payload) };
}

const chunk = (content: string, extra = ''): string =>
  `{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":${content}}${extra},"finish_reason":null}]}`;

describe('SseJsonReader', () => {
  it('reads deltas by their shape, with the values a parse gives', () => {
    const texts = ['"a"', '"b"', '"c\\"d"', '"\\u00e9\\n"', '"\u2028\u2029"', '"\ud800 lone"', '"\\\\"', '"x\\\\\\"y"', '""', '"/\\/"'].map((content) =>
      chunk(content),
    );
    const { fast, slow, shaped } = readBoth(texts);
    expect(fast).toEqual(slow);
    // The first two are parsed (the shape is learnt from the second); the rest match it.
    expect(shaped).toBe(texts.length - 2);
  });

  it('reads a changing integer beside the delta (a sequence number)', () => {
    const event = (sequence: string, delta: string): string =>
      `{"type":"response.output_text.delta","delta":${delta},"sequence_number":${sequence},"logprobs":[]}`;
    const texts = [event('3', '"a"'), event('4', '"b"'), event('5', '"c"'), event('123456', '"d"'), event('-0', '"e"'), event('0', '"f"')];
    const { fast, slow, shaped } = readBoth(texts);
    expect(fast).toEqual(slow);
    expect(shaped).toBe(4);
    // What the shape cannot read exactly is parsed: fractions, exponents, leading zeros, huge numbers.
    const odd = [event('1.5', '"g"'), event('1e3', '"h"'), event('007', '"i"'), event('12345678901234567890', '"j"'), event('"7"', '"k"')];
    const again = readBoth([...texts, ...odd]);
    expect(again.fast).toEqual(again.slow);
    expect(again.shaped).toBe(4);
  });

  it('gives the parse error for text that matches the shape but is not JSON', () => {
    const texts = [
      chunk('"a"'),
      chunk('"b"'),
      chunk('"raw\u0001control"'),
      chunk('"bad \\x escape"'),
      chunk('"unended'),
      chunk('"a" "b"'),
      `${chunk('"c"')} `,
      chunk('"d"'),
    ];
    const { fast, slow } = readBoth(texts);
    expect(fast).toEqual(slow);
    expect(slow[2]).toMatchObject({ kind: 'upstream' });
    expect(slow[3]).toMatchObject({ kind: 'upstream' });
  });

  it('keeps a duplicate key that overrides the changing leaf out of the shape', () => {
    const texts = ['{"t":"A","t":"fixed"}', '{"t":"B","t":"fixed"}', '{"t":"C","t":"fixed"}'];
    expect(readBoth(texts).fast).toEqual(readBoth(texts).slow);
    const later = ['{"t":"fixed","t":"A"}', '{"t":"fixed","t":"B"}', '{"t":"fixed","t":"C"}', '{"t":"other","t":"D"}'];
    const both = readBoth(later);
    expect(both.fast).toEqual(both.slow);
    expect(both.shaped).toBe(1);
    // A duplicate whose fixed value equals the probe's own: the probe tells it apart from the hole.
    const crafted = ['{"t":"A","t":"s0"}', '{"t":"B","t":"s0"}', '{"t":"Z","t":"s0"}', '{"t":"s0","t":"s1"}', '{"t":"s1","t":"s1"}'];
    const tricky = readBoth(crafted);
    expect(tricky.fast).toEqual(tricky.slow);
  });

  it('learns no shape over a __proto__ key, and hands out a fresh object each time', () => {
    const proto = ['{"__proto__":{"x":1},"d":"a"}', '{"__proto__":{"x":1},"d":"b"}', '{"__proto__":{"x":1},"d":"c"}'];
    const both = readBoth(proto);
    expect(both.fast).toEqual(both.slow);
    expect(both.shaped).toBe(0);
    const reader = new SseJsonReader('claude');
    const text = (value: string): string => `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${value}"},"list":[{"a":[]}]}`;
    reader.read(text('a'), 'stream event');
    reader.read(text('b'), 'stream event');
    const first = reader.read(text('c'), 'stream event').payload as Record<string, unknown> & { list: Array<{ a: unknown[] }> };
    first.delta = 'changed';
    first.list[0]?.a.push(1);
    expect(reader.read(text('d'), 'stream event').payload).toEqual(JSON.parse(text('d')));
  });

  it('fills holes in arrays and nested containers, and a read that failed half way leaves nothing behind', () => {
    const event = (text: string, sequence: number, tail = ''): string =>
      `{"parts":[{"text":${JSON.stringify(text)}},[${sequence},{"deep":[${JSON.stringify(text)}]}]],"n":${sequence}${tail}}`;
    const reader = new SseJsonReader('gemini');
    reader.read(event('a', 1), 'stream chunk');
    reader.read(event('b', 2), 'stream chunk');
    // Matches the shape up to its last piece (an extra member), so it is parsed: its values must not stay for the next read.
    expect(reader.read(event('half', 77, ',"x":1'), 'stream chunk').payload).toEqual(JSON.parse(event('half', 77, ',"x":1')));
    const read = reader.read(event('c\u00e9', 3), 'stream chunk').payload;
    expect(read).toEqual({ parts: [{ text: 'c\u00e9' }, [3, { deep: ['c\u00e9'] }]], n: 3 });
    expect(JSON.stringify(read)).toBe(event('c\u00e9', 3));
  });

  it('finds no shape when more than the leaves change', () => {
    expect(learnJsonShape({ a: 'x' }, { a: 'y', b: 1 }, '{"a":"y","b":1}')).toBe('unlike');
    expect(learnJsonShape({ a: true }, { a: false }, '{"a":false}')).toBe('unlike');
    expect(learnJsonShape({ a: [1] }, { a: [1, 2] }, '{"a":[1,2]}')).toBe('unlike');
    // The same tree, its leaf escaped otherwise than JSON.stringify writes it: not learnt.
    expect(learnJsonShape({ a: 'x' }, { a: 'é' }, '{"a":"\\u00e9"}')).toBeUndefined();
  });

  it('reads every event as a parse does, whatever the leaves hold (property)', () => {
    const hostile = fc.constantFrom(
      '"',
      '\\',
      '\u2028',
      '\u2029',
      '\ud800',
      '\udfff',
      '\n',
      '/',
      '\u00e9',
      '\u{1F600}',
      '\u0000',
      '\u001f',
      '\u007f',
      '\ue000',
    );
    const leafText = fc.array(fc.oneof(hostile, fc.string({ maxLength: 4 })), { maxLength: 6 }).map((parts) => parts.join(''));
    const leaf = fc.oneof(leafText, fc.integer({ min: -1000, max: 1_000_000 }), fc.constantFrom(0.5, -0, 1e21, true, null));
    const tree = fc.dictionary(
      fc.constantFrom('type', 'delta', 'text', 'index', 'a', '0', '1', 'b'),
      fc.oneof(leaf, fc.array(leaf, { maxLength: 2 }), fc.dictionary(fc.constantFrom('text', 'n', 'c'), leaf, { maxKeys: 3 })),
      { minKeys: 1, maxKeys: 5 },
    );
    // How a leaf is written: as JSON.stringify writes it, with every character \u-escaped, or broken (raw control characters).
    const writer = fc.constantFrom('stringify', 'escaped', 'raw');
    const write = (value: unknown, how: string): string => {
      if (typeof value !== 'string' || how === 'stringify') return JSON.stringify(value);
      if (how === 'escaped')
        return `"${[...value].map((char) => [...char].map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join('')}"`;
      return `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"`;
    };
    const serialize = (value: unknown, how: string): string => {
      if (Array.isArray(value)) return `[${value.map((item) => serialize(item, how)).join(',')}]`;
      if (typeof value === 'object' && value !== null)
        return `{${Object.entries(value)
          .map(([key, item]) => `${JSON.stringify(key)}:${serialize(item, how)}`)
          .join(',')}}`;
      return write(value, how);
    };
    /** `base` with its string and number leaves replaced, in order, by `leaves` (cycled). */
    const vary = (base: unknown, leaves: unknown[], at = { index: 0 }): unknown => {
      if (Array.isArray(base)) return base.map((item) => vary(item, leaves, at));
      if (typeof base === 'object' && base !== null) return Object.fromEntries(Object.entries(base).map(([key, item]) => [key, vary(item, leaves, at)]));
      if ((typeof base === 'string' || typeof base === 'number') && leaves.length > 0 && at.index++ % 2 === 0) {
        const next = leaves[at.index % leaves.length];
        return typeof next === typeof base ? next : base;
      }
      return base;
    };
    let shapedInAll = 0;
    fc.assert(
      fc.property(tree, fc.array(fc.tuple(fc.array(leaf, { maxLength: 3 }), writer), { minLength: 2, maxLength: 8 }), (base, steps) => {
        const texts = steps.map(([leaves, how]) => serialize(vary(base, leaves), how));
        const { fast, slow, shaped } = readBoth(texts);
        expect(fast).toEqual(slow);
        shapedInAll += shaped;
      }),
      propertyRuns(400),
    );
    // The property must reach the shaped path, not only the parse.
    expect(shapedInAll).toBeGreaterThan(200);
  });
});
