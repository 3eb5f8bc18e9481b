import type { Codec, LlmWarning } from '@llm/core';
import { claude } from '@llm/claude';
import { gemini } from '@llm/gemini';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { bridge } from '@llm/router';
import { describe, expect, it } from 'vitest';

/** The upstream body a client request becomes, and the warnings (`code@path`) on the way. */
function translate(client: Codec, upstream: Codec, body: unknown, model = 'm'): { body: Record<string, unknown>; warnings: string[] } {
  const warnings: string[] = [];
  const via = bridge({ client, upstream, warn: (warning: LlmWarning) => warnings.push(`${warning.code}@${warning.path}`) });
  const out = via.request(body, client === gemini ? { model, stream: false } : {}) as { body: Record<string, unknown> };
  return { body: out.body, warnings };
}

const question = 'News about the Rust 2027 edition?';
const location = { city: 'Paris', region: 'Île-de-France', country: 'FR', timezone: 'Europe/Paris' };

const claudeRequest = {
  model: 'm',
  max_tokens: 100,
  tools: [
    {
      type: 'web_search_20250305',
      name: 'web_search',
      max_uses: 3,
      allowed_domains: ['rust-lang.org'],
      user_location: { type: 'approximate', ...location },
      cache_control: { type: 'ephemeral' },
    },
  ],
  messages: [{ role: 'user', content: question }],
};

