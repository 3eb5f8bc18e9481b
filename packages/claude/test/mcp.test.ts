// The MCP connector: mcp_servers with their mcp_toolset tools, mcp_tool_use / mcp_tool_result
// blocks in history, answers and streams (the SDK's BetaMessageStream accumulates them), and the
// anthropic-beta header a body with MCP servers needs.
import Anthropic from '@anthropic-ai/sdk';
import { LlmError, accumulateEvents, collectSse, encodeSse, responseToEvents, type LlmRequest, type LlmResponse, type LlmWarning } from '@llm/core';
import { collect, runTransform, streamOf } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';

const USE = { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'ask_question', server_name: 'deepwiki', input: { question: 'What is MCP?' } };
const RESULT = { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', is_error: false, content: [{ type: 'text', text: 'A protocol.' }] };
const CALL_PART = { type: 'mcp-call', id: 'mcptoolu_1', server: 'deepwiki', name: 'ask_question', arguments: { question: 'What is MCP?' } } as const;
const RESULT_PART = { type: 'mcp-result', callId: 'mcptoolu_1', content: [{ type: 'text', text: 'A protocol.' }], isError: false } as const;

describe('mcp_servers and mcp_toolset', () => {
  it('decodes servers with their toolsets (an allowlist is canonical, the rest kept) and history blocks; encodes them back exactly', () => {
    const body = {
      model: 'claude-sonnet-4-6',
      max_tokens: 1000,
      messages: [
        { role: 'user', content: 'What is MCP?' },
        { role: 'assistant', content: [USE, RESULT, { type: 'text', text: 'MCP is a protocol.' }] },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [
        { name: 'f', input_schema: { type: 'object' } },
        { type: 'mcp_toolset', mcp_server_name: 'deepwiki', default_config: { enabled: false }, configs: { ask_question: { enabled: true } } },
        { type: 'mcp_toolset', mcp_server_name: 'docs', default_config: { defer_loading: true }, configs: { drop: { enabled: false } } },
      ],
      mcp_servers: [
        { type: 'url', url: 'https://docs.example/mcp', name: 'docs' },
        { type: 'url', url: 'https://mcp.deepwiki.com/mcp', name: 'deepwiki', authorization_token: 'tok' },
      ],
    };
    const request = claude.request.decode(body);
    expect(request.tools).toEqual([
      { type: 'function', name: 'f', parameters: { type: 'object' } },
      {
        type: 'mcp',
        name: 'deepwiki',
        url: 'https://mcp.deepwiki.com/mcp',
        authorization: 'tok',
        allowedTools: ['ask_question'],
        extensions: { claude: { $server: 1 } },
      },
      {
        type: 'mcp',
        name: 'docs',
        url: 'https://docs.example/mcp',
        extensions: { claude: { $server: 0, mcp_toolset: { default_config: { defer_loading: true }, configs: { drop: { enabled: false } } } } },
      },
    ]);
    expect(request.messages[1]).toEqual({ role: 'assistant', content: [CALL_PART, RESULT_PART, { type: 'text', text: 'MCP is a protocol.' }] });
    expect(request.extensions).toBeUndefined();
    expect(claude.request.encode(request)).toEqual(body);
  });

  it('keeps the deprecated form (tool_configuration on the server, no toolset)', () => {
    const body = {
      model: 'm',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
      mcp_servers: [{ type: 'url', url: 'https://a.example/sse', name: 'a', tool_configuration: { enabled: true, allowed_tools: ['t1'] } }],
    };
    const request = claude.request.decode(body);
    expect(request.tools).toEqual([
      { type: 'mcp', name: 'a', url: 'https://a.example/sse', allowedTools: ['t1'], extensions: { claude: { $server: 0, $enabled: true, $noToolset: true } } },
    ]);
    expect(claude.request.encode(request)).toEqual(body);
  });

  it('writes another protocol MCP server in the toolset form and reports what Claude cannot say', () => {
    const warnings: LlmWarning[] = [];
    const request: LlmRequest = {
      model: 'claude-sonnet-4-6',
      maxOutputTokens: 100,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Go' }] },
        {
          role: 'assistant',
          content: [
            { type: 'mcp-list-tools', id: 'mcpl_1', server: 'wiki', tools: [] },
            { type: 'mcp-call', id: 'mcp_1', server: 'wiki', name: 'ask', arguments: '{"q":"x"}' },
            { type: 'mcp-result', callId: 'mcp_1', content: 'boom', isError: true },
            { type: 'mcp-approval-request', id: 'mcpr_1', server: 'wiki', name: 'write', arguments: '{}' },
          ],
        },
        { role: 'user', content: [{ type: 'mcp-approval-response', approvalRequestId: 'mcpr_1', approve: true }] },
      ],
      tools: [
        {
          type: 'mcp',
          name: 'wiki',
          url: 'https://wiki.example/mcp',
          headers: { Authorization: 'Bearer abc', 'X-Team': 'a' },
          allowedTools: ['ask', 'write'],
          requireApproval: { never: ['ask'] },
          description: 'A wiki',
          extensions: { 'openai-responses': { defer_loading: true } },
        },
        { type: 'mcp', name: 'drive', extensions: { 'openai-responses': { connector_id: 'connector_googledrive' } } },
      ],
      toolChoice: { type: 'tool', name: 'wiki' },
    };
    expect(claude.request.encode(request, { warn: (w) => warnings.push(w) })).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Go' }] },
        {
          role: 'assistant',
          content: [
            { type: 'mcp_tool_use', id: 'mcp_1', name: 'ask', server_name: 'wiki', input: { q: 'x' } },
            { type: 'mcp_tool_result', tool_use_id: 'mcp_1', content: 'boom', is_error: true },
          ],
        },
        // The turn of approvals only is left out (Claude refuses an empty turn).
      ],
      tools: [
        { type: 'mcp_toolset', mcp_server_name: 'wiki', default_config: { enabled: false }, configs: { ask: { enabled: true }, write: { enabled: true } } },
      ],
      mcp_servers: [{ type: 'url', url: 'https://wiki.example/mcp', name: 'wiki', authorization_token: 'abc' }],
      tool_choice: { type: 'any' },
    });
    const lost = 'Claude answers carry no MCP tool list, and Claude has no approval step';
    expect(warnings).toEqual([
      { code: 'dropped-part', path: 'messages[1].content[0]', message: `an MCP tool list has no claude form (${lost})`, protocol: 'claude' },
      { code: 'dropped-part', path: 'messages[1].content[3]', message: `an MCP approval request has no claude form (${lost})`, protocol: 'claude' },
      { code: 'dropped-part', path: 'messages[2].content[0]', message: `an MCP approval response has no claude form (${lost})`, protocol: 'claude' },
      { code: 'lossy-conversion', path: 'tool_choice', message: 'Claude cannot force one MCP server: a tool call is required instead', protocol: 'claude' },
      {
        code: 'dropped-field',
        path: 'tools[0].defer_loading',
        message: 'openai-responses mcp field defer_loading has no claude equivalent',
        protocol: 'claude',
      },
      { code: 'dropped-field', path: 'tools[0].headers', message: 'Claude sends an MCP server only a bearer token, no other headers', protocol: 'claude' },
      {
        code: 'dropped-field',
        path: 'tools[0].requireApproval',
        message: 'Claude has no approval step: MCP calls run without asking the client',
        protocol: 'claude',
      },
      { code: 'dropped-field', path: 'tools[0].description', message: 'Claude has no MCP server description', protocol: 'claude' },
      { code: 'dropped-field', path: 'tools[1].connector_id', message: 'openai-responses mcp field connector_id has no claude equivalent', protocol: 'claude' },
      { code: 'dropped-tool', path: 'tools[1]', message: 'MCP server drive has no URL (a connector), which Claude needs', protocol: 'claude' },
    ]);
  });

  it('asks for the connector beta a body needs, keeping a version the client chose', () => {
    const headersFor = claude.http.headersFor!;
    const toolsetBody = { mcp_servers: [{ type: 'url', url: 'u', name: 'a' }], tools: [{ type: 'mcp_toolset', mcp_server_name: 'a' }] };
    expect(headersFor(toolsetBody, undefined)).toEqual({ 'anthropic-beta': 'mcp-client-2025-11-20' });
    expect(headersFor(toolsetBody, { 'Anthropic-Beta': 'context-1m-2025-08-07', 'x-a': '1' })).toEqual({
      'Anthropic-Beta': 'context-1m-2025-08-07,mcp-client-2025-11-20',
      'x-a': '1',
    });
    expect(headersFor({ mcp_servers: [{ type: 'url', url: 'u', name: 'a' }] }, { 'anthropic-beta': 'x' })).toEqual({
      'anthropic-beta': 'x,mcp-client-2025-04-04',
    });
    expect(headersFor(toolsetBody, { 'anthropic-beta': 'mcp-client-2026-09-15' })).toEqual({ 'anthropic-beta': 'mcp-client-2026-09-15' });
    expect(headersFor({ messages: [] }, { a: 'b' })).toEqual({ a: 'b' });
  });
});

