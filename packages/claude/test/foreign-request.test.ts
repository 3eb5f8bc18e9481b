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
      // No thinking: Anthropic takes a budget of 1024 up to max_tokens - 1, and max_tokens is 900.
      output_config: { format: { type: 'json_schema', schema: { type: 'object' } } },
      tools: [{ name: 'f', description: 'd', input_schema: { type: 'object' }, strict: true }],
      tool_choice: { type: 'any' },
    });
    expect(warnings.map(({ code, path }) => [code, path])).toEqual([
      ['dropped-part', 'messages[2].content[1]'],
      ['dropped-part', 'messages[2].content[2]'],
      ['dropped-field', 'sampling.frequencyPenalty'],
      ['dropped-field', 'reasoning'],
      ['dropped-field', 'responseFormat.name'],
    ]);
    expect(warnings.find((warning) => warning.path === 'reasoning')?.message).toBe('thinking needs max_tokens above 1024 (it is 900): sent without thinking');
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

describe('a thinking budget from another protocol', () => {
  const encode = (maxOutputTokens: number | undefined, reasoning: LlmRequest['reasoning'], tools = false) => {
    const warnings: LlmWarning[] = [];
    const wire = claude.request.encode(
      {
        model: 'claude-sonnet-4-5',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Q' }] }],
        ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
        ...(tools ? { tools: [{ type: 'function' as const, name: 'f', parameters: { type: 'object' } }] } : {}),
        reasoning,
      },
      { warn: (warning) => warnings.push(warning) },
    );
    return { max_tokens: wire.max_tokens, thinking: wire.thinking, warnings: warnings.map(({ code, path, message }) => [code, path, message]) };
  };

  it("is fitted to Claude's bounds (1024 up to max_tokens - 1), tools or not, and the change reported", () => {
    expect(encode(8192, { enabled: true, budgetTokens: 512 })).toEqual({
      max_tokens: 8192,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      warnings: [['lossy-conversion', 'reasoning.budgetTokens', 'thinking budget 512 sent as 1024 (Anthropic takes 1024 up to max_tokens - 1)']],
    });
    for (const tools of [false, true]) {
      expect(encode(4096, { enabled: true, budgetTokens: 8000 }, tools)).toEqual({
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 4095 },
        warnings: [['lossy-conversion', 'reasoning.budgetTokens', 'thinking budget 8000 sent as 4095 (Anthropic takes 1024 up to max_tokens - 1)']],
      });
    }
  });

  it('with no output limit gets a max_tokens above it, and a budget inside the bounds goes as it is', () => {
    expect(encode(undefined, { enabled: true, budgetTokens: 8000 })).toEqual({
      max_tokens: 12096,
      thinking: { type: 'enabled', budget_tokens: 8000 },
      warnings: [['defaulted', 'max_tokens', 'Claude requires max_tokens; 12096 was used']],
    });
    expect(encode(undefined, { enabled: true, budgetTokens: 512 })).toEqual({
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      warnings: [
        ['defaulted', 'max_tokens', 'Claude requires max_tokens; 4096 was used'],
        ['lossy-conversion', 'reasoning.budgetTokens', 'thinking budget 512 sent as 1024 (Anthropic takes 1024 up to max_tokens - 1)'],
      ],
    });
  });

  it('is left out, reported, when max_tokens is 1024 or less (an effort as well as a budget)', () => {
    const left = ['dropped-field', 'reasoning', 'thinking needs max_tokens above 1024 (it is 1024): sent without thinking'];
    expect(encode(1024, { enabled: true, budgetTokens: 2000 })).toEqual({ max_tokens: 1024, thinking: undefined, warnings: [left] });
    expect(encode(1024, { enabled: true, effort: 'high' }).thinking).toBeUndefined();
    expect(encode(1025, { enabled: true, effort: 'high' }).thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
  });
});

