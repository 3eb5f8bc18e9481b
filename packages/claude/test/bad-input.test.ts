import { LlmError, type LlmStreamEvent } from '@llm/core';
import { collect, streamOf, thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';

const message = (patch: Record<string, unknown>) => ({
  id: 'msg_x',
  type: 'message',
  role: 'assistant',
  model: 'm',
  content: [],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
  ...patch,
});

// Issue 17: an upstream's answer that does not decode is `upstream` (502), not the client's 400.
describe('bad response bodies are upstream errors naming the JSON path', () => {
  it.each([
    [null, '$'],
    [message({ content: 'hi' }), 'content'],
    [message({ content: [{ type: 'text', text: 5 }] }), 'content[0].text'],
    [message({ content: [{ type: 'tool_use', id: 't', name: 'f', input: [] }] }), 'content[0].input'],
    [message({ usage: { input_tokens: 'a', output_tokens: 1 } }), 'usage.input_tokens'],
    [message({ usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: '3' } }), 'usage.cache_read_input_tokens'],
    [message({ stop_reason: 7 }), 'stop_reason'],
    [message({ id: undefined }), 'id'],
  ])('%j -> %s', (body, path) => {
    const error = thrown(() => claude.response.decode(body));
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ kind: 'upstream', status: 502, path, protocol: 'claude' });
    expect((error as LlmError).cause).toMatchObject({ kind: 'invalid_request', path });
  });
});

describe('bad stream input ends in one error event, never a thrown TypeError', () => {
  it.each([
    ['{not json', 'invalid Claude stream event'],
    ['5', 'invalid Claude stream event'],
    ['null', 'invalid Claude stream event'],
    ['"upstream text"', 'invalid Claude stream event'],
    // A JSON array is no event at all (core's readSseJson), not an event missing its `type`.
    ['[{"type":"ping"}]', 'invalid Claude stream event'],
    [
      JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } }),
      'unexpected Claude stream event: content_block_delta for unopened block 0',
    ],
  ])('%s', async (data, message) => {
    const events: LlmStreamEvent[] = await collect(streamOf([{ event: 'x', data, id: undefined }]).pipeThrough(claude.stream.decode()));
    expect(events).toHaveLength(1);
    // Exactly these fields: no `raw` upstream value, no `path`.
    expect((events[0] as Extract<LlmStreamEvent, { type: 'error' }>).error.toJSON()).toEqual({ kind: 'upstream', status: 502, message, protocol: 'claude' });
  });
});

describe('error bodies of any shape decode to an LlmError', () => {
  it.each([[null], ['<html>bad gateway</html>'], [{ error: 'flat' }], [[1, 2]]])('%j', (body) => {
    const error = claude.error.decode(502, body, new Headers());
    expect(error).toBeInstanceOf(LlmError);
    expect(error.status).toBe(502);
  });
});
