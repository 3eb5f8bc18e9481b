import type { LlmWarning } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';

describe('crossing protocols', () => {
  it('Claude server tool blocks survive a Claude round trip as provider items; web search is the canonical hosted tool', () => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 2 }],
      messages: [
        { role: 'user', content: 'News?' },
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'news' } },
            {
              type: 'web_search_tool_result',
              tool_use_id: 'srvtoolu_1',
              content: [{ type: 'web_search_result', url: 'https://x.test', title: 'X', encrypted_content: 'E', page_age: null }],
            },
            { type: 'text', text: 'Here.' },
          ],
        },
      ],
    };
    const request = claude.request.decode(body);
    expect(request.tools).toEqual([{ type: 'web_search', name: 'web_search', maxUses: 2 }]);
    expect(request.messages[1]!.content.slice(0, 2)).toEqual([
      { type: 'provider', protocol: 'claude', value: body.messages[1]!.content[0] },
      { type: 'provider', protocol: 'claude', value: (body.messages[1]!.content as unknown[])[1] },
    ]);
    expect(claude.request.encode(request)).toEqual(body);
  });

  it('server items and tools of another protocol are dropped with a warning each', () => {
    const warnings: LlmWarning[] = [];
    const body = claude.request.encode(
      {
        model: 'm',
        maxOutputTokens: 100,
        tools: [
          { type: 'provider', protocol: 'openai-responses', name: 'web_search', value: { type: 'web_search' } },
          { type: 'function', name: 'f', parameters: { type: 'object' } },
        ],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'News?' }] },
          {
            role: 'assistant',
            content: [
              { type: 'provider', protocol: 'openai-responses', value: { type: 'web_search_call', id: 'ws_1', status: 'completed' } },
              { type: 'text', text: 'Here.' },
            ],
          },
        ],
      },
      { warn: (warning) => warnings.push(warning) },
    );
    expect(body.tools).toEqual([{ name: 'f', input_schema: { type: 'object' } }]);
    expect(body.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Here.' }] });
    expect(warnings.map(({ code, path }) => [code, path])).toEqual([
      ['dropped-part', 'messages[1].content[0]'],
      ['dropped-tool', 'tools[0]'],
    ]);
  });
});
