import type { LlmRequest, LlmWarning } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

describe('cache hints (Responses caches prompt prefixes automatically, no breakpoints)', () => {
  it('reports every canonical cache hint (system, user, assistant, tool-result part, tool, request) at its path and sends the rest unchanged', () => {
    const warnings: LlmWarning[] = [];
    const request: LlmRequest = {
      model: 'gpt-5',
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
    const body = openaiResponses.request.encode(request, { warn: (warning) => warnings.push(warning) });
    expect(body).toEqual({
      model: 'gpt-5',
      instructions: 'be brief',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'hi' },
            { type: 'input_text', text: 'long doc' },
          ],
        },
        { type: 'function_call', call_id: 'c1', name: 'lookup', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'ok' },
      ],
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} }, strict: false }],
    });
    const dropped = (path: string): LlmWarning => ({
      code: 'dropped-field',
      path,
      message: 'Responses has no cache breakpoints (OpenAI caches prompt prefixes automatically)',
      protocol: 'openai-responses',
    });
    expect(warnings).toEqual([
      dropped('messages[0].content[0].cache'),
      dropped('messages[1].content[1].cache'),
      dropped('messages[2].content[0].cache'),
      dropped('messages[3].content[0].cache'),
      dropped('tools[0].cache'),
      dropped('cache'),
    ]);
  });

  it('reports nothing when no hint is set', () => {
    const warnings: LlmWarning[] = [];
    openaiResponses.request.encode(
      { model: 'gpt-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [{ type: 'function', name: 'f' }] },
      { warn: (warning) => warnings.push(warning) },
    );
    expect(warnings).toEqual([]);
  });
});
