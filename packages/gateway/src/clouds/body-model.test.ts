import { describe, expect, it } from 'vitest';
import { bodyBytes, readModel, swapModel } from './body-model.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const VERSION = { anthropic_version: 'vertex-2023-10-16' };

describe('body model', () => {
  it('swaps a leading model for the given fields on the bytes', () => {
    const swapped = swapModel(bodyBytes('{"model":"claude-x","max_tokens":5,"stream":true}'), VERSION);
    expect(swapped.model).toBe('claude-x');
    expect(text(swapped.body)).toBe('{"anthropic_version":"vertex-2023-10-16","max_tokens":5,"stream":true}');
  });

  it('swaps a body that holds only the model', () => {
    expect(text(swapModel(bodyBytes('{"model":"m"}'), VERSION).body)).toBe('{"anthropic_version":"vertex-2023-10-16"}');
  });

  it('parses a body whose model is not first, or is escaped', () => {
    const later = swapModel(bodyBytes('{"max_tokens":5,"model":"claude-x","messages":[]}'), VERSION);
    expect(later.model).toBe('claude-x');
    expect(JSON.parse(text(later.body))).toEqual({ anthropic_version: 'vertex-2023-10-16', max_tokens: 5, messages: [] });
    expect(Object.keys(JSON.parse(text(later.body)))[0]).toBe('anthropic_version');
    const escaped = swapModel(bodyBytes('{"model":"a\\"b","x":1}'), VERSION);
    expect(escaped.model).toBe('a"b');
    expect(JSON.parse(text(escaped.body))).toEqual({ anthropic_version: 'vertex-2023-10-16', x: 1 });
  });

  it('reads the model without changing the body', () => {
    expect(readModel(bodyBytes('{"model":"gpt-4.1","messages":[]}'))).toBe('gpt-4.1');
    expect(readModel(bodyBytes('{"messages":[],"model":"my-deployment"}'))).toBe('my-deployment');
  });

  it('refuses a body without a model or that is not an object', () => {
    expect(() => readModel(bodyBytes('{"messages":[]}'))).toThrow('the request body names no model');
    expect(() => readModel(bodyBytes('[1]'))).toThrow('the request body is not a JSON object');
    expect(() => swapModel(bodyBytes('{"model":'), VERSION)).toThrow(SyntaxError);
  });
});
