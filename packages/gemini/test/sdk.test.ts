import { GoogleGenAI } from '@google/genai';
import { encodeSse, type LlmResponse, type LlmStreamEvent } from '@llm/core';
import { streamOf } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

interface Seen {
  url?: string;
  body?: unknown;
}

/** A Gemini SDK client whose requests are answered by `answer`. */
function client(answer: () => Response, seen: Seen = {}): GoogleGenAI {
  return new GoogleGenAI({
    apiKey: 'test-key',
    httpOptions: {
      retryOptions: { attempts: 1 },
      fetch: async (input, init) => {
        seen.url = String(input instanceof Request ? input.url : input);
        seen.body = JSON.parse(String(init?.body));
        return answer();
      },
    },
  });
}

function sse(events: LlmStreamEvent[]): Response {
  return new Response(streamOf(events).pipeThrough(gemini.stream.encode()).pipeThrough(encodeSse()), { headers: { 'content-type': 'text/event-stream' } });
}

describe('encoded streams read by the @google/genai SDK', () => {
  it('thoughts, text and a signed call arrive as the SDK chunks expect, with the final usage', async () => {
    const seen: Seen = {};
    const events: LlmStreamEvent[] = [
      { type: 'start', id: 'resp-1', model: 'gemini-3-pro' },
      { type: 'block-start', index: 0, block: { kind: 'reasoning' } },
      { type: 'reasoning-delta', index: 0, text: 'Weather needs a tool.' },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'text' } },
      { type: 'text-delta', index: 1, text: 'Checking ' },
      { type: 'text-delta', index: 1, text: 'Paris.' },
      { type: 'block-end', index: 1 },
      { type: 'block-start', index: 2, block: { kind: 'tool_call', id: 'call_1', name: 'get_weather' } },
      { type: 'tool-args-delta', index: 2, json: '{"city":' },
      { type: 'tool-args-delta', index: 2, json: '"Paris"}' },
      { type: 'reasoning-signature', index: 2, signature: 'c2ln', origin: { protocol: 'gemini' } },
      { type: 'block-end', index: 2 },
      { type: 'finish', reason: 'tool_calls', usage: { inputTokens: 30, outputTokens: 25, reasoningTokens: 5, cacheReadTokens: 10 } },
    ];
    const stream = await client(() => sse(events), seen).models.generateContentStream({ model: 'gemini-3-pro', contents: 'Weather in Paris?' });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(seen.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro:streamGenerateContent?alt=sse');
    expect(chunks.map((chunk) => chunk.candidates?.[0]?.content?.parts)).toEqual([
      [{ text: 'Weather needs a tool.', thought: true }],
      [{ text: 'Checking ' }],
      [{ text: 'Paris.' }],
      [{ functionCall: { name: 'get_weather', args: { city: 'Paris' }, id: 'call_1' }, thoughtSignature: 'c2ln' }],
      undefined,
    ]);
    expect(chunks.map((chunk) => chunk.text ?? null)).toEqual([null, 'Checking ', 'Paris.', null, null]);
    expect(chunks[3]!.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'Paris' }, id: 'call_1' }]);
    expect(chunks[4]!.candidates?.[0]?.finishReason).toBe('STOP');
    expect(chunks[4]!.usageMetadata).toEqual({
      promptTokenCount: 30,
      candidatesTokenCount: 20,
      totalTokenCount: 55,
      cachedContentTokenCount: 10,
      thoughtsTokenCount: 5,
    });
    expect(chunks.every((chunk) => chunk.responseId === 'resp-1' && chunk.modelVersion === 'gemini-3-pro')).toBe(true);
  });

  it('an error mid-stream makes the SDK throw after the text so far', async () => {
    const stream = await client(() =>
      sse([
        { type: 'start', id: 'r', model: 'm' },
        { type: 'block-start', index: 0, block: { kind: 'text' } },
        { type: 'text-delta', index: 0, text: 'partial' },
        { type: 'error', error: gemini.error.decode(503, { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }) },
      ]),
    ).models.generateContentStream({ model: 'm', contents: 'x' });
    const texts: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) texts.push(chunk.text ?? '');
      })(),
    ).rejects.toThrow(/overloaded/);
    expect(texts).toEqual(['partial']);
  });

  it('a non-streaming response encoded from another protocol is read by generateContent', async () => {
    const response: LlmResponse = {
      id: 'chatcmpl-1',
      model: 'gpt-4.1',
      choices: [
        {
          index: 0,
          content: [
            { type: 'text', text: 'Two calls:' },
            { type: 'tool-call', id: 'call_a', name: 'ls', arguments: '{"path":"/"}' },
            { type: 'tool-call', id: 'call_b', name: 'pwd', arguments: '' },
          ],
          finishReason: 'tool_calls',
          rawFinishReason: 'tool_calls',
        },
      ],
      usage: { inputTokens: 12, outputTokens: 7, totalTokens: 19 },
    };
    const seen: Seen = {};
    const result = await client(() => Response.json(gemini.response.encode(response)), seen).models.generateContent({ model: 'gpt-4.1', contents: 'go' });
    expect(seen.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gpt-4.1:generateContent');
    expect(result.text).toBe('Two calls:');
    expect(result.functionCalls).toEqual([
      { name: 'ls', args: { path: '/' }, id: 'call_a' },
      { name: 'pwd', args: {}, id: 'call_b' },
    ]);
    expect(result.candidates?.[0]?.finishReason).toBe('STOP');
    expect(result.usageMetadata).toEqual({ promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 });
  });

  it('what the SDK sends decodes, with model and stream from the URL', async () => {
    const seen: Seen = {};
    await client(
      () => Response.json({ candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] }),
      seen,
    ).models.generateContent({
      model: 'gemini-2.5-flash',
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      config: { systemInstruction: 'Be terse.', temperature: 0.2, maxOutputTokens: 50, thinkingConfig: { thinkingBudget: 0 } },
    });
    const route = gemini.http.matchRequest('POST', new URL(seen.url!));
    expect(route).toEqual({ operation: 'generate', model: 'gemini-2.5-flash', stream: false });
    const request = gemini.request.decode(seen.body, { model: route!.model, stream: route!.stream });
    expect(request).toMatchObject({
      model: 'gemini-2.5-flash',
      stream: false,
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be terse.' }] },
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      ],
      sampling: { temperature: 0.2 },
      maxOutputTokens: 50,
      reasoning: { enabled: false, budgetTokens: 0 },
    });
    expect(gemini.request.encode(request)).toEqual(seen.body);
  });
});
