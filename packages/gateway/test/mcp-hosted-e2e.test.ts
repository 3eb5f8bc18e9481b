import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type Gateway, startGateway } from '../src/server/start.js';
import { type HostedMcpClaude, MISSING_BETA_ERROR, startHostedMcpClaude } from './helpers/hosted-mcp-claude.js';
import { type HostedMcpResponses, startHostedMcpResponses } from './helpers/hosted-mcp-responses.js';
import type { HostedMcpTurn } from './helpers/hosted-mcp-session.js';
import { type TestMcpServer, startTestMcpServer } from './helpers/mcp-server.js';
import { FAIL_TEXT } from './helpers/mcp-tools.js';

// Hosted MCP end to end (issue 24): Responses and Claude clients (the official SDKs, JSON and
// their stream accumulators) with hosted-MCP requests against Claude and Responses upstreams that
// host MCP themselves, as the providers do (test/helpers/hosted-mcp-*.ts: they connect to a real
// MCP server built with the official SDK, list its tools and call one). The gateway only
// translates: the request's servers, the beta header Claude needs, the calls and results back.

let mcp: TestMcpServer;
let claudeUpstream: HostedMcpClaude;
let responsesUpstream: HostedMcpResponses;
let gateway: Gateway;
let responses: OpenAI;
let claude: Anthropic;
const lines: string[] = [];

beforeAll(async () => {
  [mcp, claudeUpstream, responsesUpstream] = await Promise.all([startTestMcpServer(), startHostedMcpClaude(), startHostedMcpResponses()]);
  const config = parseConfig(
    JSON.stringify({
      upstreams: {
        claude: { protocol: 'claude', baseUrl: claudeUpstream.baseUrl, apiKey: 'k' },
        responses: { protocol: 'openai-responses', baseUrl: responsesUpstream.baseUrl, apiKey: 'k' },
      },
      routes: [
        { match: 'on-claude', upstream: 'claude', model: 'claude-test' },
        { match: 'on-responses', upstream: 'responses', model: 'gpt-test' },
      ],
      // The gateway could host MCP itself: upstreams that host it still run the servers.
      mcp: { allowClientServers: [`${mcp.origin}/mcp`] },
      warningsHeader: true,
      ledger: false,
    }),
    {},
  );
  gateway = await startGateway(config, { port: 0, logger: createLogger('debug', { write: (line: string) => lines.push(line) }) });
  responses = new OpenAI({ apiKey: 'none', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  claude = new Anthropic({ apiKey: 'none', baseURL: gateway.url, maxRetries: 0 });
});
afterAll(async () => {
  await gateway?.close();
  await Promise.all([mcp?.close(), claudeUpstream?.close(), responsesUpstream?.close()]);
});
beforeEach(() => {
  lines.length = 0;
  mcp.calls.length = 0;
  mcp.requests.length = 0;
  claudeUpstream.received.length = 0;
  claudeUpstream.listed.length = 0;
  responsesUpstream.received.length = 0;
});

const TOKEN = 'mcp-secret-token';
/** The `add` tool as the Responses mock lists it (the test server's schema, verbatim). */
const LISTED_ADD = {
  id: 'mcpl_1',
  type: 'mcp_list_tools',
  server_label: 'calc',
  tools: [
    {
      name: 'add',
      description: 'Adds two numbers.',
      input_schema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
        $schema: 'http://json-schema.org/draft-07/schema#',
      },
      annotations: null,
    },
  ],
};
const add = (a: number, b: number): HostedMcpTurn => ({ tool: 'add', args: { a, b }, text: (output) => `The answer is ${output}.` });
const model = (upstream: 'claude' | 'responses') => (upstream === 'claude' ? 'on-claude' : 'on-responses');
/** A Responses client's MCP server: the test server, a bearer token, `add` allowed only. */
const responsesTool = (approval: OpenAI.Responses.Tool.Mcp['require_approval'] = 'never'): OpenAI.Responses.Tool.Mcp => ({
  type: 'mcp',
  server_label: 'calc',
  server_url: `${mcp.origin}/mcp`,
  authorization: TOKEN,
  allowed_tools: ['add'],
  require_approval: approval,
});
/** A Claude client's MCP server and its toolset, the same server as {@link responsesTool}'s. */
const claudeServers = () => ({
  mcp_servers: [{ type: 'url' as const, url: `${mcp.origin}/mcp`, name: 'calc', authorization_token: TOKEN }],
  tools: [{ type: 'mcp_toolset' as const, mcp_server_name: 'calc', default_config: { enabled: false }, configs: { add: { enabled: true } } }],
});

/** The `translation warnings` log line's warnings (none when the request logged none). */
function loggedWarnings(): unknown[] {
  const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === 'translation warnings');
  return entries.flatMap((entry) => entry.warnings as unknown[]);
}

