// A Claude upstream that cannot run MCP servers although Claude's protocol can (Claude on Bedrock
// or Vertex: `hostsMcp: false`): the router runs the client's MCP servers itself, as for a Chat
// upstream, and the upstream gets plain functions, never `mcp_servers`.
import { describe, expect, it } from 'vitest';
import { defaultCodecs } from '../src/registry.js';
import { claudeTextMessage } from './claude-answer.js';
import { DOCS_TOOLS, fakeHost, replyText, scriptedRouter } from './mcp-fakes.js';
import { answer } from './upstream-answer.js';

const json = (body: unknown) => answer(200, 'application/json', [JSON.stringify(body)]);
const MCP_TOOL = { type: 'mcp', server_label: 'docs', server_url: 'https://mcp.example/mcp', require_approval: 'never' };

function router(hostsMcp: boolean | undefined) {
  const host = fakeHost({ docs: DOCS_TOOLS });
  return scriptedRouter(
    {
      codecs: defaultCodecs(),
      upstreams: { up: { protocol: 'claude', baseUrl: 'http://up.test', apiKey: 'k', ...(hostsMcp !== undefined && { hostsMcp }) } },
      routes: [{ match: '*', upstream: 'up', model: 'claude-x' }],
      mcp: { host },
    },
    [
      json({
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-x',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'mcp__docs__search', input: { q: 'x' } }],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 5 },
      }),
      json(claudeTextMessage('Found.', 'claude-x', { input_tokens: 20, output_tokens: 3 })),
    ],
  );
}

describe('an upstream whose protocol hosts MCP but which cannot (hostsMcp: false)', () => {
  it('gets the MCP tools as functions and the router runs the calls', async () => {
    const { call, bodies } = router(false);
    const reply = await call('/v1/responses', { model: 'm', input: 'find x', tools: [MCP_TOOL] });
    expect(reply.status).toBe(200);
    const output = (JSON.parse(await replyText(reply)) as { output: { type: string }[] }).output;
    expect(output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
    const [first] = bodies();
    expect(first?.mcp_servers).toBeUndefined();
    expect((first?.tools as { name: string }[]).map((tool) => tool.name)).toEqual(['mcp__docs__search', 'mcp__docs__fetch']);
    expect(bodies()).toHaveLength(2);
  });

  it('by default (the Anthropic API) gets the server itself, in mcp_servers', async () => {
    const { call, bodies } = router(undefined);
    await call('/v1/responses', { model: 'm', input: 'find x', tools: [MCP_TOOL] });
    expect(bodies()[0]?.mcp_servers).toEqual([{ type: 'url', name: 'docs', url: 'https://mcp.example/mcp' }]);
  });
});
