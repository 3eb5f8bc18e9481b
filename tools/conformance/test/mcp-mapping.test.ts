// Hosted MCP across the two protocols that host it: a Responses client on a Claude upstream and a
// Claude client on a Responses upstream, requests (tools, history with calls, results and
// approvals), JSON answers and streams, with exact payloads and the losses each direction reports.
import { claude } from '@llm/claude';
import type { Codec } from '@llm/core';
import { openaiResponses } from '@llm/openai-responses';
import { bridge } from '@llm/router';
import { describe, expect, it } from 'vitest';

function translator(client: Codec, upstream: Codec) {
  const warnings: string[] = [];
  return { via: bridge({ client, upstream, warn: (warning) => warnings.push(`${warning.code}@${warning.path}`) }), warnings };
}

/** The client's SSE data payloads for the upstream streaming `upstreamAnswer`. */
async function streamed(client: Codec, upstream: Codec, request: unknown, upstreamAnswer: unknown) {
  const upstreamSse = bridge({ client: upstream, upstream }).responseToStream(structuredClone(upstreamAnswer));
  const { via, warnings } = translator(client, upstream);
  via.request(structuredClone(request));
  const text = await new Response(via.stream(upstreamSse)).text();
  const events = text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
  return { events, warnings };
}

const responsesRequest = {
  model: 'claude-sonnet-4-6',
  input: [
    { role: 'user', content: 'What is MCP?' },
    { type: 'mcp_list_tools', id: 'mcpl_1', server_label: 'deepwiki', tools: [{ name: 'ask_question', input_schema: { type: 'object' } }] },
    {
      type: 'mcp_call',
      id: 'mcp_1',
      server_label: 'deepwiki',
      name: 'ask_question',
      arguments: '{"question":"MCP"}',
      output: 'A protocol.',
      status: 'completed',
    },
    { type: 'mcp_approval_request', id: 'mcpr_1', server_label: 'deepwiki', name: 'read_wiki', arguments: '{}' },
    { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true },
  ],
  tools: [
    {
      type: 'mcp',
      server_label: 'deepwiki',
      server_url: 'https://mcp.deepwiki.com/mcp',
      authorization: 'tok',
      allowed_tools: ['ask_question', 'read_wiki'],
      require_approval: 'always',
    },
  ],
};

const claudeAnswer = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-6',
  content: [
    { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'ask_question', server_name: 'deepwiki', input: { question: 'MCP' } },
    { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', is_error: false, content: [{ type: 'text', text: 'A protocol.' }] },
    { type: 'text', text: 'MCP is a protocol.' },
  ],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 5 },
};

/** The Responses stream events without their sequence numbers and response snapshots. */
const bare = (events: Record<string, unknown>[]) => events.map(({ sequence_number: _n, response: _r, ...rest }) => rest);

describe('a Responses client on a Claude upstream', () => {
  it('sends the server as mcp_servers + mcp_toolset, the call and result as blocks, and reports tool lists and approvals', () => {
    const { via, warnings } = translator(openaiResponses, claude);
    expect(via.request(structuredClone(responsesRequest)).body).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 4096,
      messages: [
        { role: 'user', content: 'What is MCP?' },
        {
          role: 'assistant',
          content: [
            { type: 'mcp_tool_use', id: 'mcp_1', name: 'ask_question', server_name: 'deepwiki', input: { question: 'MCP' } },
            { type: 'mcp_tool_result', tool_use_id: 'mcp_1', content: 'A protocol.', is_error: false },
          ],
        },
      ],
      tools: [
        {
          type: 'mcp_toolset',
          mcp_server_name: 'deepwiki',
          default_config: { enabled: false },
          configs: { ask_question: { enabled: true }, read_wiki: { enabled: true } },
        },
      ],
      mcp_servers: [{ type: 'url', url: 'https://mcp.deepwiki.com/mcp', name: 'deepwiki', authorization_token: 'tok' }],
    });
    expect(warnings).toEqual([
      'defaulted@max_tokens',
      'dropped-part@messages[1].content[0]',
      'dropped-part@messages[1].content[3]',
      'dropped-part@messages[2].content[0]',
      'dropped-field@tools[0].requireApproval',
    ]);
    expect(claude.http.headersFor!(via.request(structuredClone(responsesRequest)).body, undefined)).toEqual({ 'anthropic-beta': 'mcp-client-2025-11-20' });
  });

  const call = {
    type: 'mcp_call',
    id: 'mcptoolu_1',
    server_label: 'deepwiki',
    name: 'ask_question',
    arguments: '{"question":"MCP"}',
    output: 'A protocol.',
    status: 'completed',
  };

  it('answers with one mcp_call item for the call and its result (JSON)', () => {
    const { via } = translator(openaiResponses, claude);
    via.request(structuredClone(responsesRequest));
    const body = via.response(structuredClone(claudeAnswer)) as { output: unknown[]; status: string };
    expect(body.status).toBe('completed');
    expect(body.output).toEqual([
      call,
      {
        type: 'message',
        id: 'msg_msg_1_2',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'MCP is a protocol.', annotations: [] }],
      },
    ]);
  });

  it("gives Claude's mcp_tool_listing as an mcp_list_tools item", () => {
    const { via } = translator(openaiResponses, claude);
    via.request(structuredClone(responsesRequest));
    const listing = { type: 'mcp_tool_listing', mcp_server_name: 'deepwiki', tools: [{ name: 'ask_question', input_schema: { type: 'object' } }] };
    const body = via.response({ ...structuredClone(claudeAnswer), content: [listing, ...claudeAnswer.content] }) as { output: unknown[] };
    expect(body.output.slice(0, 2)).toEqual([
      { type: 'mcp_list_tools', id: 'mcpl_deepwiki', server_label: 'deepwiki', tools: [{ name: 'ask_question', input_schema: { type: 'object' } }] },
      call,
    ]);
  });

  it('streams the mcp_call events the Responses API sends', async () => {
    const { events } = await streamed(openaiResponses, claude, responsesRequest, claudeAnswer);
    expect(bare(events).slice(0, 8)).toEqual([
      { type: 'response.created' },
      { type: 'response.in_progress' },
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'mcp_call', id: 'mcptoolu_1', server_label: 'deepwiki', name: 'ask_question', arguments: '', status: 'in_progress' },
      },
      { type: 'response.mcp_call.in_progress', item_id: 'mcptoolu_1', output_index: 0 },
      { type: 'response.mcp_call_arguments.delta', item_id: 'mcptoolu_1', output_index: 0, delta: '{"question":"MCP"}' },
      { type: 'response.mcp_call_arguments.done', item_id: 'mcptoolu_1', output_index: 0, arguments: '{"question":"MCP"}' },
      { type: 'response.mcp_call.completed', item_id: 'mcptoolu_1', output_index: 0 },
      { type: 'response.output_item.done', output_index: 0, item: call },
    ]);
    const completed = events.at(-1) as { type: string; response: { output: unknown[] } };
    expect(completed.type).toBe('response.completed');
    expect(completed.response.output[0]).toEqual(call);
  });
});

