// Hosted MCP in Responses: the `mcp` tool, `tool_choice` naming a server, the MCP items in input
// and output, and their streams, exact both ways and accepted by the openai SDK's accumulator.
import { LlmError, accumulateEvents, collectSse, encodeSse, responseToEvents, type LlmRequest, type LlmResponse, type LlmWarning } from '@llm/core';
import { collect, runTransform, streamOf } from '@llm/test-utils';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

const P = 'openai-responses';

const LIST_ITEM = {
  type: 'mcp_list_tools',
  id: 'mcpl_1',
  server_label: 'deepwiki',
  tools: [{ name: 'ask_question', input_schema: { type: 'object', properties: { question: { type: 'string' } } }, description: 'Ask', annotations: null }],
  error: null,
};
const CALL_ITEM = {
  type: 'mcp_call',
  id: 'mcp_1',
  status: 'completed',
  approval_request_id: null,
  arguments: '{"question":"What is MCP?"}',
  error: null,
  name: 'ask_question',
  output: 'A protocol.',
  server_label: 'deepwiki',
};
const FAILED_CALL_ITEM = { type: 'mcp_call', id: 'mcp_2', arguments: '{}', error: 'tool crashed', name: 'ask_question', server_label: 'deepwiki' };
const APPROVAL_ITEM = { type: 'mcp_approval_request', id: 'mcpr_1', arguments: '{"repo":"x"}', name: 'read_wiki', server_label: 'deepwiki' };

const LIST_PART = {
  type: 'mcp-list-tools',
  id: 'mcpl_1',
  server: 'deepwiki',
  tools: [{ name: 'ask_question', inputSchema: { type: 'object', properties: { question: { type: 'string' } } }, description: 'Ask', annotations: null }],
  extensions: { [P]: { error: null } },
} as const;
const CALL_PART = {
  type: 'mcp-call',
  id: 'mcp_1',
  server: 'deepwiki',
  name: 'ask_question',
  arguments: '{"question":"What is MCP?"}',
  extensions: { [P]: { status: 'completed', approval_request_id: null, error: null } },
} as const;
const RESULT_PART = { type: 'mcp-result', callId: 'mcp_1', content: 'A protocol.' } as const;
const APPROVAL_PART = { type: 'mcp-approval-request', id: 'mcpr_1', server: 'deepwiki', name: 'read_wiki', arguments: '{"repo":"x"}' } as const;

describe('the mcp tool', () => {
  it('maps every canonical setting both ways and keeps the rest for Responses', () => {
    const body = {
      model: 'gpt-5',
      input: 'hi',
      tools: [
        {
          type: 'mcp',
          server_label: 'deepwiki',
          server_url: 'https://mcp.deepwiki.com/mcp',
          authorization: 'tok',
          headers: { 'X-Team': 'a' },
          allowed_tools: ['ask_question'],
          require_approval: { always: { tool_names: ['read_wiki'] }, never: { tool_names: ['ask_question'] } },
          server_description: 'Docs of public repos',
        },
        {
          type: 'mcp',
          server_label: 'drive',
          connector_id: 'connector_googledrive',
          defer_loading: true,
          allowed_tools: { tool_names: ['search'], read_only: true },
          require_approval: 'never',
        },
        {
          type: 'mcp',
          server_label: 'ro',
          server_url: 'https://ro.example/mcp',
          allowed_tools: { read_only: true },
          require_approval: { always: { read_only: false } },
        },
      ],
      tool_choice: { type: 'mcp', server_label: 'deepwiki' },
    };
    const request = openaiResponses.request.decode(body);
    expect(request.tools).toEqual([
      {
        type: 'mcp',
        name: 'deepwiki',
        url: 'https://mcp.deepwiki.com/mcp',
        authorization: 'tok',
        headers: { 'X-Team': 'a' },
        allowedTools: ['ask_question'],
        requireApproval: { always: ['read_wiki'], never: ['ask_question'] },
        description: 'Docs of public repos',
      },
      {
        type: 'mcp',
        name: 'drive',
        allowedTools: ['search'],
        requireApproval: 'never',
        extensions: { [P]: { connector_id: 'connector_googledrive', defer_loading: true, $filter: true, allowed_tools: { read_only: true } } },
      },
      {
        type: 'mcp',
        name: 'ro',
        url: 'https://ro.example/mcp',
        extensions: { [P]: { allowed_tools: { read_only: true }, require_approval: { always: { read_only: false } } } },
      },
    ]);
    expect(request.toolChoice).toEqual({ type: 'tool', name: 'deepwiki' });
    expect(openaiResponses.request.encode(request)).toEqual(body);
  });

  it("reads a server without require_approval as approval always (Responses' default), not written back; another protocol's server is sent with never", () => {
    const body = { model: 'gpt-5', input: 'hi', tools: [{ type: 'mcp', server_label: 'd', server_url: 'https://d.example' }] };
    const request = openaiResponses.request.decode(body);
    expect(request.tools).toEqual([
      { type: 'mcp', name: 'd', url: 'https://d.example', requireApproval: 'always', extensions: { [P]: { $defaultApproval: true } } },
    ]);
    expect(openaiResponses.request.encode(request)).toEqual(body);
    expect(openaiResponses.request.encode({ model: 'gpt-5', messages: [], tools: [{ type: 'mcp', name: 'd', url: 'https://d.example' }] }).tools).toEqual([
      { type: 'mcp', server_label: 'd', server_url: 'https://d.example', require_approval: 'never' },
    ]);
  });

  it('keeps a choice of one tool on a server as the wire sent it', () => {
    const body = {
      model: 'gpt-5',
      input: 'hi',
      tools: [{ type: 'mcp', server_label: 'd', server_url: 'https://d.example' }],
      tool_choice: { type: 'mcp', server_label: 'd', name: 'ask' },
    };
    const request = openaiResponses.request.decode(body);
    expect(request.toolChoice).toBeUndefined();
    expect(openaiResponses.request.encode(request)).toEqual(body);
  });
});

