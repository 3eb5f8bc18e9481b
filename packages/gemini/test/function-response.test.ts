// functionResponse.response <-> canonical tool-result text: a function's own object answer is kept
// as its JSON text (every protocol's tool result carries text), and JSON-object text goes to
// Gemini as the object itself; other text is `{output: text}`; both directions are exact.
import type { LlmRequest, LlmToolResultPart } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

const call = { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'weather', args: {} } }] };
const bodyWith = (functionResponse: unknown) => ({
  contents: [{ role: 'user', parts: [{ text: 'weather?' }] }, call, { role: 'user', parts: [{ functionResponse }] }],
});
const resultOf = (request: LlmRequest): LlmToolResultPart => request.messages[2]!.content[0] as LlmToolResultPart;

/** A canonical request whose last message is a tool result, as another protocol's client sends it. */
const foreign = (result: Omit<LlmToolResultPart, 'type' | 'toolCallId' | 'toolName'>): LlmRequest => ({
  model: 'gemini-2.5-flash',
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
    { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'weather', arguments: {} }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', ...result }] },
  ],
});
const sentResponse = (request: LlmRequest): unknown => {
  const contents = gemini.request.encode(request).contents as Array<{ parts: Array<{ functionResponse: { response: unknown } }> }>;
  return contents[2]!.parts[0]!.functionResponse.response;
};

describe('functionResponse.response and tool-result text', () => {
  it('an object answer decodes to its JSON text and encodes back to the same object', () => {
    const body = bodyWith({ id: 'c1', name: 'weather', response: { temp: 21, sky: { cover: 'clear', wind: [3, 'NW'] } } });
    const request = gemini.request.decode(body, { model: 'gemini-2.5-flash' });
    expect(resultOf(request)).toEqual({
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'weather',
      content: '{"temp":21,"sky":{"cover":"clear","wind":[3,"NW"]}}',
    });
    expect(gemini.request.encode(request)).toEqual(body);
  });

  it('a tool result whose text is a JSON object is sent as that object', () => {
    expect(sentResponse(foreign({ content: ' {"temp": 21, "unit": "C"}' }))).toEqual({ temp: 21, unit: 'C' });
    expect(
      sentResponse(
        foreign({
          content: [
            { type: 'text', text: '{"temp":' },
            { type: 'text', text: '21}' },
          ],
        }),
      ),
    ).toEqual({ temp: 21 });
  });

  it.each([
    ['plain text', 'sunny'],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"sunny"'],
    ['broken JSON', '{"temp": 21'],
    ['an object that is an output wrapper', '{"output":"sunny"}'],
    ['an object that is an error wrapper', '{"error":"none"}'],
  ])('%s goes as {output: text}', (_case, text) => {
    expect(sentResponse(foreign({ content: text }))).toEqual({ output: text });
  });

  it('a failed call keeps its JSON text under error', () => {
    expect(sentResponse(foreign({ content: '{"code":404}', isError: true }))).toEqual({ error: '{"code":404}' });
  });

  it.each([
    ['JSON-object text in output', { output: '{"temp":21}' }],
    ['an output wrapper in output', { output: '{"output":"x"}' }],
    ['plain output', { output: 'sunny' }],
    ['an error object', { error: { code: 404 } }],
  ])('%s comes back as it was', (_case, response) => {
    const body = bodyWith({ id: 'c1', name: 'weather', response });
    expect(gemini.request.encode(gemini.request.decode(body, { model: 'gemini-2.5-flash' }))).toEqual(body);
  });

  it('an object answer with media parts keeps both', () => {
    const body = bodyWith({ id: 'c1', name: 'weather', response: { map: 'attached' }, parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0K' } }] });
    const request = gemini.request.decode(body, { model: 'gemini-2.5-flash' });
    expect(resultOf(request).content).toEqual([
      { type: 'text', text: '{"map":"attached"}' },
      { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0K' } },
    ]);
    expect(gemini.request.encode(request)).toEqual(body);
  });
});