const claudeRequest = {
  model: 'gpt-5',
  max_tokens: 100,
  messages: [
    { role: 'user', content: 'What is MCP?' },
    {
      role: 'assistant',
      content: [
        { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'ask_question', server_name: 'deepwiki', input: { question: 'MCP' } },
        { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', is_error: true, content: 'down' },
      ],
    },
    { role: 'user', content: 'Try again' },
  ],
  tools: [{ type: 'mcp_toolset', mcp_server_name: 'deepwiki', default_config: { enabled: false }, configs: { ask_question: { enabled: true } } }],
  mcp_servers: [{ type: 'url', url: 'https://mcp.deepwiki.com/mcp', name: 'deepwiki', authorization_token: 'tok' }],
};
const responsesAnswer = {
  id: 'resp_1',
  object: 'response',
  created_at: 1750000000,
  status: 'completed',
  model: 'gpt-5',
  output: [
    { type: 'mcp_list_tools', id: 'mcpl_1', server_label: 'deepwiki', tools: [{ name: 'ask_question', input_schema: { type: 'object' } }] },
    {
      type: 'mcp_call',
      id: 'mcp_1',
      status: 'completed',
      approval_request_id: null,
      arguments: '{"question":"MCP"}',
      error: null,
      name: 'ask_question',
      output: 'A protocol.',
      server_label: 'deepwiki',
    },
    { type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'MCP is a protocol.', annotations: [] }] },
  ],
  usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
};
describe('a Claude client on a Responses upstream', () => {
  it('sends the server and its toolset allowlist as an mcp tool that needs no approval, the call and its error result as one mcp_call item', () => {
    const { via, warnings } = translator(claude, openaiResponses);
    expect(via.request(structuredClone(claudeRequest)).body).toEqual({
      model: 'gpt-5',
      input: [
        { type: 'message', role: 'user', content: 'What is MCP?' },
        {
          type: 'mcp_call',
          id: 'mcptoolu_1',
          server_label: 'deepwiki',
          name: 'ask_question',
          arguments: '{"question":"MCP"}',
          error: 'down',
          status: 'failed',
        },
        { type: 'message', role: 'user', content: 'Try again' },
      ],
      // Claude runs every call without asking: the Responses server must not wait for approvals (its default).
      tools: [
        {
          type: 'mcp',
          server_label: 'deepwiki',
          server_url: 'https://mcp.deepwiki.com/mcp',
          authorization: 'tok',
          require_approval: 'never',
          allowed_tools: ['ask_question'],
        },
      ],
      max_output_tokens: 100,
    });
    expect(warnings).toEqual([]);
  });

  const blocks = [
    { type: 'mcp_tool_use', id: 'mcp_1', name: 'ask_question', server_name: 'deepwiki', input: { question: 'MCP' } },
    { type: 'mcp_tool_result', tool_use_id: 'mcp_1', content: 'A protocol.', is_error: false },
    { type: 'text', text: 'MCP is a protocol.' },
  ];

  it('answers with mcp_tool_use + mcp_tool_result blocks; the tool list has no Claude block (reported)', () => {
    const { via, warnings } = translator(claude, openaiResponses);
    via.request(structuredClone(claudeRequest));
    expect(via.response(structuredClone(responsesAnswer))).toEqual({
      id: 'resp_1',
      type: 'message',
      role: 'assistant',
      model: 'gpt-5',
      content: blocks,
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    expect(warnings).toEqual(['dropped-part@choices[0].content[0]']);
  });

  it('streams the call with its input as input_json_delta, then the result', async () => {
    const { events, warnings } = await streamed(claude, openaiResponses, claudeRequest, responsesAnswer);
    expect(events.slice(1, 7)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { ...blocks[0], input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"question":"MCP"}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: blocks[1] },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
    ]);
    expect(warnings).toEqual(['dropped-part@blocks[0]']);
  });
});