describe('MCP items in input', () => {
  it('decodes list, call (call + result), approval request and the approval answer; encodes them back exactly', () => {
    const approval = { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true, reason: 'fine' };
    const body = {
      model: 'gpt-5',
      input: [
        { role: 'user', content: 'What is MCP?' },
        LIST_ITEM,
        CALL_ITEM,
        FAILED_CALL_ITEM,
        APPROVAL_ITEM,
        approval,
        { type: 'mcp_approval_response', approval_request_id: 'mcpr_2', approve: false },
      ],
    };
    const request = openaiResponses.request.decode(body);
    expect(request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What is MCP?' }], stringContent: true, extensions: { [P]: { $item: true } } },
      {
        role: 'assistant',
        content: [
          LIST_PART,
          CALL_PART,
          RESULT_PART,
          { type: 'mcp-call', id: 'mcp_2', server: 'deepwiki', name: 'ask_question', arguments: '{}', extensions: { [P]: { $noStatus: true } } },
          { type: 'mcp-result', callId: 'mcp_2', content: 'tool crashed', isError: true },
          APPROVAL_PART,
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'mcp-approval-response', approvalRequestId: 'mcpr_1', approve: true, reason: 'fine' },
          { type: 'mcp-approval-response', approvalRequestId: 'mcpr_2', approve: false },
        ],
      },
    ]);
    expect(openaiResponses.request.encode(request)).toEqual(body);
  });

  it('writes a status for calls from another protocol, and reports a result without its call', () => {
    const warnings: LlmWarning[] = [];
    const request: LlmRequest = {
      model: 'gpt-5',
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'mcp-call', id: 'mcptoolu_1', server: 'wiki', name: 'ask', arguments: { q: 'x' } },
            {
              type: 'mcp-result',
              callId: 'mcptoolu_1',
              content: [
                { type: 'text', text: 'a' },
                { type: 'text', text: 'b' },
              ],
            },
            { type: 'mcp-call', id: 'mcptoolu_2', server: 'wiki', name: 'ask', arguments: {} },
            { type: 'mcp-result', callId: 'mcptoolu_2', content: 'down', isError: true },
            { type: 'mcp-result', callId: 'mcptoolu_9', content: 'orphan' },
          ],
        },
      ],
    };
    expect(openaiResponses.request.encode(request, { warn: (w) => warnings.push(w) }).input).toEqual([
      { type: 'mcp_call', id: 'mcptoolu_1', server_label: 'wiki', name: 'ask', arguments: '{"q":"x"}', output: 'ab', status: 'completed' },
      { type: 'mcp_call', id: 'mcptoolu_2', server_label: 'wiki', name: 'ask', arguments: '{}', error: 'down', status: 'failed' },
    ]);
    expect(warnings).toEqual([
      { code: 'dropped-part', path: 'messages[0].content[4]', message: 'an MCP result without its call has no Responses form', protocol: P },
    ]);
  });
});

const WIRE_RESPONSE = {
  id: 'resp_mcp',
  object: 'response',
  created_at: 1750000000,
  status: 'completed',
  model: 'gpt-5',
  output: [
    LIST_ITEM,
    CALL_ITEM,
    { type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'MCP is a protocol.', annotations: [] }] },
  ],
  usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
};

