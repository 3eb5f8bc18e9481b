import { describe, expect, it } from 'vitest';
import { LlmError } from '../errors.js';
import { wireReader } from './wire-reader.js';

const read = wireReader('claude');

function failure(run: () => unknown): { message: string; path?: string; protocol?: string; kind: string; status: number } {
  try {
    run();
  } catch (error) {
    if (!LlmError.isInstance(error)) throw error;
    return { message: error.message, path: error.path, protocol: error.protocol, kind: error.kind, status: error.status };
  }
  throw new Error('expected a throw');
}

describe('wireReader', () => {
  const wire = {
    model: 'm',
    messages: [{ role: 'user' }, 'text'],
    max_tokens: 10,
    temperature: 0.5,
    stream: true,
    metadata: null,
    tool_choice: { type: 'auto' },
    args: '{"a":1}',
  };

  it('returns the value on the happy path, undefined for absent or null optionals', () => {
    expect(read.body(wire)).toBe(wire);
    expect(read.string(wire, 'model', '')).toBe('m');
    expect(read.array(wire, 'messages', '')).toBe(wire.messages);
    expect(read.object(wire.messages, 0, 'messages')).toBe(wire.messages[0]);
    expect(read.object(wire, 'tool_choice', '')).toBe(wire.tool_choice);
    expect(read.optionalObject(wire, 'metadata', '')).toBeUndefined();
    expect(read.optionalArray(wire, 'absent', '')).toBeUndefined();
    expect(read.optionalString(wire, 'absent', '')).toBeUndefined();
    expect(read.optionalInteger(wire, 'max_tokens', '')).toBe(10);
    expect(read.optionalNumber(wire, 'temperature', '')).toBe(0.5);
    expect(read.optionalBoolean(wire, 'stream', '')).toBe(true);
    expect(read.oneOf(wire.tool_choice, 'type', 'tool_choice', ['auto', 'any'])).toBe('auto');
    expect(read.json(wire, 'args', '')).toEqual({ a: 1 });
  });

  it('names the path, the value and the protocol of what is wrong', () => {
    expect(failure(() => read.body([]))).toEqual({
      message: '$: expected an object, got an array',
      path: '$',
      protocol: 'claude',
      kind: 'invalid_request',
      status: 400,
    });
    expect(failure(() => read.object(wire.messages, 1, 'messages'))).toMatchObject({
      message: 'messages[1]: expected an object, got "text"',
      path: 'messages[1]',
      protocol: 'claude',
    });
    expect(failure(() => read.string(wire.messages[0] as Record<string, unknown>, 'content', 'messages[0]')).message).toBe(
      'messages[0].content: expected a string, got nothing',
    );
    expect(failure(() => read.array(wire, 'model', '')).message).toBe('model: expected an array, got "m"');
    expect(failure(() => read.optionalInteger(wire, 'temperature', '')).message).toBe('temperature: expected a non-negative integer, got 0.5');
    expect(failure(() => read.optionalNumber({ t: Number.NaN }, 't', 'x')).message).toBe('x.t: expected a number, got NaN');
    expect(failure(() => read.optionalBoolean(wire, 'model', '')).message).toBe('model: expected a boolean, got "m"');
    expect(failure(() => read.oneOf(wire.tool_choice, 'type', 'tool_choice', ['any', 'tool'])).message).toBe(
      'tool_choice.type: expected "any" or "tool", got "auto"',
    );
    expect(failure(() => read.invalid(wire, 'stream', '', 'a string')).message).toBe('stream: expected a string, got true');
    expect(failure(() => read.json({ a: '{x' }, 'a', 'tool_use')).message).toMatch(/^tool_use\.a: expected JSON text, got "\{x" \(/);
    expect(failure(() => read.json({ a: 3 }, 'a', '')).message).toBe('a: expected JSON text, got 3');
    expect(failure(() => read.string({ 'odd key': 1 }, 'odd key', 'tools[0]')).path).toBe('tools[0]["odd key"]');
  });

  it('checks JSON text as json() does, with the same error for anything it refuses', () => {
    expect(read.jsonText({ a: '{"path":"x","limit":2}' }, 'a', 'p')).toBeUndefined();
    expect(read.jsonText({ a: '{"nested":{"deep":[{"x":1}]}}' }, 'a', 'p')).toBeUndefined();
    const texts: unknown[] = ['{x', '{"a":1,}', '{"a":"\u0001"}', '{"a":01}', '', ' ', 3, null, undefined, {}, ['{}'], `${'['.repeat(5000)}`];
    for (const value of texts) {
      const holder = { arguments: value };
      const expected = failure(() => read.json(holder, 'arguments', 'input[3]'));
      expect(failure(() => read.jsonText(holder, 'arguments', 'input[3]'))).toEqual(expected);
    }
  });
});
