import fc from 'fast-check';
import { propertyRuns } from '@llm/test-utils/property-runs';
import { describe, expect, it } from 'vitest';
import { jsonString } from './json-string.js';

describe('jsonString', () => {
  it('quotes plain text and escapes what JSON.stringify escapes', () => {
    const cases: Array<[unknown, string | undefined]> = [
      ['token1 of a fixed answer, ', '"token1 of a fixed answer, "'],
      ['', '""'],
      ['a"b\\c\nd\u0000\u001f\u007f', '"a\\"b\\\\c\\nd\\u0000\\u001f\u007f"'],
      ['\u2028\u2029 é /', '"\u2028\u2029 é /"'],
      ['\ud800 lone \udfff', '"\\ud800 lone \\udfff"'],
      ['pair 😀', '"pair 😀"'],
      // A caller's value that is not a string is written as JSON.stringify writes it, unquoted.
      [5, '5'],
      [undefined, undefined],
    ];
    for (const [value, expected] of cases) expect(jsonString(value as string)).toBe(expected);
  });

  it('gives the text JSON.stringify gives (property)', () => {
    const hostile = fc.constantFrom('"', '\\', '\n', '\r', '\t', '\u0000', '\u001f', '\u007f', '\u2028', '\ud800', '\udc00', '\ud83d\ude00', 'é', '/');
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.array(fc.oneof(hostile, fc.string()), { maxLength: 8 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(text, (value) => {
        expect(jsonString(value)).toBe(JSON.stringify(value));
      }),
      propertyRuns(500),
    );
  });
});