describe('hosted web search tool across protocols', () => {
  it('Claude web_search -> Responses web_search: domains and location kept, max_uses and cache_control reported', () => {
    const { body, warnings } = translate(claude, openaiResponses, claudeRequest);
    expect(body.tools).toEqual([{ type: 'web_search', filters: { allowed_domains: ['rust-lang.org'] }, user_location: { type: 'approximate', ...location } }]);
    expect(warnings).toEqual(['dropped-field@tools[0].maxUses', 'dropped-field@tools[0].cache_control']);
  });

  it('Claude web_search -> Chat web_search_options: location kept, domains and max_uses reported, no empty tools array', () => {
    const { body, warnings } = translate(claude, openaiChat, claudeRequest);
    expect(body.tools).toBeUndefined();
    expect(body.web_search_options).toEqual({ user_location: { type: 'approximate', approximate: location } });
    expect(warnings).toEqual(['dropped-field@tools[0].maxUses', 'dropped-field@tools[0].allowedDomains', 'dropped-field@tools[0].cache_control']);
  });

  it('Claude web_search -> Gemini googleSearch: blocked domains become excludeDomains, the rest reported', () => {
    const { body, warnings } = translate(claude, gemini, {
      ...claudeRequest,
      tools: [{ type: 'web_search_20260209', name: 'web_search', blocked_domains: ['spam.test'], user_location: { type: 'approximate', country: 'FR' } }],
    });
    expect(body.tools).toEqual([{ googleSearch: { excludeDomains: ['spam.test'] } }]);
    expect(warnings).toEqual(['dropped-field@tools[0].userLocation']);
  });

  it('Responses web_search -> Claude: context size reported; a preview tool crosses the same way', () => {
    const tool = {
      type: 'web_search',
      search_context_size: 'high',
      filters: { allowed_domains: ['a.test'] },
      user_location: { type: 'approximate', country: 'DE' },
    };
    const { body, warnings } = translate(openaiResponses, claude, { model: 'm', input: question, tools: [tool] });
    expect(body.tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search', allowed_domains: ['a.test'], user_location: { type: 'approximate', country: 'DE' } },
    ]);
    expect(warnings).toEqual(['defaulted@max_tokens', 'dropped-field@tools[0].contextSize']);
    const preview = translate(openaiResponses, claude, { model: 'm', input: question, tools: [{ type: 'web_search_preview', search_context_size: 'low' }] });
    expect(preview.body.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search' }]);
    expect(preview.warnings).toEqual(['defaulted@max_tokens', 'dropped-field@tools[0].contextSize']);
  });

  it('Chat web_search_options -> Responses web_search and Gemini googleSearch, next to the function tools', () => {
    const chatRequest = {
      model: 'm',
      messages: [{ role: 'user', content: question }],
      tools: [{ type: 'function', function: { name: 'read', parameters: { type: 'object', properties: {} } } }],
      web_search_options: { search_context_size: 'medium', user_location: { type: 'approximate', approximate: { country: 'GB' } } },
    };
    const responses = translate(openaiChat, openaiResponses, chatRequest);
    expect(responses.body.tools).toEqual([
      { type: 'function', name: 'read', parameters: { type: 'object', properties: {} }, strict: false },
      { type: 'web_search', search_context_size: 'medium', user_location: { type: 'approximate', country: 'GB' } },
    ]);
    expect(responses.warnings).toEqual([]);
    const google = translate(openaiChat, gemini, chatRequest);
    expect(google.body.tools).toEqual([
      { functionDeclarations: [{ name: 'read', parametersJsonSchema: { type: 'object', properties: {} } }] },
      { googleSearch: {} },
    ]);
    expect(google.warnings).toEqual(['dropped-field@tools[1].userLocation', 'dropped-field@tools[1].contextSize']);
  });

  it('Gemini googleSearch -> Claude, Responses and Chat; its own settings reported by name', () => {
    const geminiRequest = {
      contents: [{ role: 'user', parts: [{ text: question }] }],
      tools: [{ googleSearch: { excludeDomains: ['spam.test'], timeRangeFilter: { startTime: '2026-01-01T00:00:00Z' } } }],
    };
    const toClaude = translate(gemini, claude, geminiRequest);
    expect(toClaude.body.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', blocked_domains: ['spam.test'] }]);
    expect(toClaude.warnings).toEqual(['defaulted@max_tokens', 'dropped-field@tools[0].timeRangeFilter']);
    const toResponses = translate(gemini, openaiResponses, geminiRequest);
    expect(toResponses.body.tools).toEqual([{ type: 'web_search' }]);
    expect(toResponses.warnings).toEqual(['dropped-field@tools[0].blockedDomains', 'dropped-field@tools[0].timeRangeFilter']);
    const toChat = translate(gemini, openaiChat, geminiRequest);
    expect(toChat.body.tools).toBeUndefined();
    expect(toChat.body.web_search_options).toEqual({});
    expect(toChat.warnings).toEqual(['dropped-field@tools[0].blockedDomains', 'dropped-field@tools[0].timeRangeFilter']);
  });

  it('a tool_choice forcing the web search: the Responses hosted-tool choice; Chat and Gemini cannot force it (reported)', () => {
    const read = { name: 'read', input_schema: { type: 'object', properties: {} } };
    const forced = { ...claudeRequest, tools: [{ type: 'web_search_20250305', name: 'web_search' }, read], tool_choice: { type: 'tool', name: 'web_search' } };
    expect(translate(claude, openaiResponses, forced).body.tool_choice).toEqual({ type: 'web_search_preview' });
    const chat = translate(claude, openaiChat, forced);
    expect([chat.body.tool_choice, chat.body.web_search_options]).toEqual(['auto', {}]);
    expect(chat.warnings).toEqual(['dropped-field@tool_choice']);
    const google = translate(claude, gemini, forced);
    expect(google.body.toolConfig).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(google.warnings).toEqual(['dropped-field@tool_choice']);
    // With no other tool there is no choice left to send.
    const alone = translate(claude, openaiChat, { ...forced, tools: [forced.tools[0]] });
    expect(alone.body.tool_choice).toBeUndefined();
    expect(alone.warnings).toEqual(['dropped-field@tool_choice']);
  });

  it('same-protocol round trips stay exact, every version and spelling', () => {
    const claudeTools = [
      claudeRequest.tools[0],
      {
        type: 'web_search_20260318',
        name: 'web_search',
        max_uses: null,
        user_location: { type: 'approximate', city: null, country: 'FR' },
        allowed_callers: ['direct'],
      },
    ];
    expect(claude.request.encode(claude.request.decode({ ...claudeRequest, tools: claudeTools }))).toEqual({ ...claudeRequest, tools: claudeTools });
    const responsesTools = [
      { type: 'web_search_preview_2025_03_11', search_context_size: 'low', user_location: { type: 'approximate', city: 'Oslo' } },
      { type: 'web_search_2025_08_26', filters: { allowed_domains: ['a.test'] } },
      { type: 'web_search', filters: null, user_location: null },
    ];
    const responsesRequest = { model: 'm', input: question, tools: responsesTools };
    expect(openaiResponses.request.encode(openaiResponses.request.decode(responsesRequest))).toEqual(responsesRequest);
    const geminiRequest = {
      contents: [{ role: 'user', parts: [{ text: question }] }],
      tools: [{ google_search: { exclude_domains: ['a.test'] } }, { googleSearch: {}, codeExecution: {} }],
    };
    expect(gemini.request.encode(gemini.request.decode(geminiRequest, { model: 'm' }), { model: 'm' })).toEqual(geminiRequest);
  });
});