describe('MCP items in answers', () => {
  it('decodes an answer with a tool list, a call and text; an approval request finishes as tool_calls', () => {
    const response = openaiResponses.response.decode(WIRE_RESPONSE);
    expect(response.choices[0]!.content.slice(0, 3)).toEqual([LIST_PART, CALL_PART, RESULT_PART]);
    expect(response.choices[0]!.finishReason).toBe('stop');
    const waiting = openaiResponses.response.decode({ ...WIRE_RESPONSE, output: [LIST_ITEM, APPROVAL_ITEM] });
    expect(waiting.choices[0]).toMatchObject({ content: [LIST_PART, APPROVAL_PART], finishReason: 'tool_calls' });
    expect((openaiResponses.response.encode(waiting) as { output: unknown[] }).output).toEqual([LIST_ITEM, APPROVAL_ITEM]);
  });
});

/** A canonical answer as another protocol (Claude) would give it: no Responses bags. */
const FOREIGN: LlmResponse = {
  id: 'resp_x',
  model: 'claude-sonnet-4-5',
  created: 1750000001,
  choices: [
    {
      index: 0,
      content: [
        { type: 'mcp-call', id: 'mcptoolu_1', server: 'wiki', name: 'ask', arguments: { q: 'x' } },
        { type: 'mcp-result', callId: 'mcptoolu_1', content: [{ type: 'text', text: 'An answer.' }] },
        { type: 'mcp-call', id: 'mcptoolu_2', server: 'wiki', name: 'ask', arguments: {} },
        { type: 'mcp-result', callId: 'mcptoolu_2', content: 'down', isError: true },
        { type: 'mcp-list-tools', id: 'mcpl_9', server: 'wiki', tools: [], error: 'unreachable' },
        { type: 'text', text: 'Done.' },
      ],
      finishReason: 'stop',
    },
  ],
  usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 },
};

async function sseOf(response: LlmResponse) {
  return runTransform(openaiResponses.stream.encode(), responseToEvents(response));
}

