// Function-declaration fields the canonical model has no place for (`responseJsonSchema` /
// `response`, the output schema; `behavior`) go back to Gemini as they came, and are reported with
// their JSON path when the request crosses to another protocol.
import { reportForeignExtensions, type LlmWarning } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

const weather = {
  name: 'weather',
  description: 'Weather for a city',
  parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  responseJsonSchema: { type: 'object', properties: { temp: { type: 'number' } } },
};
const body = {
  contents: [{ role: 'user', parts: [{ text: 'weather in Rome?' }] }],
  tools: [
    { functionDeclarations: [{ name: 'time', parameters: { type: 'OBJECT', properties: {} }, response: { type: 'STRING' } }] },
    { functionDeclarations: [{ name: 'noop' }, weather], googleSearch: {} },
  ],
};

describe('function declaration fields with no canonical meaning', () => {
  it('map the parameters, keep the output schema for Gemini, and round-trip exactly', () => {
    const request = gemini.request.decode(structuredClone(body), { model: 'gemini-2.5-flash' });
    expect(request.tools?.map(({ extensions: _bag, ...tool }) => tool)).toEqual([
      { type: 'function', name: 'time', parameters: { type: 'object', properties: {} } },
      { type: 'function', name: 'noop' },
      { type: 'function', name: 'weather', description: 'Weather for a city', parameters: weather.parametersJsonSchema },
      { type: 'web_search', name: 'web_search' },
    ]);
    expect(gemini.request.encode(request)).toEqual(body);
  });

  it('are each reported with their JSON path when the request goes to another protocol', () => {
    const request = gemini.request.decode(structuredClone(body), { model: 'gemini-2.5-flash' });
    const warnings: LlmWarning[] = [];
    reportForeignExtensions(request, 'gemini', 'claude', { warn: (warning) => warnings.push(warning) });
    expect(warnings).toEqual([
      {
        code: 'dropped-field',
        path: 'tools[0].functionDeclarations[0].response',
        message: 'gemini field tools[0].functionDeclarations[0].response has no claude equivalent',
        protocol: 'gemini',
      },
      {
        code: 'dropped-field',
        path: 'tools[1].functionDeclarations[1].responseJsonSchema',
        message: 'gemini field tools[1].functionDeclarations[1].responseJsonSchema has no claude equivalent',
        protocol: 'gemini',
      },
    ]);
    expect(() => reportForeignExtensions(request, 'gemini', 'openai-chat', { strict: true })).toThrow(
      expect.objectContaining({ kind: 'unsupported', path: 'tools[0].functionDeclarations[0].response' }),
    );
  });

  it('a snake_case declaration list is named as it came, behavior included', () => {
    const request = gemini.request.decode({
      contents: [{ role: 'user', parts: [{ text: 'x' }] }],
      tools: [{ function_declarations: [{ name: 'f', behavior: 'NON_BLOCKING', responseJsonSchema: { type: 'string' } }] }],
    });
    const warnings: LlmWarning[] = [];
    reportForeignExtensions(request, 'gemini', 'openai-responses', { warn: (warning) => warnings.push(warning) });
    expect(warnings.map((warning) => warning.path)).toEqual([
      'tools[0].function_declarations[0].behavior',
      'tools[0].function_declarations[0].responseJsonSchema',
    ]);
    reportForeignExtensions(request, 'gemini', 'gemini', { warn: (warning) => warnings.push(warning) });
    expect(warnings).toHaveLength(2);
  });
});
