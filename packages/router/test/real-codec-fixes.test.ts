// Translation fixes of issue 7 checked end to end over the real codecs (the fake-codec tests in
// translation-fixes.test.ts check the canonical functions alone).
import { claude } from '@llm/claude';
import { LlmError, type LlmWarning } from '@llm/core';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { describe, expect, it } from 'vitest';
import { bridge } from '../src/bridge.js';
import { createHandler, createRouter } from '../src/handler.js';
import { toResponse } from '../src/reply.js';
import { claudeTextMessage } from './claude-answer.js';

describe('translation fixes over the real codecs', () => {
  it("Claude Code's container, mcp_servers and context_management are reported when they cross to Chat, and refused in strict mode", () => {
    const body = {
      model: 'claude-x',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
      container: 'container_1',
      mcp_servers: [{ type: 'url', url: 'https://mcp.example/sse', name: 'docs' }],
      context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    };
    const warnings: LlmWarning[] = [];
    const out = bridge({ client: claude, upstream: openaiChat, warn: (w) => warnings.push(w) }).request(structuredClone(body));
    expect(Object.keys(out.body as object)).not.toContain('container');
    expect(warnings.filter((w) => w.protocol === 'claude').map((w) => `${w.code}@${w.path}`)).toEqual([
      'dropped-field@container',
      'dropped-field@context_management',
    ]);
    // The MCP server is a canonical MCP tool (issue 24), which Chat, hosting no MCP, reports as a dropped tool.
    expect(warnings.filter((w) => w.protocol === 'openai-chat').map((w) => `${w.code}@${w.path}`)).toEqual(['dropped-tool@tools[0]']);
    expect(() => bridge({ client: claude, upstream: openaiChat, strict: true }).request(structuredClone(body))).toThrow(
      /container: claude field container has no openai-chat equivalent/,
    );
    // A Claude upstream gets them back unchanged.
    const same = bridge({ client: claude, upstream: claude, transformRequest: (r) => r }).request(structuredClone(body));
    expect(same.body).toMatchObject({ container: 'container_1', mcp_servers: body.mcp_servers, context_management: body.context_management });
  });

  it('a system message in the middle of a Chat conversation reaches Claude as user text, reported', () => {
    const warnings: string[] = [];
    const via = bridge({ client: openaiChat, upstream: claude, warn: (warning: LlmWarning) => warnings.push(`${warning.code}@${warning.path}`) });
    const out = via.request({
      model: 'claude-sonnet-4-5',
      max_tokens: 10,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'system', content: 'Now answer in French.' },
        { role: 'user', content: 'c' },
      ],
    });
    expect(out.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 10,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Now answer in French.' },
            { type: 'text', text: 'c' },
          ],
        },
      ],
    });
    expect(warnings).toEqual(['lossy-conversion@messages[3]']);
  });

  it('tool_choice allowed keeps only the tools the target receives, reported', () => {
    const warnings: string[] = [];
    const via = bridge({ client: claude, upstream: openaiResponses, warn: (warning: LlmWarning) => warnings.push(`${warning.code}@${warning.path}`) });
    const read = { name: 'read', input_schema: { type: 'object' } };
    const out = via.request({
      model: 'gpt-4.1',
      max_tokens: 100,
      // bash is a Claude server tool with no cross-protocol form (web search now has one).
      tools: [{ type: 'bash_20250124', name: 'bash' }, read],
      tool_choice: { type: 'any' },
      messages: [{ role: 'user', content: 'a' }],
    }) as { body: Record<string, unknown> };
    // `any` names no tool: it stays forced (required) over the tools that remain.
    expect(out.body.tool_choice).toBe('required');
    expect(warnings).toEqual(['dropped-tool@tools[0]']);
  });

  it('strict mode: a loss becomes an unsupported error in the client shape before anything is sent', async () => {
    let called = false;
    const handler = createHandler({
      strict: true,
      codecs: { 'openai-chat': openaiChat, 'openai-responses': openaiResponses },
      upstreams: { responses: { protocol: 'openai-responses', baseUrl: 'http://upstream.test/v1', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'responses' }],
      transport: async () => {
        called = true;
        return new Response('{}');
      },
    });
    const response = await handler(
      new Request('http://router.test/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'a' }], stop: ['x'] }),
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { message: 'stop: Responses has no stop sequences', type: 'invalid_request_error', param: 'stop', code: 'dropped-field' },
    });
    expect(called).toBe(false);

    // The bridge alone throws the same way.
    const strictBridge = bridge({ client: openaiChat, upstream: openaiResponses, strict: true });
    expect(() => strictBridge.request({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'a' }], stop: ['x'] })).toThrowError(LlmError);
  });

  it('a Chat client asking include_usage of a Claude upstream gets the usage chunk without any policy configured', async () => {
    const message = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-up',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 1 },
    };
    const events = [
      { type: 'message_start', message },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } },
      { type: 'message_stop' },
    ];
    const sse = events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
    const route = createRouter({
      codecs: { 'openai-chat': openaiChat, claude },
      upstreams: { up: { protocol: 'claude', baseUrl: 'http://upstream.test', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'up', model: 'claude-up' }],
      transport: async () => new Response(sse, { headers: { 'content-type': 'text/event-stream' } }),
    });
    const call = (streamOptions: unknown) => ({
      method: 'POST',
      url: 'http://router.test/v1/chat/completions',
      headers: { get: () => null },
      text: async () =>
        JSON.stringify({
          model: 'gpt-4.1',
          stream: true,
          ...(streamOptions ? { stream_options: streamOptions } : {}),
          messages: [{ role: 'user', content: 'a' }],
        }),
    });
    const chunksOf = async (streamOptions: unknown) => {
      const reply = await route(call(streamOptions));
      const text = await new Response(toResponse(reply).body).text();
      return text
        .split('\n\n')
        .filter((frame) => frame.startsWith('data: {'))
        .map((frame) => JSON.parse(frame.slice(6)) as { choices: unknown[]; usage?: unknown });
    };
    const withUsage = await chunksOf({ include_usage: true });
    expect(withUsage.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } });
    const without = await chunksOf(undefined);
    expect(without.some((chunk) => chunk.usage !== undefined && chunk.usage !== null)).toBe(false);
  });
});

