// function_call arguments sent back in the input must be JSON text. The check skips JSON.parse for
// the usual flat object (isJsonText); this pins that it refuses exactly what JSON.parse refuses,
// with the error JSON.parse's message gives.
import { NOT_JSON_TEXTS, decodeFailure, notJsonTextError } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

const VALID = ['{"a":1}', ' { "path" : "/x" , "n" : [1, -2.5e3, null] } ', '{"a":{"b":[{}]}}', '[]', '"text"', '3'];

function body(args: string): unknown {
  return {
    model: 'm',
    input: [
      { role: 'user', content: 'x' },
      { type: 'function_call', call_id: 'ok', name: 'f', arguments: '{"a":1}' },
      { type: 'function_call', call_id: 'c', name: 'f', arguments: args },
    ],
  };
}

describe('function_call arguments in the input', () => {
  it('keeps JSON text as sent', () => {
    for (const args of VALID) {
      const decoded = openaiResponses.request.decode(body(args));
      expect(decoded.messages[1]?.content[1]).toMatchObject({ type: 'tool-call', id: 'c', arguments: args });
    }
  });

  it('refuses text JSON.parse refuses, with its message, at the item', () => {
    for (const args of NOT_JSON_TEXTS) {
      const failure = decodeFailure((wire) => openaiResponses.request.decode(wire), body(args));
      expect(failure, args).toEqual(notJsonTextError(args, 'input[2].arguments'));
    }
  });
});