const ANSWER = {
  id: 'msg_mcp',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-6',
  content: [USE, RESULT, { type: 'text', text: 'MCP is a protocol.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 5 },
};

describe('MCP blocks in answers and streams', () => {
  it('decodes an answer with a call and its result and encodes it back', () => {
    const response = claude.response.decode(ANSWER);
    expect(response.choices[0]!.content).toEqual([CALL_PART, RESULT_PART, { type: 'text', text: 'MCP is a protocol.' }]);
    expect(claude.response.encode(response)).toMatchObject({ content: ANSWER.content, stop_reason: 'end_turn' });
  });

  it('reads an mcp_tool_listing block as an MCP tool list, written back as it came (a foreign list is dropped, reported)', () => {
    const listing = {
      type: 'mcp_tool_listing',
      mcp_server_name: 'deepwiki',
      tools: [{ name: 'ask_question', description: 'Ask', input_schema: { type: 'object' } }],
    };
    const response = claude.response.decode({ ...ANSWER, content: [listing, ...ANSWER.content] });
    expect(response.choices[0]!.content[0]).toEqual({
      type: 'mcp-list-tools',
      id: 'mcpl_deepwiki',
      server: 'deepwiki',
      tools: [{ name: 'ask_question', description: 'Ask', inputSchema: { type: 'object' } }],
      extensions: { claude: { $listing: true } },
    });
    expect((claude.response.encode(response) as { content: unknown[] }).content).toEqual([listing, ...ANSWER.content]);
    const odd = { ...listing, tools: [{ name: 't', input_schema: {}, description: null }] };
    expect(claude.response.encode(claude.response.decode({ ...ANSWER, content: [odd] }))).toMatchObject({ content: [odd] });
  });

  it('streams a call (input as input_json_delta) and its result; BetaMessageStream accumulates the answer; decoding gives the parts back', async () => {
    const foreign: LlmResponse = {
      id: 'msg_x',
      model: 'claude-sonnet-4-6',
      choices: [
        {
          index: 0,
          content: [
            { type: 'mcp-call', id: 'mcp_1', server: 'wiki', name: 'ask', arguments: '{"q":"x"}' },
            { type: 'mcp-result', callId: 'mcp_1', content: 'An answer.' },
            { type: 'text', text: 'Done.' },
          ],
          finishReason: 'stop',
        },
      ],
      usage: { inputTokens: 3, outputTokens: 4 },
    };
    const sse = await runTransform(claude.stream.encode(), responseToEvents(foreign));
    expect(sse.slice(1, 7).map((event) => JSON.parse(event.data))).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'mcp_tool_use', id: 'mcp_1', name: 'ask', server_name: 'wiki', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"q":"x"}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'mcp_tool_result', tool_use_id: 'mcp_1', content: 'An answer.', is_error: false } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
    ]);
    const chunks = await collect(streamOf(sse).pipeThrough(encodeSse()));
    const client = new Anthropic({
      apiKey: 'k',
      maxRetries: 0,
      fetch: async () => new Response(new Blob(chunks as Uint8Array<ArrayBuffer>[]), { headers: { 'content-type': 'text/event-stream' } }),
    });
    const final = await client.beta.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).finalMessage();
    expect(final.content).toEqual([
      { type: 'mcp_tool_use', id: 'mcp_1', name: 'ask', server_name: 'wiki', input: { q: 'x' } },
      { type: 'mcp_tool_result', tool_use_id: 'mcp_1', content: 'An answer.', is_error: false },
      { type: 'text', text: 'Done.' },
    ]);
    const decoded = accumulateEvents(await runTransform(claude.stream.decode(), await collectSse(streamOf(chunks))));
    expect(decoded.choices[0]!.content).toEqual([
      { type: 'mcp-call', id: 'mcp_1', server: 'wiki', name: 'ask', arguments: { q: 'x' } },
      { type: 'mcp-result', callId: 'mcp_1', content: 'An answer.', isError: false },
      { type: 'text', text: 'Done.' },
    ]);
  });
});

