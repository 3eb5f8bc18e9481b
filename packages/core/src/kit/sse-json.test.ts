import { describe, expect, it } from 'vitest';
import { readSseJson } from './sse-json.js';

describe('readSseJson', () => {
  it('returns the event object', () => {
    expect(readSseJson('claude', '{"type":"ping"}', 'stream event')).toEqual({ payload: { type: 'ping' } });
  });

  it('turns text that is not a JSON object, or nests too deep, into the upstream error that ends the stream', () => {
    const notJson = readSseJson('openai-chat', '{"a":', 'stream chunk').error;
    expect(notJson?.kind).toBe('upstream');
    expect(notJson?.status).toBe(502);
    expect(notJson?.protocol).toBe('openai-chat');
    expect(notJson?.message).toBe('invalid Chat Completions stream chunk');
    expect(readSseJson('gemini', '[1]', 'stream chunk').error?.message).toBe('invalid Gemini stream chunk');
    expect(readSseJson('gemini', 'null', 'stream chunk').error?.message).toBe('invalid Gemini stream chunk');
    const deep = `${'['.repeat(200)}${']'.repeat(200)}`;
    const tooDeep = readSseJson('claude', `{"a":${deep}}`, 'stream event').error;
    expect(tooDeep?.kind).toBe('upstream');
    expect(tooDeep?.path).toBe('a[0][0][0][0][0][0][0]…[0][0]');
    expect(tooDeep?.message).toBe(`invalid Claude stream event at ${tooDeep?.path}`);
  });
});
