import type { LlmRequest, LlmWarning } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';

const chat = (control: Record<string, unknown>) => ({ 'openai-chat': { cache_control: control } });

describe('cache breakpoints from another protocol', () => {
  it('a Chat client with two cached parts (one with ttl 1h) and a cached tool: Claude breakpoints on the same blocks', () => {
    // What the Chat codec decodes from parts carrying the OpenRouter / LiteLLM cache_control.
    const request: LlmRequest = {
      model: 'claude-sonnet-4-5',
      maxOutputTokens: 100,
      messages: [
        {
          role: 'system',
          content: [{ type: 'text', text: 'Long rules', cache: { ttl: '1h' }, extensions: chat({ type: 'ephemeral', ttl: '1h' }) }],
          extensions: { 'openai-chat': { $array: true } },
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Long document', cache: {}, extensions: chat({ type: 'ephemeral' }) },
            { type: 'text', text: 'Question' },
          ],
        },
      ],
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' }, cache: {}, extensions: chat({ type: 'ephemeral' }) }],
    };
    const warnings: LlmWarning[] = [];
    expect(JSON.stringify(claude.request.encode(request, { warn: (warning) => warnings.push(warning) }))).toBe(
      JSON.stringify({
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        system: [{ type: 'text', text: 'Long rules', cache_control: { type: 'ephemeral', ttl: '1h' } }],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Long document', cache_control: { type: 'ephemeral' } },
              { type: 'text', text: 'Question' },
            ],
          },
        ],
        tools: [{ name: 'f', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }],
      }),
    );
    expect(warnings).toEqual([]);
  });

  it('keeps the first 4 breakpoints (tools, system, messages, tool_result contents) and reports each one beyond, instead of a 400', () => {
    const request: LlmRequest = {
      model: 'claude-sonnet-4-5',
      maxOutputTokens: 100,
      cache: {},
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'S', cache: {} }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'A', cache: { ttl: '1h' } },
            { type: 'text', text: 'B', cache: {} },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool-call', id: 't1', name: 'f', arguments: {} }] },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 't1', content: [{ type: 'text', text: 'R', cache: {} }] }],
        },
        { role: 'user', content: [{ type: 'text', text: 'C', cache: {} }] },
      ],
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' }, cache: {} }],
    };
    const warnings: LlmWarning[] = [];
    expect(claude.request.encode(request, { warn: (warning) => warnings.push(warning) })).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system: [{ type: 'text', text: 'S', cache_control: { type: 'ephemeral' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'A', cache_control: { type: 'ephemeral', ttl: '1h' } },
            { type: 'text', text: 'B', cache_control: { type: 'ephemeral' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
        // Claude holds the tool result and the next user turn in one user message.
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'R' }] },
            { type: 'text', text: 'C' },
          ],
        },
      ],
      tools: [{ name: 'f', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }],
      // The top-level (automatic) breakpoint is not one of the 4.
      cache_control: { type: 'ephemeral' },
    });
    const message = 'Claude accepts at most 4 cache breakpoints; this one was removed';
    expect(warnings).toEqual([
      { code: 'dropped-field', path: 'messages[2].content[0].content[0].cache_control', message, protocol: 'claude' },
      { code: 'dropped-field', path: 'messages[2].content[1].cache_control', message, protocol: 'claude' },
    ]);
  });
});