describe('hostile MCP input', () => {
  it('is refused with the path of what is wrong (400 in a request, 502 in an answer); a stream ends with an upstream error', async () => {
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof LlmError ? { kind: error.kind, status: error.status, path: error.path } : error;
      }
      return 'accepted';
    };
    const history = (block: unknown) => ({ model: 'm', max_tokens: 1, messages: [{ role: 'assistant', content: [block] }] });
    expect(refusal(() => claude.request.decode(history({ type: 'mcp_tool_use', id: 'x', name: 'a', input: {} })))).toEqual({
      kind: 'invalid_request',
      status: 400,
      path: 'messages[0].content[0].server_name',
    });
    expect(refusal(() => claude.request.decode(history({ type: 'mcp_tool_result', tool_use_id: 'x', is_error: 'no' })))).toEqual({
      kind: 'invalid_request',
      status: 400,
      path: 'messages[0].content[0].is_error',
    });
    expect(
      refusal(() => claude.response.decode({ ...ANSWER, content: [{ type: 'mcp_tool_use', id: 'x', name: 'a', server_name: 's', input: 'text' }] })),
    ).toMatchObject({
      kind: 'upstream',
      status: 502,
    });
    // A server list of another kind stays whole (with its toolsets), nothing thrown.
    const odd = {
      model: 'm',
      max_tokens: 1,
      messages: [],
      mcp_servers: [{ type: 'stdio', name: 'x' }],
      tools: [{ type: 'mcp_toolset', mcp_server_name: 'x' }],
    };
    expect(claude.request.encode(claude.request.decode(odd))).toEqual(odd);
    const sse = [
      { event: 'message_start', data: JSON.stringify({ type: 'message_start', message: { id: 'm', model: 'c', content: [], usage: {} } }) },
      {
        event: 'content_block_start',
        data: JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'mcp_tool_use', name: 'a', input: {} } }),
      },
      { event: 'content_block_stop', data: JSON.stringify({ type: 'content_block_stop', index: 0 }) },
    ];
    const events = await runTransform(claude.stream.decode(), sse);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { kind: 'upstream', status: 502 } });
  });
});
