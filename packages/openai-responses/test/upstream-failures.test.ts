import { LlmError, type LlmStreamEvent, type SseEvent } from '@llm/core';
import { runTransform, thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

const sse = (payload: Record<string, unknown>): SseEvent => ({ event: payload.type as string, data: JSON.stringify(payload), id: undefined });
const decode = (events: SseEvent[]): Promise<LlmStreamEvent[]> => runTransform(openaiResponses.stream.decode(), events);
const errorOf = (event: LlmStreamEvent | undefined) => (event as Extract<LlmStreamEvent, { type: 'error' }>).error;

describe('upstream answers that do not decode (issue 17)', () => {
  it('a content part the decoder cannot read is an upstream error naming the path, not a 400', async () => {
    const events = await decode([
      sse({ type: 'response.created', response: { id: 'resp_1' } }),
      sse({ type: 'response.output_item.added', output_index: 0, item: { type: 'message' } }),
      sse({ type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'output_text' } }),
      sse({ type: 'response.content_part.done', output_index: 0, content_index: 0, part: 'not a part' }),
    ]);
    expect(events.map((event) => event.type)).toEqual(['start', 'block-start', 'error']);
    const error = errorOf(events[2]);
    expect(error.toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'invalid Responses stream event at part[0]',
      path: 'part[0]',
      protocol: 'openai-responses',
    });
    expect(error.cause).toMatchObject({ kind: 'invalid_request', message: 'part[0]: expected an object, got "not a part"' });
  });

  it.each([
    ['not JSON', '{"type": "response.created"', SyntaxError],
    ['a JSON number', '5', undefined],
    ['JSON null', 'null', undefined],
    ['a JSON string', '"upstream text"', undefined],
    // Not an object, so not an event at all (before the kit's SSE preamble: "at type").
    ['a JSON array', '[{"type":"response.created"}]', undefined],
  ])('an event that is %s ends the stream with the shared stable error (detail only in the cause)', async (_label, data, cause) => {
    const events = await decode([{ event: undefined, data, id: undefined }]);
    expect(events).toHaveLength(1);
    const error = errorOf(events[0]);
    expect(error.toJSON()).toEqual({ kind: 'upstream', status: 502, message: 'invalid Responses stream event', protocol: 'openai-responses' });
    if (cause) expect(error.cause).toBeInstanceOf(cause);
    else expect(error.cause).toBeUndefined();
  });
});

describe('response.decode: a body that is not a Responses answer is an upstream error (issue 17)', () => {
  it.each<[string, unknown, string]>([
    ['an unexpected object', { unexpected: true }, 'id'],
    ['null', null, '$'],
    ['an array', [], '$'],
    ['a string', 'upstream said hello', '$'],
  ])('%s', (_label, body, path) => {
    const error = thrown(() => openaiResponses.response.decode(body));
    expect(LlmError.isInstance(error)).toBe(true);
    const where = path === '$' ? '' : ` at ${path}`;
    expect((error as LlmError).toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: `invalid Responses answer${where}`,
      path,
      protocol: 'openai-responses',
    });
  });
});

describe('stream.decode: an event without a type ends the stream (issue 17)', () => {
  it('is an upstream error at type, not a silent skip', async () => {
    const events = await decode([sse({ type: 'response.created', response: { id: 'resp_1' } }), { event: undefined, data: '{"delta":"lost"}', id: undefined }]);
    expect(events.map((event) => event.type)).toEqual(['start', 'error']);
    expect(errorOf(events[1]).toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'invalid Responses stream event at type',
      path: 'type',
      protocol: 'openai-responses',
    });
  });
});

describe('stream.decode: an event nested deeper than MAX_JSON_DEPTH ends the stream (issue 17)', () => {
  it('5,000 levels: an upstream error naming the path, no stack overflow', async () => {
    const events = await decode([
      { event: 'response.created', data: `{"type":"response.created","x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`, id: undefined },
    ]);
    expect(events).toHaveLength(1);
    const path = 'x[0][0][0][0][0][0][0]…[0][0]';
    expect((events[0] as Extract<LlmStreamEvent, { type: 'error' }>).error.toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: `invalid Responses stream event at ${path}`,
      path,
      protocol: 'openai-responses',
    });
  });
});

describe('upstream error answers (issue 17 follow-up)', () => {
  it("keeps the provider's message from its error shape", () => {
    expect(openaiResponses.error.decode(400, { error: { message: 'bad input', type: 'invalid_request_error', param: 'input', code: null } }).message).toBe(
      'bad input',
    );
  });

  it("answers a proxy's HTML page by status; the page goes to the log as the cause, not to the client", () => {
    const page = '<html><head><title>502 Bad Gateway</title></head><body>envoy 10.0.0.5</body></html>';
    const error = openaiResponses.error.decode(502, page);
    expect(error.toJSON()).toEqual({ kind: 'upstream', status: 502, message: 'upstream answered HTTP 502', protocol: 'openai-responses' });
    expect((error.cause as Error).message).toBe(page);
    expect(JSON.stringify(openaiResponses.error.encode(error).body)).not.toContain('envoy');
  });
});

describe('response.answerFault: the top-level markers every Responses answer has (issue 17)', () => {
  it.each<[string, unknown, string | undefined]>([
    ['an answer with fields no codec knows', { id: 'resp_1', object: 'response', output: [], brand_new: { x: 1 } }, undefined],
    ['an unexpected object', { unexpected: true }, 'id'],
    ['no output (the SDK type always has one)', { id: 'resp_1', object: 'response' }, 'output'],
    ['output null', { id: 'resp_1', output: null }, 'output'],
    ['null', null, '$'],
    ['an array', [], '$'],
    ['a string', 'upstream said hello', '$'],
  ])('%s -> %s', (_label, body, fault) => {
    expect(openaiResponses.response.answerFault(body)).toBe(fault);
    // What the check refuses never decodes either: the passed-through and decoded paths agree.
    if (fault !== undefined)
      expect(thrown(() => openaiResponses.response.decode(body))).toMatchObject({ kind: 'upstream', status: 502, protocol: 'openai-responses' });
  });
});
