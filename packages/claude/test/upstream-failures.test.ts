import { LlmError, type LlmStreamEvent, type SseEvent } from '@llm/core';
import { runTransform, thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';

const sse = (payload: Record<string, unknown>): SseEvent => ({ event: payload.type as string, data: JSON.stringify(payload), id: undefined });
const decode = (events: SseEvent[]): Promise<LlmStreamEvent[]> => runTransform(claude.stream.decode(), events);
const errorOf = (event: LlmStreamEvent | undefined) => (event as Extract<LlmStreamEvent, { type: 'error' }>).error;

describe('upstream answers that do not decode (issue 17)', () => {
  it('a server-tool input that is not JSON is a stable upstream error, the SyntaxError kept as cause', async () => {
    const events = await decode([
      sse({ type: 'message_start', message: { id: 'msg_1', content: [] } }),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: {} } }),
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query": ' } }),
      sse({ type: 'content_block_stop', index: 0 }),
    ]);
    expect(events.map((event) => event.type)).toEqual(['start', 'error']);
    const error = errorOf(events[1]);
    expect(error.toJSON()).toEqual({ kind: 'upstream', status: 502, message: 'invalid Claude stream event', protocol: 'claude' });
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('a citation the decoder cannot read is an upstream error naming the path, not a 400', async () => {
    const events = await decode([
      sse({ type: 'message_start', message: { id: 'msg_1', content: [] } }),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation: 'not an object' } }),
    ]);
    expect(errorOf(events.at(-1)).toJSON()).toMatchObject({ kind: 'upstream', status: 502, protocol: 'claude' });
    // The path names the delta's field (it said `delta[0]` before the kit's readers).
    expect(errorOf(events.at(-1)).message).toBe('invalid Claude stream event at delta.citation');
    expect(errorOf(events.at(-1)).path).toBe('delta.citation');
  });
});

describe('response.decode: a body that is not a Claude answer is an upstream error (issue 17)', () => {
  it.each<[string, unknown, string]>([
    ['an unexpected object', { unexpected: true }, 'content'],
    ['null', null, '$'],
    ['an array', [], '$'],
    ['a string', 'upstream said hello', '$'],
  ])('%s', (_label, body, path) => {
    const error = thrown(() => claude.response.decode(body));
    expect(LlmError.isInstance(error)).toBe(true);
    const where = path === '$' ? '' : ` at ${path}`;
    expect((error as LlmError).toJSON()).toEqual({ kind: 'upstream', status: 502, message: `invalid Claude answer${where}`, path, protocol: 'claude' });
  });
});

describe('stream.decode: an event without a type ends the stream (issue 17)', () => {
  it('is an upstream error at type, not a silent skip', async () => {
    const events = await decode([
      sse({ type: 'message_start', message: { id: 'msg_1', content: [] } }),
      { event: 'content_block_delta', data: '{"index":0}', id: undefined },
    ]);
    expect(events.map((event) => event.type)).toEqual(['start', 'error']);
    expect(errorOf(events[1]).toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'invalid Claude stream event at type',
      path: 'type',
      protocol: 'claude',
    });
  });
});

describe('stream.decode: an event nested deeper than MAX_JSON_DEPTH ends the stream (issue 17)', () => {
  it('5,000 levels: an upstream error naming the path, no stack overflow', async () => {
    const events = await decode([{ event: 'message_start', data: `{"type":"message_start","x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`, id: undefined }]);
    expect(events).toHaveLength(1);
    const path = 'x[0][0][0][0][0][0][0]…[0][0]';
    expect((events[0] as Extract<LlmStreamEvent, { type: 'error' }>).error.toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: `invalid Claude stream event at ${path}`,
      path,
      protocol: 'claude',
    });
  });
});

describe('stream.decode: a server-tool input nested past MAX_JSON_DEPTH (issue 17)', () => {
  it('ends the stream with an upstream error before anything serialises it', async () => {
    const events = await decode([
      sse({ type: 'message_start', message: { id: 'msg_1', content: [] } }),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: {} } }),
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: `{"q":${'['.repeat(5_000)}${']'.repeat(5_000)}}` } }),
      sse({ type: 'content_block_stop', index: 0 }),
    ]);
    expect(events.map((event) => event.type)).toEqual(['start', 'error']);
    expect(errorOf(events[1]).toJSON()).toMatchObject({ kind: 'upstream', status: 502, path: 'input.q[0][0][0][0][0][0][0]…[0][0]', protocol: 'claude' });
  });
});

describe('response.answerFault: the top-level markers every Claude answer has (issue 17)', () => {
  it.each<[string, unknown, string | undefined]>([
    ['an answer with fields no codec knows', { id: 'msg_1', type: 'message', model: 'm', content: [], brand_new: { x: 1 } }, undefined],
    ['an unexpected object', { unexpected: true }, 'content'],
    ['no type', { id: 'msg_1', model: 'm', content: [] }, 'type'],
    ['an error shape', { type: 'error', error: { type: 'api_error', message: 'x' } }, 'content'],
    ['another type', { id: 'msg_1', type: 'completion', model: 'm', content: [] }, 'type'],
    ['null', null, '$'],
    ['an array', [], '$'],
  ])('%s -> %s', (_label, body, fault) => {
    expect(claude.response.answerFault(body)).toBe(fault);
    // What the check refuses never decodes either: the passed-through and decoded paths agree.
    if (fault !== undefined) expect(thrown(() => claude.response.decode(body))).toMatchObject({ kind: 'upstream', status: 502, protocol: 'claude' });
  });
});
