// function_call and function_call_output items of every shape: well-formed ones are read directly
// (no path joined), the rest through the checked readers. These pin the decoded request, its
// re-encoding, or the exact error, and the call items the encoder writes for qualified names, to
// what the codec that read every item through the checked readers gave
// (call-item-shapes.expected.json, written by it).
import { readFileSync } from 'node:fs';
import type { LlmRequest } from '@llm/core';
import { decodeFailure } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';
import { CALL_ITEM_BODIES, CALL_NAME_REQUEST } from './call-item-shapes.cases.js';

const expected = JSON.parse(readFileSync(new URL('./call-item-shapes.expected.json', import.meta.url), 'utf8')) as {
  decoded: unknown[];
  encoded: unknown;
};

describe('call item shapes', () => {
  it('decode, re-encode or fail exactly as pinned', () => {
    const decoded = CALL_ITEM_BODIES.map((body) => {
      const error = decodeFailure((wire) => openaiResponses.request.decode(wire), body);
      if (error) return { error };
      const request = openaiResponses.request.decode(body);
      return { request, reencoded: openaiResponses.request.encode(request) };
    });
    expect(JSON.parse(JSON.stringify(decoded))).toEqual(expected.decoded);
  });

  it('fails a well-formed call with arguments that are not JSON at its own item', () => {
    const body = {
      model: 'm',
      input: [
        { role: 'user', content: 'x' },
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
        { type: 'function_call', call_id: 'd', name: 'f', arguments: '{"a":' },
      ],
    };
    expect(decodeFailure((wire) => openaiResponses.request.decode(wire), body)?.path).toBe('input[2].arguments');
  });

  it('writes qualified call names as namespace and name, as pinned', () => {
    const encoded = openaiResponses.request.encode(CALL_NAME_REQUEST as LlmRequest);
    expect(encoded).toEqual(expected.encoded);
    expect(JSON.stringify((encoded.input as unknown[])[1])).toBe('{"type":"function_call","call_id":"a","name":"f","namespace":"ns","arguments":"{}"}');
  });
});
