import type { Codec } from '@llm/core';
import { claude } from '@llm/claude';
import { gemini } from '@llm/gemini';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { describe, expect, it } from 'vitest';
import { translatedRequest } from './translated-answers.js';

/** The upstream body a Chat client request becomes, and the warnings on the way. */
const fromChat = (upstream: Codec, body: unknown) => translatedRequest(openaiChat, upstream, body);

// A Chat request with breakpoints as OpenRouter / LiteLLM clients send them: on a tool definition,
// a system part and two user parts. Claude's four-breakpoint limit is met, and the 1h entries come
// before the 5m one (Claude refuses a longer TTL after a shorter one; prompt order is tools, system,
// messages).
const schema = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
const chatRequest = {
  model: 'm',
  max_tokens: 100,
  messages: [
    { role: 'system', content: [{ type: 'text', text: 'You review contracts.', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Contract A: the long text.', cache_control: { type: 'ephemeral', ttl: '1h' } },
        { type: 'text', text: 'Contract B: another long text.', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Which one is shorter?' },
      ],
    },
  ],
  tools: [
    {
      type: 'function',
      function: { name: 'lookup_clause', description: 'Finds a clause by id.', parameters: schema },
      cache_control: { type: 'ephemeral', ttl: '1h' },
    },
  ],
};

describe('Chat cache_control breakpoints, from the client wire to each upstream', () => {
  it('reach Claude as cache_control on the same tool, system block and text blocks, ttl kept', () => {
    expect(fromChat(claude, chatRequest)).toEqual({
      body: {
        model: 'm',
        max_tokens: 100,
        system: [{ type: 'text', text: 'You review contracts.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Contract A: the long text.', cache_control: { type: 'ephemeral', ttl: '1h' } },
              { type: 'text', text: 'Contract B: another long text.', cache_control: { type: 'ephemeral' } },
              { type: 'text', text: 'Which one is shorter?' },
            ],
          },
        ],
        tools: [{ name: 'lookup_clause', description: 'Finds a clause by id.', input_schema: schema, cache_control: { type: 'ephemeral', ttl: '1h' } }],
      },
      warnings: [],
    });
  });

  it('go back to a Chat upstream exactly as sent', () => {
    expect(fromChat(openaiChat, chatRequest)).toEqual({ body: chatRequest, warnings: [] });
  });

  // Canonical paths: the system message is messages[0], the user message messages[1].
  const dropped = (protocol: string, message: string) =>
    ['messages[0].content[0].cache', 'messages[1].content[0].cache', 'messages[1].content[1].cache', 'tools[0].cache'].map((path) => ({
      code: 'dropped-field',
      path,
      message,
      protocol,
    }));

  it('Gemini has no breakpoints: the body carries none and each one is reported', () => {
    expect(fromChat(gemini, chatRequest)).toEqual({
      body: {
        contents: [
          { role: 'user', parts: [{ text: 'Contract A: the long text.' }, { text: 'Contract B: another long text.' }, { text: 'Which one is shorter?' }] },
        ],
        systemInstruction: { parts: [{ text: 'You review contracts.' }] },
        tools: [{ functionDeclarations: [{ name: 'lookup_clause', description: 'Finds a clause by id.', parametersJsonSchema: schema }] }],
        generationConfig: { maxOutputTokens: 100 },
      },
      warnings: dropped('gemini', 'Gemini has no cache breakpoints'),
    });
  });

  it('Responses has no breakpoints: the body carries none and each one is reported', () => {
    expect(fromChat(openaiResponses, chatRequest)).toEqual({
      body: {
        model: 'm',
        instructions: 'You review contracts.',
        input: [
          {
            type: 'message',
            role: 'user',
            content: [
              { type: 'input_text', text: 'Contract A: the long text.' },
              { type: 'input_text', text: 'Contract B: another long text.' },
              { type: 'input_text', text: 'Which one is shorter?' },
            ],
          },
        ],
        tools: [{ type: 'function', name: 'lookup_clause', description: 'Finds a clause by id.', parameters: schema, strict: false }],
        max_output_tokens: 100,
      },
      warnings: dropped('openai-responses', 'Responses has no cache breakpoints (OpenAI caches prompt prefixes automatically)'),
    });
  });
});
