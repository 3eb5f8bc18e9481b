import { LlmError, type LlmStreamEvent, type SseEvent } from '@llm/core';
import { runTransform, thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

const chunk = (payload: unknown): SseEvent => ({ data: typeof payload === 'string' ? payload : JSON.stringify(payload), event: undefined, id: undefined });
const decode = (events: SseEvent[]): Promise<LlmStreamEvent[]> => runTransform(gemini.stream.decode(), events);
const errorOf = (event: LlmStreamEvent | undefined) => (event as Extract<LlmStreamEvent, { type: 'error' }>).error;

describe('upstream answers that do not decode (issue 17)', () => {
  it('a part the decoder cannot read is an upstream error naming the path, not a 400', async () => {
    const events = await decode([chunk({ candidates: [{ content: { parts: [{ text: 5 }] } }] })]);
    expect(events.map((event) => event.type)).toEqual(['start', 'error']);
    expect(errorOf(events[1]).toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'invalid Gemini stream chunk at candidates[].content.parts[0].text',
      path: 'candidates[].content.parts[0].text',
      protocol: 'gemini',
    });
  });
});

describe('response.decode: a body that is not a Gemini answer is an upstream error (issue 17)', () => {
  it.each<[string, unknown, string]>([
    ['an unexpected object', { unexpected: true }, 'candidates'],
    ['null', null, '$'],
    ['an array', [], '$'],
    ['a string', 'upstream said hello', '$'],
  ])('%s', (_label, body, path) => {
    const error = thrown(() => gemini.response.decode(body));
    expect(LlmError.isInstance(error)).toBe(true);
    const where = path === '$' ? '' : ` at ${path}`;
    expect((error as LlmError).toJSON()).toEqual({ kind: 'upstream', status: 502, message: `invalid Gemini answer${where}`, path, protocol: 'gemini' });
  });
});

describe('stream.decode: an event nested deeper than MAX_JSON_DEPTH ends the stream (issue 17)', () => {
  it('5,000 levels: an upstream error naming the path, no stack overflow', async () => {
    const events = await decode([chunk(`{"candidates":[],"x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`)]);
    expect(events).toHaveLength(1);
    const path = 'x[0][0][0][0][0][0][0]…[0][0]';
    expect((events[0] as Extract<LlmStreamEvent, { type: 'error' }>).error.toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: `invalid Gemini stream chunk at ${path}`,
      path,
      protocol: 'gemini',
    });
  });
});

describe('stream.decode: Vertex partialArgs nested past MAX_JSON_DEPTH (issue 17)', () => {
  it('ends the stream with an upstream error instead of building the arguments that deep', async () => {
    const jsonPath = `$${'.a'.repeat(5_000)}`;
    const call = { name: 'f', partialArgs: [{ jsonPath, stringValue: 'x', willContinue: true }], willContinue: true };
    const events = await decode([chunk({ candidates: [{ content: { role: 'model', parts: [{ functionCall: call }] }, index: 0 }] })]);
    expect(events.map((event) => event.type)).toEqual(['start', 'block-start', 'error']);
    expect(errorOf(events[2]).toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'invalid Gemini stream chunk at functionCall.partialArgs',
      path: 'functionCall.partialArgs',
      protocol: 'gemini',
    });
  });

  it('an array index past the end ends the stream too (a sparse array would serialise to a billion nulls)', async () => {
    const call = { name: 'f', partialArgs: [{ jsonPath: '$.list[1000000000]', stringValue: 'x', willContinue: true }], willContinue: true };
    const events = await decode([chunk({ candidates: [{ content: { role: 'model', parts: [{ functionCall: call }] }, index: 0 }] })]);
    expect(events.map((event) => event.type)).toEqual(['start', 'block-start', 'error']);
    expect(errorOf(events[2]).path).toBe('functionCall.partialArgs');
  });
});

describe('response.answerFault: the top-level markers every Gemini answer has (issue 17)', () => {
  it.each<[string, unknown, string | undefined]>([
    ['an answer with fields no codec knows', { candidates: [{ content: { role: 'model', parts: [{ text: 'hi' }] } }], brand_new: { x: 1 } }, undefined],
    ['a blocked prompt without candidates', { promptFeedback: { blockReason: 'SAFETY' } }, undefined],
    ['an unexpected object', { unexpected: true }, 'candidates'],
    ['an empty candidates list', { candidates: [] }, 'candidates'],
    ['an empty candidates list beside a blockReason (the decoder refuses it too)', { candidates: [], promptFeedback: { blockReason: 'SAFETY' } }, 'candidates'],
    ['candidates null', { candidates: null, promptFeedback: { blockReason: 'SAFETY' } }, 'candidates'],
    ['promptFeedback without blockReason', { promptFeedback: {} }, 'candidates'],
    ['null', null, '$'],
    ['an array', [], '$'],
  ])('%s -> %s', (_label, body, fault) => {
    expect(gemini.response.answerFault(body)).toBe(fault);
    // What the check refuses never decodes either: the passed-through and decoded paths agree.
    if (fault !== undefined) expect(thrown(() => gemini.response.decode(body))).toMatchObject({ kind: 'upstream', status: 502, protocol: 'gemini' });
  });
});
