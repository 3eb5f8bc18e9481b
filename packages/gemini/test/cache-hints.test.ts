import type { LlmRequest, LlmWarning } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

describe('cache hints (Gemini caches through cachedContent, never per block)', () => {
  it('reports every canonical cache hint (request, tool, system/user/assistant part, tool result) at its path and sends the rest unchanged', () => {
    const warnings: LlmWarning[] = [];
    const request: LlmRequest = {
      model: 'gemini-2.5-flash',
      cache: { ttl: '1h' },
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} }, cache: {} }],
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'be brief', cache: { ttl: '1h' } }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'text', text: 'long doc', cache: {} },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'lookup', arguments: {}, cache: {} }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'lookup', content: 'ok', cache: { ttl: '5m' } }] },
      ],
    };
    const body = gemini.request.encode(request, { warn: (warning) => warnings.push(warning) });
    expect(body).toEqual({
      systemInstruction: { parts: [{ text: 'be brief' }] },
      contents: [
        { role: 'user', parts: [{ text: 'hi' }, { text: 'long doc' }] },
        { role: 'model', parts: [{ functionCall: { name: 'lookup', args: {}, id: 'c1' }, thoughtSignature: 'skip_thought_signature_validator' }] },
        { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { output: 'ok' }, id: 'c1' } }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'lookup', parametersJsonSchema: { type: 'object', properties: {} } }] }],
    });
    const dropped = (path: string, message = 'Gemini has no cache breakpoints'): LlmWarning => ({ code: 'dropped-field', path, message, protocol: 'gemini' });
    expect(warnings).toEqual([
      dropped('messages[0].content[0].cache'),
      dropped('messages[1].content[1].cache'),
      dropped('messages[2].content[0].cache'),
      dropped('messages[3].content[0].cache'),
      dropped('tools[0].cache'),
      dropped('cache'),
    ]);
  });
});
