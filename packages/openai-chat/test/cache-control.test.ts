import type { LlmRequest, LlmWarning } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { openaiChat } from '../src/index.js';

// The OpenRouter / LiteLLM convention: cache_control on content parts and tool definitions.
const body = {
  model: 'anthropic/claude-sonnet-4-5',
  messages: [
    { role: 'system', content: [{ type: 'text', text: 'Long rules', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Long document', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Question' },
      ],
    },
  ],
  tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } }, cache_control: { type: 'ephemeral' } }],
};

describe('cache_control on Chat content parts and tools', () => {
  it('decodes to the canonical cache hint (ttl kept), raw value kept for Chat', () => {
    const expected: LlmRequest = {
      model: 'anthropic/claude-sonnet-4-5',
      messages: [
        {
          role: 'system',
          content: [
            { type: 'text', text: 'Long rules', cache: { ttl: '1h' }, extensions: { 'openai-chat': { cache_control: { type: 'ephemeral', ttl: '1h' } } } },
          ],
          extensions: { 'openai-chat': { $array: true } },
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Long document', cache: {}, extensions: { 'openai-chat': { cache_control: { type: 'ephemeral' } } } },
            { type: 'text', text: 'Question' },
          ],
        },
      ],
      tools: [
        {
          type: 'function',
          name: 'f',
          parameters: { type: 'object' },
          cache: {},
          extensions: { 'openai-chat': { cache_control: { type: 'ephemeral' } } },
        },
      ],
    };
    expect(openaiChat.request.decode(body)).toEqual(expected);
  });

  it('Chat -> Chat writes cache_control back byte for byte, with no warning', () => {
    const warnings: LlmWarning[] = [];
    const encoded = openaiChat.request.encode(openaiChat.request.decode(body), { warn: (warning) => warnings.push(warning) });
    expect(JSON.stringify(encoded)).toBe(JSON.stringify(body));
    expect(warnings).toEqual([]);
  });

  it('a shape with no canonical meaning stays wire-only (no hint), still written back', () => {
    const odd = {
      model: 'm',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral', ttl: '2h' } }] }],
    };
    const decoded = openaiChat.request.decode(odd);
    expect(decoded.messages[0]!.content[0]).toEqual({
      type: 'text',
      text: 'x',
      extensions: { 'openai-chat': { cache_control: { type: 'ephemeral', ttl: '2h' } } },
    });
    expect(JSON.stringify(openaiChat.request.encode(decoded))).toBe(JSON.stringify(odd));
  });

  it('a cache hint from another protocol (a Claude breakpoint) is reported with its path, not written', () => {
    const request: LlmRequest = {
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'S', cache: { ttl: '1h' } }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Q', cache: {} },
            { type: 'image', source: { kind: 'url', url: 'https://x/i.png' }, cache: {} },
          ],
        },
      ],
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' }, cache: {} }],
    };
    const warnings: LlmWarning[] = [];
    expect(openaiChat.request.encode(request, { warn: (warning) => warnings.push(warning) })).toEqual({
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'S' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Q' },
            { type: 'image_url', image_url: { url: 'https://x/i.png' } },
          ],
        },
      ],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    });
    const message = 'openai-chat has no cache breakpoints (OpenAI caches prompt prefixes automatically)';
    expect(warnings).toEqual([
      { code: 'dropped-field', path: 'messages[0].content[0].cache', message, protocol: 'openai-chat' },
      { code: 'dropped-field', path: 'messages[1].content[0].cache', message, protocol: 'openai-chat' },
      { code: 'dropped-field', path: 'messages[1].content[1].cache', message, protocol: 'openai-chat' },
      { code: 'dropped-field', path: 'tools[0].cache', message, protocol: 'openai-chat' },
    ]);
  });
});
