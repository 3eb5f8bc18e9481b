import { LlmError, type LlmStreamEvent, type SseEvent } from '@llm/core';
import { runTransform, thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiChat } from '../src/index.js';

const data = (payload: unknown): SseEvent => ({ data: typeof payload === 'string' ? payload : JSON.stringify(payload), event: undefined, id: undefined });
const decode = (events: SseEvent[]): Promise<LlmStreamEvent[]> => runTransform(openaiChat.stream.decode(), events);

describe('upstream answers that do not decode (issue 17)', () => {
  it('a stream chunk that is not JSON ends the stream with a stable upstream error, the parser message kept as cause', async () => {
    const events = await decode([data('{"choices": [')]);
    expect(events).toHaveLength(1);
    const error = (events[0] as Extract<LlmStreamEvent, { type: 'error' }>).error;
    expect(error.toJSON()).toEqual({ kind: 'upstream', status: 502, message: 'invalid Chat Completions stream chunk', protocol: 'openai-chat' });
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('a usage object the decoder cannot read is an upstream error naming the path, not a 400', async () => {
    const events = await decode([data({ id: 'c', choices: [], usage: { prompt_tokens: 'many' } })]);
    expect(events.at(-1)).toMatchObject({ type: 'error' });
    const error = (events.at(-1) as Extract<LlmStreamEvent, { type: 'error' }>).error;
    expect(error.toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'invalid Chat Completions stream chunk at usage.prompt_tokens',
      path: 'usage.prompt_tokens',
      protocol: 'openai-chat',
    });
  });
});

describe('response.decode: a body that is not a Chat Completions answer is an upstream error (issue 17)', () => {
  it.each<[string, unknown, string]>([
    ['an unexpected object', { unexpected: true }, 'choices'],
    ['null', null, '$'],
    ['an array', [], '$'],
    ['a string', 'upstream said hello', '$'],
  ])('%s', (_label, body, path) => {
    const error = thrown(() => openaiChat.response.decode(body));
    expect(LlmError.isInstance(error)).toBe(true);
    const where = path === '$' ? '' : ` at ${path}`;
    expect((error as LlmError).toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: `invalid Chat Completions answer${where}`,
      path,
      protocol: 'openai-chat',
    });
  });
});

describe('stream.decode: a chunk that is not a Chat Completions chunk ends the stream (issue 17)', () => {
  it.each<[string, unknown, string]>([
    ['an object without choices', { unexpected: true }, 'choices'],
    ['a choice that is not an object', { id: 'c', choices: ['x'] }, 'choices[0]'],
  ])('%s', async (_label, payload, path) => {
    const events = await decode([data({ id: 'c', choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] }), data(payload)]);
    expect(events.map((event) => event.type)).toEqual(['start', 'block-start', 'text-delta', 'error']);
    expect((events[3] as Extract<LlmStreamEvent, { type: 'error' }>).error.toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: `invalid Chat Completions stream chunk at ${path}`,
      path,
      protocol: 'openai-chat',
    });
  });

  it.each<[string, string]>([
    ['a JSON number', '5'],
    ['JSON null', 'null'],
    ['a JSON string', '"sk-secret upstream text"'],
  ])('a chunk that is %s: the shared stable error, no raw upstream value on it', async (_label, text) => {
    const events = await decode([data(text)]);
    expect(events).toHaveLength(1);
    const error = (events[0] as Extract<LlmStreamEvent, { type: 'error' }>).error;
    expect(error.toJSON()).toEqual({ kind: 'upstream', status: 502, message: 'invalid Chat Completions stream chunk', protocol: 'openai-chat' });
    expect(error.raw).toBeUndefined();
  });

  it('the usage-only chunk without a choices list is still read', async () => {
    const events = await decode([
      data({ id: 'c', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
      data({ id: 'c', usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }),
    ]);
    expect(events.map((event) => event.type)).toEqual(['start', 'usage', 'finish']);
  });
});

describe('stream.decode: an event nested deeper than MAX_JSON_DEPTH ends the stream (issue 17)', () => {
  it('5,000 levels: an upstream error naming the path, no stack overflow', async () => {
    const events = await decode([data(`{"choices":[],"x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`)]);
    expect(events).toHaveLength(1);
    const path = 'x[0][0][0][0][0][0][0]…[0][0]';
    expect((events[0] as Extract<LlmStreamEvent, { type: 'error' }>).error.toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: `invalid Chat Completions stream chunk at ${path}`,
      path,
      protocol: 'openai-chat',
    });
  });
});

describe('response.answerFault: the top-level markers every Chat Completions answer has (issue 17)', () => {
  it.each<[string, unknown, string | undefined]>([
    ['an answer with fields no codec knows', { id: 'c1', model: 'm', choices: [], brand_new: { x: 1 } }, undefined],
    ['an unexpected object', { unexpected: true }, 'choices'],
    ['choices an object', { id: 'c1', model: 'm', choices: {} }, 'choices'],
    ['null', null, '$'],
    ['an array', [], '$'],
    ['a string', 'upstream said hello', '$'],
  ])('%s -> %s', (_label, body, fault) => {
    expect(openaiChat.response.answerFault(body)).toBe(fault);
    // What the check refuses never decodes either: the passed-through and decoded paths agree.
    if (fault !== undefined) expect(thrown(() => openaiChat.response.decode(body))).toMatchObject({ kind: 'upstream', status: 502, protocol: 'openai-chat' });
  });
});
