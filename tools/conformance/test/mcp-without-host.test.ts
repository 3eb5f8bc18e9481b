// Chat, Gemini and Converse host no MCP (`traits.hostedMcp` false): the router runs the MCP loop
// for their upstreams, so their encoders see MCP tools and parts only when called directly. They
// leave them out and report each at its path, with one wording from core.
import { bedrockConverse } from '@llm/bedrock-converse';
import { claude } from '@llm/claude';
import type { Codec, LlmRequest, LlmWarning } from '@llm/core';
import { gemini } from '@llm/gemini';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { describe, expect, it } from 'vitest';

const request: LlmRequest = {
  model: 'm',
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Ask' }] },
    {
      role: 'assistant',
      content: [
        { type: 'mcp-call', id: 'mcp_1', server: 'wiki', name: 'ask', arguments: '{}' },
        { type: 'mcp-result', callId: 'mcp_1', content: 'ok' },
        { type: 'text', text: 'Done' },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'More' },
        { type: 'mcp-approval-response', approvalRequestId: 'mcpr_1', approve: true },
      ],
    },
  ],
  tools: [{ type: 'mcp', name: 'wiki', url: 'https://wiki.example/mcp' }],
};

/** What each codec without hosted MCP sends for `request`: the turns without MCP, and no tools at all. */
const bodies: Array<[Codec, Record<string, unknown>]> = [
  [
    openaiChat,
    {
      model: 'm',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Ask' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Done' }] },
        { role: 'user', content: [{ type: 'text', text: 'More' }] },
      ],
    },
  ],
  [
    gemini,
    {
      contents: [
        { role: 'user', parts: [{ text: 'Ask' }] },
        { role: 'model', parts: [{ text: 'Done' }] },
        { role: 'user', parts: [{ text: 'More' }] },
      ],
    },
  ],
  [
    bedrockConverse,
    {
      messages: [
        { role: 'user', content: [{ text: 'Ask' }] },
        { role: 'assistant', content: [{ text: 'Done' }] },
        { role: 'user', content: [{ text: 'More' }] },
      ],
    },
  ],
];

describe('MCP towards codecs without hosted MCP', () => {
  it('only Responses and Claude host MCP', () => {
    const hosts = [openaiChat, openaiResponses, claude, gemini, bedrockConverse].filter((codec) => codec.traits.hostedMcp).map((codec) => codec.id);
    expect(hosts).toEqual(['openai-responses', 'claude']);
  });

  it.each(bodies)('%s drops the server, the calls, results and approvals, each reported', (codec, body) => {
    const warnings: LlmWarning[] = [];
    expect(codec.request.encode(request, { warn: (warning) => warnings.push(warning) })).toEqual(body);
    const P = codec.id;
    const hostsNone = `has no ${P} form (${P} hosts no MCP)`;
    expect(warnings).toEqual([
      { code: 'dropped-part', path: 'messages[1].content[0]', message: `an MCP call ${hostsNone}`, protocol: P },
      { code: 'dropped-part', path: 'messages[1].content[1]', message: `an MCP result ${hostsNone}`, protocol: P },
      { code: 'dropped-part', path: 'messages[2].content[1]', message: `an MCP approval response ${hostsNone}`, protocol: P },
      { code: 'dropped-tool', path: 'tools[0]', message: `MCP server wiki ${hostsNone}`, protocol: P },
    ]);
  });
});