describe("sampling from another protocol, fitted to Claude's bounds", () => {
  const encode = (request: Partial<LlmRequest>) => {
    const warnings: LlmWarning[] = [];
    const wire = claude.request.encode(
      { model: 'claude-sonnet-4-5', maxOutputTokens: 8192, messages: [{ role: 'user', content: [{ type: 'text', text: 'Q' }] }], ...request },
      { warn: (warning) => warnings.push(warning) },
    );
    const { temperature, top_p, top_k, thinking, tool_choice } = wire;
    return { sent: { temperature, top_p, top_k, thinking, tool_choice }, warnings: warnings.map(({ code, path, message }) => `${code} ${path}: ${message}`) };
  };
  const tools: LlmRequest['tools'] = [{ type: 'function', name: 'f', parameters: { type: 'object' } }];

  it('a temperature above 1 (OpenAI and Gemini go to 2) is sent as 1', () => {
    expect(encode({ sampling: { temperature: 1.5, topK: 5 } })).toEqual({
      sent: { temperature: 1, top_p: undefined, top_k: 5, thinking: undefined, tool_choice: undefined },
      warnings: ['lossy-conversion sampling.temperature: temperature 1.5 was sent as 1, the highest Claude takes'],
    });
    expect(encode({ sampling: { temperature: 0.7 } }).warnings).toEqual([]);
  });

  it('temperature and top_p together (current Claude models refuse both): top_p is left out', () => {
    expect(encode({ sampling: { temperature: 0.7, topP: 0.9 } })).toEqual({
      sent: { temperature: 0.7, top_p: undefined, top_k: undefined, thinking: undefined, tool_choice: undefined },
      warnings: ['dropped-field sampling.topP: Claude takes temperature or top_p, not both: top_p was left out'],
    });
    expect(encode({ sampling: { topP: 0.9 } }).warnings).toEqual([]);
  });

  it('beside thinking, a temperature other than 1, top_k and a top_p below 0.95 are left out', () => {
    expect(encode({ sampling: { temperature: 0, topP: 0.9, topK: 40 }, reasoning: { enabled: true, budgetTokens: 2048 } })).toEqual({
      sent: { temperature: undefined, top_p: undefined, top_k: undefined, thinking: { type: 'enabled', budget_tokens: 2048 }, tool_choice: undefined },
      warnings: [
        'dropped-field sampling.temperature: Claude takes no temperature but 1 beside thinking',
        'dropped-field sampling.topK: Claude takes no top_k beside thinking',
        'dropped-field sampling.topP: Claude takes top_p of 0.95 to 1 beside thinking',
      ],
    });
    expect(encode({ sampling: { topP: 0.95 }, reasoning: { adaptive: true } })).toEqual({
      sent: { temperature: undefined, top_p: 0.95, top_k: undefined, thinking: { type: 'adaptive' }, tool_choice: undefined },
      warnings: [],
    });
    expect(encode({ sampling: { temperature: 1 }, reasoning: { adaptive: true } }).warnings).toEqual([]);
    // Thinking off: any temperature of Claude's range goes.
    expect(encode({ sampling: { temperature: 0, topK: 40 }, reasoning: { enabled: false } }).warnings).toEqual([]);
  });

  it('a forced tool call leaves thinking out, and the sampling with it stays', () => {
    expect(encode({ tools, toolChoice: { type: 'required' }, sampling: { temperature: 0 }, reasoning: { enabled: true, budgetTokens: 2048 } })).toEqual({
      sent: { temperature: 0, top_p: undefined, top_k: undefined, thinking: undefined, tool_choice: { type: 'any' } },
      warnings: ['dropped-field reasoning: Claude cannot think while a tool call is forced (tool_choice any or tool): sent without thinking'],
    });
  });

  it("a Claude client's own settings outside those bounds go back as they came", () => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      temperature: 0.2,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [{ role: 'user', content: 'Q' }],
    };
    expect(claude.request.encode(claude.request.decode(body))).toEqual(body);
  });
});
