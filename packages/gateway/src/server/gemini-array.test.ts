import { describe, expect, it } from 'vitest';
import { sseToGeminiArray, wantsGeminiArray } from './gemini-array.js';

async function* chunks(...items: (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  yield* items;
}

async function textOf(body: unknown): Promise<string> {
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of body as AsyncIterable<string | Uint8Array>) text += typeof chunk === 'string' ? chunk : decoder.decode(chunk);
  return text;
}

describe('sseToGeminiArray', () => {
  it("writes the events' data as Gemini's incremental JSON array, whatever the chunking", async () => {
    const reply = sseToGeminiArray({
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'content-length': '99' },
      body: chunks('data: {"a":1}\r\n\r\nda', new TextEncoder().encode('ta: {"b":2}\n\n: comment\n\n'), 'data: {"c":\ndata: 3}\n\n'),
    });
    expect(reply.headers).toEqual({ 'content-type': 'application/json; charset=UTF-8' });
    expect(await textOf(reply.body)).toBe('[{"a":1}\n,\r\n{"b":2}\n,\r\n{"c":\n3}]');
  });

  it('answers an empty array for a stream without events, and leaves other answers alone', async () => {
    expect(await textOf(sseToGeminiArray({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: chunks() }).body)).toBe('[]');
    const error = { status: 429, headers: { 'content-type': 'application/json' }, body: '{"error":{}}' };
    expect(sseToGeminiArray(error)).toBe(error);
  });

  it('applies only to :streamGenerateContent without alt=sse', () => {
    expect(wantsGeminiArray(new URL('http://x/v1beta/models/m:streamGenerateContent'))).toBe(true);
    expect(wantsGeminiArray(new URL('http://x/v1beta/models/m:streamGenerateContent?alt=sse'))).toBe(false);
    expect(wantsGeminiArray(new URL('http://x/v1beta/models/m:generateContent'))).toBe(false);
  });
});
