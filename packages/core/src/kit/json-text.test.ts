import fc from 'fast-check';
import { propertyRuns } from '@llm/test-utils/property-runs';
import { describe, expect, it } from 'vitest';
import { isJsonText } from './json-text.js';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Characters that matter to JSON's grammar, so random text often comes close to valid. */
const GRAMMAR = fc.constantFrom(
  ...'{}[]:,"\\/ \t\n\r\f\v-+.eE0123456789abfnrtuxAF'.split(''),
  'true',
  'false',
  'null',
  '\u0000',
  '\u001f',
  '\u00a0',
  '\ufeff',
  '\u2028',
  '\ud800',
  'é',
);

/** What tool-call arguments mostly are: an object of scalars and arrays of scalars. */
const scalar = fc.oneof(fc.string({ unit: 'binary' }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null));
const flat = fc.dictionary(fc.string(), fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }))).map((value) => JSON.stringify(value));

/** A JSON text with one character inserted, deleted or replaced somewhere. */
const mutated = fc.tuple(fc.oneof(fc.json(), flat), fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), GRAMMAR).map(([text, at, how, piece]) => {
  const cut = at % (text.length + 1);
  if (how === 'insert') return text.slice(0, cut) + piece + text.slice(cut);
  if (how === 'delete') return text.slice(0, cut) + text.slice(cut + 1);
  return text.slice(0, cut) + piece + text.slice(cut + 1);
});

describe('isJsonText', () => {
  it('accepts the arguments tool calls carry', () => {
    expect(isJsonText('{"path":"/repo/src/a.ts","limit":200}')).toBe(true);
    expect(isJsonText(' { "a" : [ 1 , -2.5e+3 , "x" , true , null ] , "b" : false } ')).toBe(true);
    expect(isJsonText('{}')).toBe(true);
    expect(isJsonText('{"text":"line\\n\\"quoted\\" \\u00e9 \\/ \\b\\f\\r\\t"}')).toBe(true);
    expect(isJsonText('{"a":{"b":[{"c":1}]}}')).toBe(true);
    expect(isJsonText('[1,2]')).toBe(true);
    expect(isJsonText('"text"')).toBe(true);
    expect(isJsonText('0')).toBe(true);
    // Lone surrogates are strings to JSON.parse.
    expect(isJsonText('{"a":"\ud800"}')).toBe(true);
  });

  it('refuses what JSON.parse refuses', () => {
    for (const text of [
      '',
      ' ',
      '{',
      '{"a":1,}',
      '{"a":01}',
      '{"a":1.}',
      '{"a":.5}',
      '{"a":1e}',
      '{"a":-}',
      '{"a":+1}',
      "{'a':1}",
      '{a:1}',
      '{"a":"\\x41"}',
      '{"a":"\\u00g0"}',
      '{"a":"tab\there"}',
      '{"a":"\u0000"}',
      '{"a":tru}',
      '{"a":NaN}',
      '{"a":[1,]}',
      '{"a":1}}',
      '{"a":1} x',
      '\ufeff{"a":1}',
      '\u00a0{"a":1}',
      '{"a"\u2028:1}',
      '{"a":"b"\f}',
    ]) {
      expect(isJsonText(text), JSON.stringify(text)).toBe(false);
    }
  });

  it('refuses invalid text longer than the matched length, and accepts valid text of any length', () => {
    const long = JSON.stringify({ content: 'x\n'.repeat(100_000) });
    expect(isJsonText(long)).toBe(true);
    expect(isJsonText(`${long.slice(0, -2)}}`)).toBe(false);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(isJsonText(deep)).toBe(parses(deep));
  });

  it('agrees with JSON.parse on JSON text, one-character mutations of it, and random text', () => {
    const texts = fc.oneof(
      fc.json(),
      flat,
      flat.map((text) => text.replace(/,/g, ' ,\n\t').replace(/:/g, '\r: ')),
      mutated,
      fc.array(GRAMMAR, { maxLength: 30 }).map((pieces) => pieces.join('')),
      fc.string({ unit: 'binary', maxLength: 30 }).map((text) => `{"a":"${text}"}`),
    );
    fc.assert(
      fc.property(texts, (text) => {
        expect(isJsonText(text)).toBe(parses(text));
      }),
      propertyRuns(2000),
    );
  });
});
