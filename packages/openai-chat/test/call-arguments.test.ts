// Tool-call arguments sent back in the history must be JSON text. The check skips JSON.parse for
// the usual flat object (isJsonText); these pin that it refuses exactly what JSON.parse refuses,
// with the error JSON.parse's message gives, at every position a call can sit.
import { NOT_JSON_TEXTS, decodeFailure, notJsonTextError } from '@llm/test-utils';
import { propertyRuns } from '@llm/test-utils/property-runs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openaiChat } from '../src/index.js';

const decode = (wire: unknown) => openaiChat.request.decode(wire);

function body(args: string, at: number): unknown {
  const ok = { id: 'ok', type: 'function', function: { name: 'f', arguments: '{"a":1}' } };
  const calls = [ok, ok, ok];
  calls[at] = { id: 'c', type: 'function', function: { name: 'f', arguments: args } };
  return {
    model: 'm',
    messages: [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: 'x', tool_calls: calls },
    ],
  };
}

describe('tool-call arguments in the history', () => {
  it('refuses text JSON.parse refuses, naming the call', () => {
    for (const args of NOT_JSON_TEXTS) {
      for (const at of [0, 2]) {
        const path = `messages[1].tool_calls[${at}].function.arguments`;
        expect(decodeFailure(decode, body(args, at)), args).toEqual(notJsonTextError(args, path));
      }
    }
    const legacy = { model: 'm', messages: [{ role: 'assistant', content: null, function_call: { name: 'f', arguments: '{"a":}' } }] };
    expect(decodeFailure(decode, legacy)).toEqual(notJsonTextError('{"a":}', 'messages[0].function_call.arguments'));
  });

  it('decodes or refuses exactly as JSON.parse does on mutated argument text', () => {
    const scalar = fc.oneof(fc.string({ unit: 'binary', maxLength: 8 }), fc.double(), fc.boolean(), fc.constant(null));
    const flat = fc
      .dictionary(fc.string({ maxLength: 4 }), fc.oneof(scalar, fc.array(scalar, { maxLength: 2 })), { maxKeys: 3 })
      .map((value) => JSON.stringify(value));
    const piece = fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', ' ', '\n', '0', '-', '.', 'e', 'x', '\u0000', '\u00a0');
    const args = fc.tuple(flat, fc.nat(), piece, fc.boolean()).map(([text, at, inserted, replace]) => {
      const cut = at % (text.length + 1);
      return text.slice(0, cut) + inserted + text.slice(replace ? cut + 1 : cut);
    });
    fc.assert(
      fc.property(args, (text) => {
        const error = decodeFailure(decode, body(text, 1));
        expect(error).toEqual(notJsonTextError(text, 'messages[1].tool_calls[1].function.arguments'));
        if (!error) expect(decode(body(text, 1)).messages[1]?.content[2]).toMatchObject({ type: 'tool-call', arguments: text });
      }),
      propertyRuns(300),
    );
  });
});
