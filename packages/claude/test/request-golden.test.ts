import type { LlmRequest } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';

describe('request golden: the rest of the Messages request surface', () => {
  it('documents, images, search results, redacted thinking, adaptive thinking, output_config and the Claude-only fields', () => {
    const body = {
      model: 'claude-opus-4-6',
      max_tokens: 2048,
      system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://x.test/a.jpg' } },
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
              title: 'Spec',
              context: 'v2',
              citations: { enabled: true },
            },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Plain words.' } },
            { type: 'document', source: { type: 'file', file_id: 'file_01' } },
            { type: 'search_result', source: 'https://kb.test/1', title: 'KB', content: [{ type: 'text', text: 'Fact.' }], citations: { enabled: true } },
            { type: 'text', text: 'Summarise.', cache_control: { type: 'ephemeral' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'redacted_thinking', data: 'RDATA' },
            { type: 'text', text: 'Done.' },
          ],
        },
        { role: 'user', content: 'More.' },
      ],
      thinking: { type: 'adaptive' },
      output_config: {
        effort: 'high',
        format: { type: 'json_schema', schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false } },
      },
      metadata: { user_id: 'u-9' },
      service_tier: 'auto',
      cache_control: { type: 'ephemeral' },
      container: 'cntr_1',
      mcp_servers: [{ type: 'url', url: 'https://mcp.test', name: 'kb' }],
      context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
      temperature: 0.2,
      top_k: 5,
    };
    const expected: LlmRequest = {
      model: 'claude-opus-4-6',
      messages: [
        // System blocks (not a string) are remembered so that they are written back as blocks.
        { role: 'system', content: [{ type: 'text', text: 'You are terse.', cache: { ttl: '1h' } }], extensions: { claude: { $blocks: true } } },
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { kind: 'url', url: 'https://x.test/a.jpg' } },
            { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, title: 'Spec', context: 'v2', citations: true },
            { type: 'file', source: { kind: 'text', text: 'Plain words.', mediaType: 'text/plain' } },
            { type: 'file', source: { kind: 'file', fileId: 'file_01', provider: 'claude' } },
            // search_result has no canonical home: kept whole for Claude, reported elsewhere.
            { type: 'provider', protocol: 'claude', value: body.messages[0]!.content[5] },
            { type: 'text', text: 'Summarise.', cache: {} },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: '', redacted: true, signature: 'RDATA', origin: { protocol: 'claude' } },
            { type: 'text', text: 'Done.' },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'More.' }], stringContent: true },
      ],
      maxOutputTokens: 2048,
      sampling: { temperature: 0.2, topK: 5 },
      responseFormat: {
        type: 'json-schema',
        schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false },
      },
      reasoning: { adaptive: true, effort: 'high' },
      user: 'u-9',
      cache: {},
      serviceTier: 'auto',
      // A server without its mcp_toolset (the deprecated connector form) is an MCP tool, written back in that form.
      tools: [{ type: 'mcp', name: 'kb', url: 'https://mcp.test', extensions: { claude: { $server: 0, $noToolset: true } } }],
      extensions: {
        claude: {
          // temperature and top_k beside adaptive thinking, which Claude refuses: this client's own, written back as it came.
          $asSent: true,
          container: 'cntr_1',
          context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
        },
      },
    };
    const request = claude.request.decode(body);
    expect(request).toEqual(expected);
    expect(claude.request.encode(request)).toEqual(body);
  });
});
