import type { LlmRequest, LlmWarning } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';

describe('a request from another protocol, encoded for Claude', () => {
  it('maps what Claude has and reports every field it lacks', () => {
    const request: LlmRequest = {
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'A' }] },
        { role: 'system', content: [{ type: 'text', text: 'B' }] },
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'base64', mediaType: 'image/jpeg', data: '/9j/' } },
            { type: 'file', source: { kind: 'file', fileId: 'file-abc', provider: 'openai-chat' } },
            { type: 'audio', source: { kind: 'base64', mediaType: 'audio/wav', data: 'UklG' } },
            { type: 'text', text: 'Q' },
          ],
        },
      ],
      maxOutputTokens: 900,
      stop: ['###'],
      reasoning: { budgetTokens: 512 },
      responseFormat: { type: 'json-schema', name: 'Answer', schema: { type: 'object' } },
      toolChoice: { type: 'required' },
      tools: [{ type: 'function', name: 'f', description: 'd', parameters: { type: 'object' }, strict: true }],
      sampling: { topP: 0.9, frequencyPenalty: 1 },
    };
    const warnings: LlmWarning[] = [];
    expect(claude.request.encode(request, { warn: (warning) => warnings.push(warning) })).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 900,
      // Two system messages stay two blocks of the one top-level system.
      system: [
        { type: 'text', text: 'A' },
        { type: 'text', text: 'B' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/' } },
            { type: 'text', text: 'Q' },
          ],
        },
      ],
      stop_sequences: ['###'],
      top_p: 0.9,
      thinking: { type: 'enabled', budget_tokens: 512 },
      output_config: { format: { type: 'json_schema', schema: { type: 'object' } } },
      tools: [{ name: 'f', description: 'd', input_schema: { type: 'object' }, strict: true }],
      tool_choice: { type: 'any' },
    });
    expect(warnings.map(({ code, path }) => [code, path])).toEqual([
      ['dropped-part', 'messages[2].content[1]'],
      ['dropped-part', 'messages[2].content[2]'],
      ['dropped-field', 'sampling.frequencyPenalty'],
      ['dropped-field', 'responseFormat.name'],
    ]);
  });
});

describe('image URLs from another protocol', () => {
  it('a base64 data URL naming its media type becomes a base64 source; one without a media type stays a URL', () => {
    const wire = claude.request.encode({
      model: 'claude-sonnet-4-5',
      maxOutputTokens: 10,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'url', url: 'data:image/png;name=a.png;base64,iVBOR' } },
            { type: 'image', source: { kind: 'url', url: 'data:;base64,iVBOR' } },
            { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } },
          ],
        },
      ],
    });
    expect(wire.messages[0]?.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } },
      { type: 'image', source: { type: 'url', url: 'data:;base64,iVBOR' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
    ]);
  });
});
