// Contents whose decoding leaves marks (no role, role "function", joined messages, unknown
// fields) or fails on a misplaced part: the decoder builds those bags and part paths only when
// needed, and these pin its output (decoded, re-encoded, or the exact error) to what the decoder
// that built them for every content gave (test/content-marks.expected.json, written by it).
import { readFileSync } from 'node:fs';
import { decodeFailure } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

const bodies: unknown[] = [
  {
    contents: [
      { role: 'user', parts: [{ text: 'a' }] },
      { role: 'model', parts: [{ text: 'b' }, { functionResponse: { name: 'f', response: {} } }] },
    ],
  },
  { contents: [{ parts: [{ text: 'a' }], extra: 1 }] },
  { contents: [{ role: 'function', parts: [{ functionResponse: { id: 'x', name: 'f', response: { output: 'o' } } }, { text: 't' }], extra: { a: 1 } }] },
  {
    contents: [
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'f', response: { output: 'o' } } },
          { text: 't' },
          { functionResponse: { name: 'g', response: { error: 'e' } } },
          { text: 'u' },
        ],
        note: null,
      },
    ],
  },
  { contents: [{ role: 'user', parts: [] }] },
  { contents: [{ role: 'user', parts: [], extra: true }] },
  { contents: [{ parts: [{ text: 'x' }, { functionResponse: { name: 'f', response: {} } }] }] },
];

const expected = JSON.parse(readFileSync(new URL('./content-marks.expected.json', import.meta.url), 'utf8')) as unknown[];

describe('content marks and misplaced parts', () => {
  it('decode, re-encode or fail exactly as pinned', () => {
    const results = bodies.map((body) => {
      const error = decodeFailure((wire) => gemini.request.decode(wire), body);
      if (error) return { body, error };
      const decoded = gemini.request.decode(body);
      return { body, decoded, reencoded: gemini.request.encode(decoded) };
    });
    expect(JSON.parse(JSON.stringify(results))).toEqual(expected);
  });
});
