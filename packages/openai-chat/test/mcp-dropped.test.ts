// Chat hosts no MCP: the router runs the MCP loop for Chat upstreams, so this encoder only sees
// MCP tools and parts when called directly; it leaves them out and says where.
import { responseToEvents, type LlmRequest, type LlmResponse, type LlmWarning } from '@llm/core';
import { collect, streamOf } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiChat } from '../src/index.js';

const P = 'openai-chat';
const mcpWarning = (code: string, path: string, what: string) => ({ code, path, message: `${what} has no ${P} form (${P} hosts no MCP)`, protocol: P });

describe('MCP tools and parts towards Chat', () => {
  it('drops a choice forcing an MCP server (the server itself: tools/conformance mcp-without-host)', () => {
    const warnings: LlmWarning[] = [];
    const request: LlmRequest = {
      model: 'gpt-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Ask' }] }],
      tools: [{ type: 'mcp', name: 'wiki', url: 'https://wiki.example/mcp' }],
      toolChoice: { type: 'tool', name: 'wiki' },
    };
    expect(openaiChat.request.encode(request, { warn: (w) => warnings.push(w) })).toEqual({
      model: 'gpt-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Ask' }] }],
    });
    expect(warnings).toEqual([
      mcpWarning('dropped-tool', 'tools[0]', 'MCP server wiki'),
      { code: 'dropped-field', path: 'tool_choice', message: `${P} cannot force a hosted tool; left out of tool_choice`, protocol: P },
    ]);
  });

  it('drops MCP parts of an answer and of a stream', async () => {
    const response: LlmResponse = {
      id: 'r1',
      model: 'gpt-5',
      created: 1,
      choices: [
        {
          index: 0,
          content: [
            { type: 'mcp-list-tools', id: 'mcpl_1', server: 'wiki', tools: [] },
            { type: 'text', text: 'Hi' },
          ],
          finishReason: 'stop',
        },
      ],
    };
    const warnings: LlmWarning[] = [];
    const body = openaiChat.response.encode(response, { warn: (w) => warnings.push(w) }) as { choices: Array<{ message: unknown }> };
    expect(body.choices[0]!.message).toEqual({ role: 'assistant', content: 'Hi', refusal: null });
    expect(warnings).toEqual([mcpWarning('dropped-part', 'choices[0].content[0]', 'an MCP tool list')]);

    const streamed: LlmWarning[] = [];
    const events = await collect(streamOf(responseToEvents(response)).pipeThrough(openaiChat.stream.encode({ warn: (w) => streamed.push(w) })));
    expect(events.map((event) => (event.data === '[DONE]' ? event.data : JSON.parse(event.data).choices))).toEqual([
      [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
      [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }],
      [{ index: 0, delta: {}, finish_reason: 'stop' }],
      '[DONE]',
    ]);
    expect(streamed).toEqual([mcpWarning('dropped-part', 'blocks[0]', 'an MCP tool list')]);
  });
});
