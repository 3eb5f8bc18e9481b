import fc from 'fast-check';
import { propertyRuns } from '@llm/test-utils/property-runs';
import { describe, expect, it } from 'vitest';
import { LlmError } from './errors.js';
import {
  describe as describeValue,
  contentPartPath,
  joinPath,
  parseJsonAt,
  readArray,
  readEnum,
  readObject,
  readOptionalBoolean,
  readOptionalInteger,
  readOptionalNumber,
  readOptionalString,
  readString,
} from './validate.js';

function thrown(fn: () => unknown): LlmError {
  try {
    fn();
  } catch (error) {
    if (LlmError.isInstance(error)) return error;
    throw new Error(`expected an LlmError, got ${String(error)}`);
  }
  throw new Error('expected a throw');
}

describe('contentPartPath', () => {
  it('names part index of a message content', () => {
    expect(contentPartPath('messages[2]', 1)).toBe('messages[2].content[1]');
    expect(contentPartPath('', 0)).toBe('content[0]');
  });
});

describe('joinPath', () => {
  it('joins keys and indexes as a JSON path', () => {
    expect(joinPath('', 'messages')).toBe('messages');
    expect(joinPath('messages', 2)).toBe('messages[2]');
    expect(joinPath('messages[2]', 'content')).toBe('messages[2].content');
    expect(joinPath('metadata', 'user-id')).toBe('metadata["user-id"]');
    expect(joinPath('', undefined)).toBe('$');
    expect(joinPath('tools[0]', undefined)).toBe('tools[0]');
    expect(joinPath('a', '_x9$')).toBe('a._x9$');
    expect(joinPath('a', '9x')).toBe('a["9x"]');
    expect(joinPath('a', '')).toBe('a[""]');
    expect(joinPath('a', 'é')).toBe('a["é"]');
  });

  it('writes a key with a dot exactly when it is an identifier of ASCII letters, digits, _ and $', () => {
    const keys = fc.oneof(fc.string({ maxLength: 6 }), fc.stringMatching(/^[A-Za-z_$][\w$]{0,5}$/), fc.constantFrom('9', 'a-b', 'a b', 'ß', '$', '_'));
    fc.assert(
      fc.property(fc.constantFrom('', 'p', 'p[0]'), keys, (parent, key) => {
        const plain = /^[A-Za-z_$][\w$]*$/.test(key);
        const expected = plain ? (parent ? `${parent}.${key}` : key) : `${parent}[${JSON.stringify(key)}]`;
        expect(joinPath(parent, key)).toBe(expected);
      }),
      propertyRuns(1000),
    );
  });
});

describe('describe', () => {
  it('names values briefly', () => {
    expect(describeValue(null)).toBe('null');
    expect(describeValue([1])).toBe('an array');
    expect(describeValue({})).toBe('an object');
    expect(describeValue('tool')).toBe('"tool"');
    expect(describeValue('x'.repeat(41))).toBe('a string');
    expect(describeValue(3)).toBe('3');
    expect(describeValue(true)).toBe('true');
    expect(describeValue(undefined)).toBe('nothing');
  });
});

describe('readers', () => {
  const body = { name: 'a', count: 2, ratio: 0.5, flag: true, role: 'user', list: [1], nested: {}, nothing: null };

  it('return valid values unchanged', () => {
    expect(readObject(body, '')).toBe(body);
    expect(readArray(body.list, 'list')).toBe(body.list);
    expect(readString(body, 'name', '')).toBe('a');
    expect(readOptionalString(body, 'name', '')).toBe('a');
    expect(readOptionalString(body, 'missing', '')).toBeUndefined();
    expect(readOptionalString(body, 'nothing', '')).toBeUndefined();
    expect(readOptionalNumber(body, 'ratio', '')).toBe(0.5);
    expect(readOptionalInteger(body, 'count', '')).toBe(2);
    expect(readOptionalBoolean(body, 'flag', '')).toBe(true);
    expect(readEnum(body, 'role', ['user', 'assistant'], '')).toBe('user');
  });

  it('throw invalid_request naming the path, what was expected and what was found', () => {
    const error = thrown(() => readEnum({ role: 'tool' }, 'role', ['user', 'assistant'], 'messages[1]', 'claude'));
    expect(error.kind).toBe('invalid_request');
    expect(error.path).toBe('messages[1].role');
    expect(error.protocol).toBe('claude');
    expect(error.message).toBe('messages[1].role: expected "user" or "assistant", got "tool"');

    expect(thrown(() => readObject([], 'messages', 0)).message).toBe('messages[0]: expected an object, got an array');
    expect(thrown(() => readObject(null, '')).message).toBe('$: expected an object, got null');
    expect(thrown(() => readArray('x', '', 'messages')).message).toBe('messages: expected an array, got "x"');
    expect(thrown(() => readString({}, 'model', '')).message).toBe('model: expected a string, got nothing');
    expect(thrown(() => readOptionalString({ id: 4 }, 'id', 'tools[0]')).path).toBe('tools[0].id');
    expect(thrown(() => readOptionalNumber({ t: 'hot' }, 't', '')).message).toBe('t: expected a number, got "hot"');
    expect(thrown(() => readOptionalNumber({ t: Number.NaN }, 't', '')).path).toBe('t');
    expect(thrown(() => readOptionalInteger({ n: 1.5 }, 'n', '')).message).toBe('n: expected a non-negative integer, got 1.5');
    expect(thrown(() => readOptionalInteger({ n: -1 }, 'n', '')).path).toBe('n');
    expect(thrown(() => readOptionalBoolean({ s: 'true' }, 's', '')).message).toBe('s: expected a boolean, got "true"');
  });

  it('parses JSON text or says where it is not JSON', () => {
    expect(parseJsonAt('{"a":1}', 'x')).toEqual({ a: 1 });
    const error = thrown(() => parseJsonAt('{"a":', 'messages[1].tool_calls[0].function.arguments', 'openai-chat'));
    expect(error.kind).toBe('invalid_request');
    expect(error.path).toBe('messages[1].tool_calls[0].function.arguments');
    expect(error.message.startsWith('messages[1].tool_calls[0].function.arguments: expected JSON text, got "{"a":"')).toBe(true);
  });
});