describe('headers the encoded upstream body needs', () => {
  it("a Responses client's MCP server reaches a Claude upstream with the MCP connector beta, appended to the client's betas on a Claude-to-Claude call", async () => {
    const seen: Record<string, string>[] = [];
    const route = createRouter({
      codecs: { 'openai-responses': openaiResponses, claude },
      upstreams: { up: { protocol: 'claude', baseUrl: 'http://upstream.test', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'up', model: 'claude-up' }],
      transport: async (request) => {
        seen.push(Object.fromEntries(Object.entries(request.headers ?? {}).filter(([name]) => name === 'anthropic-beta')));
        return Response.json(claudeTextMessage('ok', 'claude-up', { input_tokens: 1, output_tokens: 1 }));
      },
    });
    const responsesCall = {
      method: 'POST',
      url: 'http://router.test/v1/responses',
      headers: { get: () => null },
      text: async () =>
        JSON.stringify({
          model: 'm',
          input: 'hi',
          tools: [{ type: 'mcp', server_label: 'docs', server_url: 'https://mcp.example/mcp', require_approval: 'never' }],
        }),
    };
    expect((await route(responsesCall)).status).toBe(200);
    const claudeCall = {
      method: 'POST',
      url: 'http://router.test/v1/messages',
      headers: { get: (name: string) => (name === 'anthropic-beta' ? 'interleaved-thinking-2025-05-14' : null) },
      text: async () =>
        JSON.stringify({
          model: 'm',
          max_tokens: 10,
          messages: [{ role: 'user', content: 'hi' }],
          mcp_servers: [{ type: 'url', url: 'https://mcp.example/mcp', name: 'docs' }],
          tools: [{ type: 'mcp_toolset', mcp_server_name: 'docs' }],
        }),
    };
    expect((await route(claudeCall)).status).toBe(200);
    expect(seen).toEqual([{ 'anthropic-beta': 'mcp-client-2025-11-20' }, { 'anthropic-beta': 'interleaved-thinking-2025-05-14,mcp-client-2025-11-20' }]);
  });
});
