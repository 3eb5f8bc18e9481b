// Tool calls of every shape a history can hold, next to well-formed ones: the decoder reads the
// usual function call on a fast path, and these pin what it gives for everything else (decoded
// message and re-encoded wire, or the exact error), as the decoder that checked every field on its
// joined path gave (test/tool-call-shapes.expected.json, written by that decoder).
import { readFileSync } from 'node:fs';
import { decodeFailure } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiChat } from '../src/index.js';

const shapes: unknown[] = [
  null,
  3,
  'call',
  [],
  [{ id: 'c' }],
  {},
  { id: 'c' },
  { id: 'c', type: 'function' },
  { id: 'c', type: 'function', function: null },
  { id: 'c', type: 'function', function: [] },
  { id: 'c', type: 'function', function: 'f' },
  { id: 1, type: 'function', function: { name: 'f', arguments: '{}' } },
  { type: 'function', function: { name: 'f', arguments: '{}' } },
  { id: 'c', type: 'function', function: { arguments: '{}' } },
  { id: 'c', type: 'function', function: { name: 2, arguments: '{}' } },
  { id: 'c', type: 'function', function: { name: 'f' } },
  { id: 'c', type: 'function', function: { name: 'f', arguments: {} } },
  { id: 'c', type: 'function', function: { name: 'f', arguments: null } },
  { id: 'c', type: 'Function', function: { name: 'f', arguments: '{}' } },
  { id: 'c', type: null, function: { name: 'f', arguments: '{}' } },
  { id: 'c', function: { name: 'f', arguments: '{}' } },
  { id: 'c', type: 'custom', custom: { name: 'f', input: 'x' } },
  { id: 'c', type: 'custom', function: { name: 'f', arguments: '{}' } },
  { id: 'c', type: 'function', function: { name: 'f', arguments: '{}', strict: true }, index: 0, extra: null },
  { id: 'c', type: 'function', function: { name: 'f', arguments: '' } },
];

const expected = JSON.parse(readFileSync(new URL('./tool-call-shapes.expected.json', import.meta.url), 'utf8')) as unknown[];

describe('tool calls of odd shapes', () => {
  it('decode, re-encode or fail exactly as pinned', () => {
    const results = shapes.map((shape) => {
      const wire = {
        model: 'm',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'ok', type: 'function', function: { name: 'g', arguments: '{}' } }, shape] },
        ],
      };
      const error = decodeFailure((body) => openaiChat.request.decode(body), wire);
      if (error) return { shape, error };
      const decoded = openaiChat.request.decode(wire);
      return { shape, decoded: decoded.messages[1], reencoded: openaiChat.request.encode(decoded).messages[1] };
    });
    expect(JSON.parse(JSON.stringify(results))).toEqual(expected);
  });
});