/** What every upstream got: Claude the servers and toolset with the beta header, Responses the `mcp` tool. */
function expectUpstreamGotServer(upstream: 'claude' | 'responses', stream: boolean): void {
  if (upstream === 'claude') {
    expect(claudeUpstream.received).toHaveLength(1);
    const [{ headers, body }] = claudeUpstream.received as [(typeof claudeUpstream.received)[number]];
    expect(headers['anthropic-beta']).toBe('mcp-client-2025-11-20');
    expect(body.stream === true).toBe(stream);
    expect(body.mcp_servers).toEqual([{ type: 'url', url: `${mcp.origin}/mcp`, name: 'calc', authorization_token: TOKEN }]);
    expect(body.tools).toEqual([{ type: 'mcp_toolset', mcp_server_name: 'calc', default_config: { enabled: false }, configs: { add: { enabled: true } } }]);
    expect(claudeUpstream.listed).toEqual([{ calc: ['add'] }]);
  } else {
    expect(responsesUpstream.received).toHaveLength(1);
    const [{ body }] = responsesUpstream.received as [(typeof responsesUpstream.received)[number]];
    expect(body.stream === true).toBe(stream);
    expect(body.tools).toEqual([
      { type: 'mcp', server_label: 'calc', server_url: `${mcp.origin}/mcp`, authorization: TOKEN, allowed_tools: ['add'], require_approval: 'never' },
    ]);
  }
  // The provider reached the server with the client's token, and ran the call once.
  expect(mcp.requests.filter((request) => request.method === 'POST').every((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  expect(mcp.calls).toEqual([{ tool: 'add', args: { a: 20, b: 22 } }]);
}

describe('the hosted-MCP mock upstreams are strict', () => {
  it('the Claude mock refuses mcp_servers without an mcp-client beta, as Anthropic does, and calls nothing', async () => {
    const answer = await fetch(`${claudeUpstream.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-beta': 'context-1m-2025-08-07' },
      body: JSON.stringify({ model: 'claude-test', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], ...claudeServers() }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual(MISSING_BETA_ERROR);
    expect(mcp.requests).toEqual([]);
  });
});

/** What the upstream answers for `add(20, 22)`: its call id and usage. */
const UPSTREAM_ANSWER = {
  claude: { callId: 'mcptoolu_01', inputTokens: 30, outputTokens: 12 },
  responses: { callId: 'mcp_1', inputTokens: 40, outputTokens: 16 },
} as const;

const MESSAGE_EVENTS = [
  'response.output_item.added',
  'response.content_part.added',
  'response.output_text.delta',
  'response.output_text.done',
  'response.content_part.done',
  'response.output_item.done',
];
/** The events a Responses client streams, by upstream: the call's as OpenAI sends them (a Claude upstream's arguments in one delta, as Claude's two are joined). */
const RESPONSES_EVENTS = {
  claude: [
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.mcp_call.in_progress',
    'response.mcp_call_arguments.delta',
    'response.mcp_call_arguments.done',
    'response.mcp_call.completed',
    'response.output_item.done',
    ...MESSAGE_EVENTS,
    'response.completed',
  ],
  responses: [
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.mcp_list_tools.in_progress',
    'response.mcp_list_tools.completed',
    'response.output_item.done',
    'response.output_item.added',
    'response.mcp_call.in_progress',
    'response.mcp_call_arguments.delta',
    'response.mcp_call_arguments.delta',
    'response.mcp_call_arguments.done',
    'response.mcp_call.completed',
    'response.output_item.done',
    ...MESSAGE_EVENTS,
    'response.completed',
  ],
};
/** The events a Claude client streams (block starts and deltas with their types), by upstream. */
const CLAUDE_EVENTS = {
  claude: [
    'message_start',
    'content_block_start:mcp_tool_use',
    'content_block_delta:input_json_delta',
    'content_block_delta:input_json_delta',
    'content_block_stop',
    'content_block_start:mcp_tool_result',
    'content_block_stop',
    'content_block_start:text',
    'content_block_delta:text_delta',
    'content_block_stop',
    'message_delta',
    'message_stop',
  ],
  responses: [
    'message_start',
    'content_block_start:mcp_tool_use',
    'content_block_delta:input_json_delta',
    'content_block_stop',
    'content_block_start:mcp_tool_result',
    'content_block_stop',
    'content_block_start:text',
    'content_block_delta:text_delta',
    'content_block_stop',
    'message_delta',
    'message_stop',
  ],
};

/** A Claude stream event as `type`, with the block's or the delta's type. */
function claudeEventName(event: Anthropic.Beta.BetaRawMessageStreamEvent): string {
  if (event.type === 'content_block_start') return `${event.type}:${event.content_block.type}`;
  if (event.type === 'content_block_delta') return `${event.type}:${event.delta.type}`;
  return event.type;
}

/** The warnings each crossing reports (same-protocol ones none). */
function expectedWarnings(client: 'responses' | 'claude', upstream: 'claude' | 'responses', stream: boolean): unknown[] {
  if (client === 'responses' && upstream === 'claude') return [{ code: 'defaulted', path: 'max_tokens', message: 'Claude requires max_tokens; 4096 was used' }];
  if (client === 'claude' && upstream === 'responses') {
    // The Responses tool list has no place in a Claude answer: the JSON and the stream encoders say it alike.
    const message = 'an MCP tool list has no claude form (Claude answers carry no MCP tool list, and Claude has no approval step)';
    return [{ code: 'dropped-part', path: stream ? 'blocks[0]' : 'choices[0].content[0]', message }];
  }
  return [];
}

describe('hosted-MCP clients on upstreams that host MCP, JSON and streamed', () => {
  const cases = (['responses', 'claude'] as const).flatMap((client) =>
    (['claude', 'responses'] as const).flatMap((upstream) => [false, true].map((stream) => [client, upstream, stream] as const)),
  );

  it.each(cases)('%s client, %s upstream, stream %s: the provider runs the call, the client gets it in its own form', async (client, upstream, stream) => {
    (upstream === 'claude' ? claudeUpstream : responsesUpstream).push(add(20, 22));
    const { callId, inputTokens, outputTokens } = UPSTREAM_ANSWER[upstream];
    const input = 'What is 20 + 22?';
    if (client === 'responses') {
      const body = { model: model(upstream), input, tools: [responsesTool()] };
      const events: string[] = [];
      const answer = stream
        ? await responses.responses
            .stream(body)
            .on('event', (event) => events.push(event.type))
            .finalResponse()
        : await responses.responses.create(body);
      expect(events).toEqual(stream ? RESPONSES_EVENTS[upstream] : []);
      // Claude answers carry no tool list; Responses lists the server's (allowed) tools first.
      const listing = upstream === 'responses' ? [LISTED_ADD] : [];
      expect(answer.output.map((item) => item.type)).toEqual([...listing.map(() => 'mcp_list_tools'), 'mcp_call', 'message']);
      expect(answer.output.slice(0, listing.length)).toEqual(listing);
      expect(answer.output[listing.length]).toEqual({
        type: 'mcp_call',
        id: callId,
        server_label: 'calc',
        name: 'add',
        arguments: '{"a":20,"b":22}',
        output: '42',
        status: 'completed',
        // A Responses upstream's own item, as it sent it.
        ...(upstream === 'responses' ? { approval_request_id: null, error: null } : {}),
      });
      expect(answer.output[listing.length + 1]).toMatchObject({
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'The answer is 42.', annotations: [] }],
      });
      expect(answer.output_text).toBe('The answer is 42.');
      expect(answer.status).toBe('completed');
      expect(answer.usage).toMatchObject({ input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens });
    } else {
      const body = {
        model: model(upstream),
        max_tokens: 100,
        messages: [{ role: 'user' as const, content: input }],
        ...claudeServers(),
        betas: ['mcp-client-2025-11-20' as const],
      };
      const events: string[] = [];
      const message = stream
        ? await claude.beta.messages
            .stream(body)
            .on('streamEvent', (event) => events.push(claudeEventName(event)))
            .finalMessage()
        : await claude.beta.messages.create(body);
      expect(events).toEqual(stream ? CLAUDE_EVENTS[upstream] : []);
      expect(message.content).toEqual([
        { type: 'mcp_tool_use', id: callId, name: 'add', server_name: 'calc', input: { a: 20, b: 22 } },
        // Claude's result as Claude sent it (text blocks); a Responses output is its text.
        upstream === 'claude'
          ? { type: 'mcp_tool_result', tool_use_id: callId, is_error: false, content: [{ type: 'text', text: '42' }] }
          : { type: 'mcp_tool_result', tool_use_id: callId, is_error: false, content: '42' },
        { type: 'text', text: 'The answer is 42.' },
      ]);
      expect(message.stop_reason).toBe('end_turn');
      expect(message.usage).toMatchObject({ input_tokens: inputTokens, output_tokens: outputTokens });
    }
    expectUpstreamGotServer(upstream, stream);
    expect(loggedWarnings()).toEqual(expectedWarnings(client, upstream, stream));
  });
});

describe('the MCP connector beta on a Claude upstream', () => {
  it('is added for a Claude client that named none, and appended to the betas it named', async () => {
    for (const betas of [undefined, ['context-1m-2025-08-07' as const]]) {
      claudeUpstream.push(add(20, 22));
      const message = await claude.beta.messages.create({
        model: 'on-claude',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'What is 20 + 22?' }],
        ...claudeServers(),
        ...(betas ? { betas } : {}),
      });
      expect(message.content.map((block) => block.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text']);
    }
    expect(claudeUpstream.received.map(({ headers }) => headers['anthropic-beta'])).toEqual([
      'mcp-client-2025-11-20',
      'context-1m-2025-08-07,mcp-client-2025-11-20',
    ]);
    expect(mcp.calls).toHaveLength(2);
  });
});

describe('approvals', () => {
  it.each([false, true])('a Responses upstream asks for approval and runs nothing; the approval runs the call (stream %s)', async (stream) => {
    const tools = [responsesTool('always')];
    responsesUpstream.push(add(20, 22), add(20, 22));
    const ask = async (body: OpenAI.Responses.ResponseCreateParamsNonStreaming & { stream?: undefined }) =>
      stream ? await responses.responses.stream(body).finalResponse() : await responses.responses.create(body);
    const first = await ask({ model: 'on-responses', input: 'What is 20 + 22?', tools });
    expect(first.output).toEqual([LISTED_ADD, { id: 'mcpr_1', type: 'mcp_approval_request', server_label: 'calc', name: 'add', arguments: '{"a":20,"b":22}' }]);
    expect(first.output_text).toBe('');
    expect(mcp.calls).toEqual([]);

    const approval = { type: 'mcp_approval_response' as const, approval_request_id: 'mcpr_1', approve: true };
    const second = await ask({ model: 'on-responses', previous_response_id: first.id, input: [approval], tools });
    expect(second.output.slice(0, 2)).toEqual([
      LISTED_ADD,
      {
        id: 'mcp_1',
        type: 'mcp_call',
        server_label: 'calc',
        name: 'add',
        arguments: '{"a":20,"b":22}',
        approval_request_id: 'mcpr_1',
        error: null,
        output: '42',
        status: 'completed',
      },
    ]);
    expect(second.output_text).toBe('The answer is 42.');
    expect(mcp.calls).toEqual([{ tool: 'add', args: { a: 20, b: 22 } }]);
    // The upstream holds the conversation: it got the approval and the id of its own answer.
    expect(responsesUpstream.received[1]?.body).toMatchObject({ previous_response_id: first.id, input: [approval] });
    expect(loggedWarnings()).toEqual([]);
  });

  it.each([
    ['always', false],
    [undefined, true],
  ] as const)('Claude cannot ask: require_approval %s is reported, and Claude runs the call (stream %s)', async (approval, stream) => {
    claudeUpstream.push(add(20, 22));
    const tool = { ...responsesTool(approval) };
    // Responses' default, when the client says nothing, is to ask for every call.
    if (approval === undefined) delete tool.require_approval;
    const body = { model: 'on-claude', input: 'What is 20 + 22?', tools: [tool] };
    const warnings = [
      { code: 'defaulted', path: 'max_tokens', message: 'Claude requires max_tokens; 4096 was used' },
      { code: 'dropped-field', path: 'tools[0].requireApproval', message: 'Claude has no approval step: MCP calls run without asking the client' },
    ];
    if (stream) {
      const answer = await responses.responses.stream(body).finalResponse();
      expect(answer.output.map((item) => item.type)).toEqual(['mcp_call', 'message']);
    } else {
      const { data: answer, response } = await responses.responses.create(body).withResponse();
      expect(answer.output.map((item) => item.type)).toEqual(['mcp_call', 'message']);
      expect(response.headers.get('x-llm-warnings')).toBe('defaulted@max_tokens, dropped-field@tools[0].requireApproval');
    }
    expect(mcp.calls).toEqual([{ tool: 'add', args: { a: 20, b: 22 } }]);
    expect(claudeUpstream.received[0]?.body.mcp_servers).toEqual([{ type: 'url', url: `${mcp.origin}/mcp`, name: 'calc', authorization_token: TOKEN }]);
    expect(loggedWarnings()).toEqual(warnings);
  });
});

describe('a second turn carries the first turn’s MCP call across protocols', () => {
  it('a Responses client’s mcp_call item reaches a Claude upstream as mcp_tool_use and mcp_tool_result blocks', async () => {
    claudeUpstream.push(add(20, 22), add(1, 2));
    const tools = [responsesTool()];
    const first = await responses.responses.create({ model: 'on-claude', input: 'What is 20 + 22?', tools });
    const input = [
      { role: 'user' as const, content: 'What is 20 + 22?' },
      ...(first.output as OpenAI.Responses.ResponseInputItem[]),
      { role: 'user' as const, content: 'And 1 + 2?' },
    ];
    const second = await responses.responses.create({ model: 'on-claude', input, tools });
    expect(second.output_text).toBe('The answer is 3.');
    expect(claudeUpstream.received[1]?.body.messages).toEqual([
      { role: 'user', content: 'What is 20 + 22?' },
      {
        role: 'assistant',
        content: [
          { type: 'mcp_tool_use', id: 'mcptoolu_01', name: 'add', server_name: 'calc', input: { a: 20, b: 22 } },
          { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_01', content: '42', is_error: false },
          { type: 'text', text: 'The answer is 42.' },
        ],
      },
      { role: 'user', content: 'And 1 + 2?' },
    ]);
    expect(mcp.calls).toEqual([
      { tool: 'add', args: { a: 20, b: 22 } },
      { tool: 'add', args: { a: 1, b: 2 } },
    ]);
  });

  it('a Claude client’s mcp_tool_use and mcp_tool_result blocks reach a Responses upstream as an mcp_call item', async () => {
    responsesUpstream.push(add(20, 22), add(1, 2));
    const request = { model: 'on-responses', max_tokens: 100, ...claudeServers(), betas: ['mcp-client-2025-11-20' as const] };
    const first = await claude.beta.messages.create({ ...request, messages: [{ role: 'user', content: 'What is 20 + 22?' }] });
    const second = await claude.beta.messages.create({
      ...request,
      messages: [
        { role: 'user', content: 'What is 20 + 22?' },
        { role: 'assistant', content: first.content as Anthropic.Beta.BetaContentBlockParam[] },
        { role: 'user', content: 'And 1 + 2?' },
      ],
    });
    expect(second.content.at(-1)).toEqual({ type: 'text', text: 'The answer is 3.' });
    expect(responsesUpstream.received[1]?.body.input).toEqual([
      { type: 'message', role: 'user', content: 'What is 20 + 22?' },
      { type: 'mcp_call', id: 'mcp_1', server_label: 'calc', name: 'add', arguments: '{"a":20,"b":22}', output: '42', status: 'completed' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'The answer is 42.', annotations: [] }] },
      { type: 'message', role: 'user', content: 'And 1 + 2?' },
    ]);
    expect(mcp.calls).toEqual([
      { tool: 'add', args: { a: 20, b: 22 } },
      { tool: 'add', args: { a: 1, b: 2 } },
    ]);
  });
});

describe('a tool that fails on the provider', () => {
  const fail: HostedMcpTurn = { tool: 'fail', args: { mode: 'result' }, text: (output) => `It failed: ${output}` };

  it.each([false, true])('is an mcp_call error for a Responses client on Claude (stream %s)', async (stream) => {
    claudeUpstream.push(fail);
    const body = { model: 'on-claude', input: 'Fail.', tools: [{ ...responsesTool(), allowed_tools: ['add', 'fail'] }] };
    const answer = stream ? await responses.responses.stream(body).finalResponse() : await responses.responses.create(body);
    expect(answer.output[0]).toEqual({
      type: 'mcp_call',
      id: 'mcptoolu_01',
      server_label: 'calc',
      name: 'fail',
      arguments: '{"mode":"result"}',
      error: FAIL_TEXT,
      status: 'failed',
    });
    expect(answer.output_text).toBe(`It failed: ${FAIL_TEXT}`);
    expect(answer.status).toBe('completed');
  });

  it.each([false, true])('is an mcp_tool_result with is_error for a Claude client on Responses (stream %s)', async (stream) => {
    responsesUpstream.push(fail);
    const body = {
      model: 'on-responses',
      max_tokens: 100,
      messages: [{ role: 'user' as const, content: 'Fail.' }],
      ...claudeServers(),
      tools: [{ type: 'mcp_toolset' as const, mcp_server_name: 'calc' }],
      betas: ['mcp-client-2025-11-20' as const],
    };
    const message = stream ? await claude.beta.messages.stream(body).finalMessage() : await claude.beta.messages.create(body);
    expect(message.content).toEqual([
      { type: 'mcp_tool_use', id: 'mcp_1', name: 'fail', server_name: 'calc', input: { mode: 'result' } },
      { type: 'mcp_tool_result', tool_use_id: 'mcp_1', content: FAIL_TEXT, is_error: true },
      { type: 'text', text: `It failed: ${FAIL_TEXT}` },
    ]);
    // A toolset enabling every tool is a server without allowed_tools.
    expect(responsesUpstream.received[0]?.body.tools).toEqual([
      { type: 'mcp', server_label: 'calc', server_url: `${mcp.origin}/mcp`, authorization: TOKEN, require_approval: 'never' },
    ]);
  });
});