describe('MCP in streams', () => {
  it('encodes calls, results and lists as the Responses event sequence', async () => {
    const sse = await sseOf(FOREIGN);
    const payloads = sse.map((event) => JSON.parse(event.data) as Record<string, unknown>);
    expect(payloads.map(({ sequence_number: _n, response: _r, ...rest }) => rest).slice(2, 18)).toEqual([
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'mcp_call', id: 'mcptoolu_1', server_label: 'wiki', name: 'ask', arguments: '', status: 'in_progress' },
      },
      { type: 'response.mcp_call.in_progress', item_id: 'mcptoolu_1', output_index: 0 },
      { type: 'response.mcp_call_arguments.delta', item_id: 'mcptoolu_1', output_index: 0, delta: '{"q":"x"}' },
      { type: 'response.mcp_call_arguments.done', item_id: 'mcptoolu_1', output_index: 0, arguments: '{"q":"x"}' },
      { type: 'response.mcp_call.completed', item_id: 'mcptoolu_1', output_index: 0 },
      {
        type: 'response.output_item.done',
        output_index: 0,
        item: { type: 'mcp_call', id: 'mcptoolu_1', server_label: 'wiki', name: 'ask', arguments: '{"q":"x"}', output: 'An answer.', status: 'completed' },
      },
      {
        type: 'response.output_item.added',
        output_index: 1,
        item: { type: 'mcp_call', id: 'mcptoolu_2', server_label: 'wiki', name: 'ask', arguments: '', status: 'in_progress' },
      },
      { type: 'response.mcp_call.in_progress', item_id: 'mcptoolu_2', output_index: 1 },
      { type: 'response.mcp_call_arguments.delta', item_id: 'mcptoolu_2', output_index: 1, delta: '{}' },
      { type: 'response.mcp_call_arguments.done', item_id: 'mcptoolu_2', output_index: 1, arguments: '{}' },
      { type: 'response.mcp_call.failed', item_id: 'mcptoolu_2', output_index: 1 },
      {
        type: 'response.output_item.done',
        output_index: 1,
        item: { type: 'mcp_call', id: 'mcptoolu_2', server_label: 'wiki', name: 'ask', arguments: '{}', error: 'down', status: 'failed' },
      },
      { type: 'response.output_item.added', output_index: 2, item: { type: 'mcp_list_tools', id: 'mcpl_9', server_label: 'wiki', tools: [] } },
      { type: 'response.mcp_list_tools.in_progress', item_id: 'mcpl_9', output_index: 2 },
      { type: 'response.mcp_list_tools.failed', item_id: 'mcpl_9', output_index: 2 },
      {
        type: 'response.output_item.done',
        output_index: 2,
        item: { type: 'mcp_list_tools', id: 'mcpl_9', server_label: 'wiki', tools: [], error: 'unreachable' },
      },
    ]);
    expect(payloads.map((payload) => payload.sequence_number)).toEqual(payloads.map((_, index) => index));
    expect(sse.map((event) => event.event).slice(18)).toEqual([
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it('satisfies the openai SDK: finalResponse() equals response.encode of the same answer', async () => {
    // The stream encoder names message items after the response and block (`msg_<id>_<block>`).
    const cases: Array<[LlmResponse, string]> = [
      [FOREIGN, 'msg_x_5'],
      [openaiResponses.response.decode(WIRE_RESPONSE), 'msg_mcp_3'],
    ];
    for (const [response, messageId] of cases) {
      const chunks = await collect(streamOf(await sseOf(response)).pipeThrough(encodeSse()));
      const client = new OpenAI({
        apiKey: 'x',
        baseURL: 'http://local/v1',
        fetch: async () => new Response(new Blob(chunks as Uint8Array<ArrayBuffer>[]), { headers: { 'content-type': 'text/event-stream' } }),
      });
      const final = await client.responses.stream({ model: 'gpt-5', input: 'hi' }).finalResponse();
      const wire = openaiResponses.response.encode(response) as unknown as { output: Array<Record<string, unknown>> };
      const text = (wire.output.at(-1)!.content as Array<{ text: string }>)[0]!.text;
      expect(final).toEqual({
        ...wire,
        output: wire.output.map((item) =>
          item.type === 'message' ? { ...item, id: messageId, content: [{ ...(item.content as object[])[0], parsed: null }] } : item,
        ),
        output_parsed: null,
        output_text: text,
      });
    }
  });

  it('decodes the stream back to the same canonical answer', async () => {
    const sse = await collectSse(streamOf(await collect(streamOf(await sseOf(FOREIGN)).pipeThrough(encodeSse()))));
    const events = await runTransform(openaiResponses.stream.decode(), sse);
    const decoded = accumulateEvents(events);
    const [call1, result1, call2, result2, list] = decoded.choices[0]!.content;
    expect([call1, result1, call2, result2, list]).toEqual([
      { type: 'mcp-call', id: 'mcptoolu_1', server: 'wiki', name: 'ask', arguments: '{"q":"x"}', extensions: { [P]: { status: 'completed' } } },
      { type: 'mcp-result', callId: 'mcptoolu_1', content: 'An answer.' },
      { type: 'mcp-call', id: 'mcptoolu_2', server: 'wiki', name: 'ask', arguments: '{}', extensions: { [P]: { status: 'failed' } } },
      { type: 'mcp-result', callId: 'mcptoolu_2', content: 'down', isError: true },
      { type: 'mcp-list-tools', id: 'mcpl_9', server: 'wiki', tools: [], error: 'unreachable' },
    ]);
    expect(decoded.choices[0]!.finishReason).toBe('stop');
  });
});

describe('hostile MCP input', () => {
  it('is refused with the path of what is wrong: 400 for a client, 502 for an upstream answer', () => {
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof LlmError ? { kind: error.kind, status: error.status, path: error.path } : error;
      }
      return 'accepted';
    };
    expect(refusal(() => openaiResponses.request.decode({ model: 'm', input: [{ type: 'mcp_call', id: 'mcp_1', name: 'a', arguments: '{}' }] }))).toEqual({
      kind: 'invalid_request',
      status: 400,
      path: 'input[0].server_label',
    });
    expect(
      refusal(() => openaiResponses.request.decode({ model: 'm', input: [{ type: 'mcp_approval_response', approval_request_id: 'r', approve: 'yes' }] })),
    ).toEqual({
      kind: 'invalid_request',
      status: 400,
      path: 'input[0].approve',
    });
    expect(refusal(() => openaiResponses.request.decode({ model: 'm', input: 'x', tools: [{ type: 'mcp', server_url: 'https://x' }] }))).toEqual({
      kind: 'invalid_request',
      status: 400,
      path: 'tools[0].server_label',
    });
    expect(
      refusal(() => openaiResponses.response.decode({ ...WIRE_RESPONSE, output: [{ type: 'mcp_list_tools', id: 'l', server_label: 's', tools: 'none' }] })),
    ).toMatchObject({
      kind: 'upstream',
      status: 502,
    });
  });
});
