import { thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import type { LlmError } from './errors.js';
import { toolArgumentsObject } from './content.js';
import { MAX_JSON_DEPTH, checkParsedDepth, checkJsonDepth, parseJson } from './json-depth.js';

const arrays = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number, key = 'a'): string => `${`{"${key}":`.repeat(depth)}1${'}'.repeat(depth)}`;

const thrownBy = (run: () => unknown): LlmError => thrown(run) as LlmError;

describe('parseJson', () => {
  it('reads JSON up to MAX_JSON_DEPTH (128) levels', () => {
    expect(MAX_JSON_DEPTH).toBe(128);
    expect(parseJson(arrays(128))).toHaveLength(1);
    expect(parseJson('{"messages":[{"role":"user","content":"hi"}]}')).toEqual({ messages: [{ role: 'user', content: 'hi' }] });
    expect(parseJson('"text"')).toBe('text');
  });

  it('refuses 129 levels with a 400 naming where the limit was crossed', () => {
    const error = thrownBy(() => parseJson(`{"messages":[{"content":${arrays(127)}}]}`, { protocol: 'claude' }));
    expect(error.toJSON()).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: 'messages[0].content[0][0][0][0][0]…[0][0]: JSON nested deeper than 128 levels',
      path: 'messages[0].content[0][0][0][0][0]…[0][0]',
      protocol: 'claude',
    });
  });

  it.each([5_000, 100_000])('refuses %i levels (arrays and objects) without a stack overflow', (depth) => {
    expect(thrownBy(() => parseJson(arrays(depth))).path).toBe('[0][0][0][0][0][0][0][0]…[0][0]');
    const error = thrownBy(() => parseJson(objects(depth)));
    expect(error.path).toBe('a.a.a.a.a.a.a.a….a.a');
    expect(error.message).toBe('a.a.a.a.a.a.a.a….a.a: JSON nested deeper than 128 levels');
  });

  it('prints a short path whole, and the root as $', () => {
    expect(thrownBy(() => parseJson(objects(3, 'x y'), { maxDepth: 2 })).path).toBe('["x y"]["x y"]');
    expect(thrownBy(() => parseJson('[[]]', { maxDepth: 0 })).path).toBe('$');
  });

  it('refuses text that is not JSON with a stable message, the parser message kept as cause', () => {
    const error = thrownBy(() => parseJson('{"key": secret-value'));
    expect(error.toJSON()).toEqual({ kind: 'invalid_request', status: 400, message: 'invalid JSON', path: '$' });
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });
});

describe('checkJsonDepth', () => {
  it('checks values built in code (a library caller’s request), and only containers count', () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 5_000; level++) deep = { properties: { a: deep } };
    expect(thrownBy(() => checkJsonDepth({ tools: [{ parameters: deep }] })).path).toBe(
      'tools[0].parameters.properties.a.properties.a.properties….a.properties',
    );
    expect(() => checkJsonDepth('plain')).not.toThrow();
    expect(() => checkJsonDepth({ a: [1, 'x', null, { b: true }] }, { maxDepth: 3 })).not.toThrow();
    expect(() => checkJsonDepth({ a: [1, 'x', null, { b: [] }] }, { maxDepth: 3 })).toThrow(/JSON nested deeper than 3 levels/);
  });

  it('puts the value’s own path first', () => {
    expect(thrownBy(() => checkJsonDepth({ a: { b: {} } }, { maxDepth: 2, path: 'tools[3].parameters' })).path).toBe('tools[3].parameters.a.b');
  });

  it('does not walk a body already checked, and walks it again for a stricter limit', () => {
    const body = parseJson(`{"a":${arrays(100)}}`) as Record<string, unknown>;
    expect(() => checkJsonDepth(body)).not.toThrow();
    expect(() => checkJsonDepth(body, { maxDepth: 50 })).toThrow(/JSON nested deeper than 50 levels/);
    // Remembered: a value that passed is not walked again (deepening it afterwards goes unseen).
    const checked: Record<string, unknown> = { a: [] };
    checkJsonDepth(checked);
    checked.a = JSON.parse(arrays(200));
    expect(() => checkJsonDepth(checked)).not.toThrow();
    expect(() => checkJsonDepth({ a: checked.a })).toThrow(/JSON nested deeper than 128 levels/);
  });
});

describe('toolArgumentsObject', () => {
  it('gives undefined for argument text nested past MAX_JSON_DEPTH, as for broken JSON', () => {
    expect(toolArgumentsObject(`{"a":${arrays(126)}}`)).toEqual({ a: JSON.parse(arrays(126)) });
    expect(toolArgumentsObject(`{"a":${arrays(100_000)}}`)).toBeUndefined();
  });
});

describe('checkParsedDepth', () => {
  const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('refuses an event nested past the limit, naming the path', () => {
    const text = nested(MAX_JSON_DEPTH + 1);
    expect(() => checkParsedDepth(text, JSON.parse(text))).toThrow(
      expect.objectContaining({ kind: 'invalid_request', message: expect.stringMatching(/JSON nested deeper than 128 levels$/) }),
    );
  });

  it('accepts the limit itself, and skips the walk for text too short to cross it', () => {
    const text = nested(MAX_JSON_DEPTH);
    expect(() => checkParsedDepth(text, JSON.parse(text))).not.toThrow();
    // 2 x 128 characters can hold 128 levels at most: the value is not walked at all.
    const walked = new Proxy([], {
      ownKeys: () => {
        throw new Error('walked');
      },
      get: () => {
        throw new Error('walked');
      },
    });
    expect(() => checkParsedDepth('x'.repeat(2 * MAX_JSON_DEPTH), walked)).not.toThrow();
  });

  it('does not remember the events it checked', () => {
    const text = `{"pad":"${'x'.repeat(300)}","deep":${nested(3)}}`;
    const value = JSON.parse(text) as { deep: unknown[] };
    checkParsedDepth(text, value);
    // Deepened after its check: a remembered value would pass without a walk.
    let inner: unknown[] = value.deep;
    for (let level = 0; level < MAX_JSON_DEPTH; level++) {
      const next: unknown[] = [];
      inner.push(next);
      inner = next;
    }
    expect(() => checkJsonDepth(value)).toThrow(expect.objectContaining({ kind: 'invalid_request' }));
  });
});
