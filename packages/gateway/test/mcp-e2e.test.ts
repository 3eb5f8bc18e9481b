import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { openDatabase } from '../src/ledger/sqlite.js';
import { createLogger } from '../src/logger.js';
import { type Gateway, startGateway } from '../src/server/start.js';
import { type TestMcpServer, startTestMcpServer } from './helpers/mcp-server.js';
import { type ModelScript, startModelScript } from './helpers/model-script.js';

// The gateway as MCP host (issue 24) end to end: official SDK clients with hosted-MCP requests
// (Responses `mcp` tools, Claude `mcp_servers`) against Chat and Gemini upstreams that cannot host
// MCP, scripted to call the tools of a real MCP server (built with the official SDK); a Chat
// client on a route with a gateway-configured stdio server; approvals; the log and the ledger.
const STDIO_SERVER = join(dirname(fileURLToPath(import.meta.url)), 'helpers', 'mcp-stdio-server.ts');

let mcp: TestMcpServer;
let chat: ModelScript;
let gemini: ModelScript;
let gateway: Gateway;
let responses: OpenAI;
let claude: Anthropic;
const lines: string[] = [];
const ledgerPath = join(mkdtempSync(join(tmpdir(), 'mcp-e2e-')), 'usage.db');

beforeAll(async () => {
  [mcp, chat, gemini] = await Promise.all([startTestMcpServer(), startModelScript('openai-chat'), startModelScript('gemini')]);
  const config = parseConfig(
    JSON.stringify({
      upstreams: {
        chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl, apiKey: 'k' },
        gemini: { protocol: 'gemini', baseUrl: gemini.baseUrl, apiKey: 'k' },
      },
      routes: [
        { match: 'on-chat', upstream: 'chat', model: 'gpt-test' },
        { match: 'on-gemini', upstream: 'gemini', model: 'gemini-test' },
        { match: 'with-local-tools', upstream: 'chat', model: 'gpt-test', mcpServers: ['local'] },
      ],
      mcp: {
        servers: { local: { command: process.execPath, args: ['--import', 'tsx', STDIO_SERVER] } },
        allowClientServers: [`${mcp.origin}/mcp`],
        callTimeoutMs: 2000,
      },
      ledger: { path: ledgerPath },
    }),
    {},
  );
  gateway = await startGateway(config, { port: 0, logger: createLogger('info', { write: (line: string) => lines.push(line) }) });
  responses = new OpenAI({ apiKey: 'none', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  claude = new Anthropic({ apiKey: 'none', baseURL: gateway.url, maxRetries: 0 });
});
afterAll(async () => {
  await gateway?.close();
  await Promise.all([mcp?.close(), chat?.close(), gemini?.close()]);
});
beforeEach(() => {
  lines.length = 0;
  chat.received.length = 0;
  gemini.received.length = 0;
});

const calc = () => ({ type: 'mcp' as const, server_label: 'calc', server_url: `${mcp.origin}/mcp`, require_approval: 'never' as const });

/** The access line of the last request. */
function accessLine(): Record<string, unknown> {
  const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === 'request');
  return entries.at(-1) ?? {};
}

/** The `mcp call` log lines, as server/tool/isError. */
function loggedCalls(): { mcpServer: unknown; tool: unknown; source: unknown; isError: unknown }[] {
  return lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === 'mcp call')
    .map(({ mcpServer, tool, source, isError }) => ({ mcpServer, tool, source, isError }));
}

/** The ledger's `mcp_calls` of the request with this id, once its row is written. */
async function ledgerCalls(requestId: string): Promise<unknown> {
  let row: { mcp_calls: string | null } | undefined;
  await expect
    .poll(() => {
      const db = openDatabase(ledgerPath, { readonly: true });
      row = (db.prepare('SELECT mcp_calls FROM requests WHERE request_id = ?').all(requestId) as { mcp_calls: string | null }[])[0];
      db.close();
      return row !== undefined;
    })
    .toBe(true);
  return row?.mcp_calls === null || row === undefined ? null : JSON.parse(row.mcp_calls);
}

/** The messages the upstream got in its last Chat request after the user's. */
function chatFollowUp(): unknown[] {
  return ((chat.received.at(-1)?.body.messages as unknown[]) ?? []).slice(1);
}

describe('Responses clients with hosted-MCP tools on upstreams without MCP', () => {
  it('JSON on Chat: lists the tools, runs the call the model makes, feeds the result back, answers as a hosted-MCP provider', async () => {
    chat.push({ call: { name: 'mcp__calc__add', args: { a: 2, b: 3 } } }, { text: '2 + 3 = 5' });
    const answer = await responses.responses.create({ model: 'on-chat', input: 'What is 2 + 3?', tools: [calc()] });
    expect(answer.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
    const [list, call] = answer.output as [OpenAI.Responses.ResponseOutputItem.McpListTools, OpenAI.Responses.ResponseOutputItem.McpCall];
    expect(list.server_label).toBe('calc');
    expect(list.tools.map((tool) => tool.name)).toEqual(['add', 'slow', 'fail', 'secret_op', 'big', 'pid']);
    expect(call).toMatchObject({ type: 'mcp_call', server_label: 'calc', name: 'add', arguments: '{"a":2,"b":3}', output: '5' });
    expect(answer.output_text).toBe('2 + 3 = 5');
    expect(answer.usage).toMatchObject({ input_tokens: 20, output_tokens: 10, total_tokens: 30 });
    // The upstream was offered the tools as functions, and got the result as a tool message.
    expect(chat.received).toHaveLength(2);
    expect((chat.received[0]?.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toEqual([
      'mcp__calc__add',
      'mcp__calc__slow',
      'mcp__calc__fail',
      'mcp__calc__secret_op',
      'mcp__calc__big',
      'mcp__calc__pid',
    ]);
    expect(chatFollowUp()).toEqual([
      { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'mcp__calc__add', arguments: '{"a":2,"b":3}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '5' },
    ]);
    expect(loggedCalls()).toEqual([{ mcpServer: 'calc', tool: 'add', source: 'client', isError: false }]);
    const calls = [{ server: 'calc', tool: 'add', ms: expect.any(Number), isError: false }];
    expect(accessLine()).toMatchObject({ status: 200, upstream: 'chat', mcpCalls: calls });
    expect(await ledgerCalls(accessLine().requestId as string)).toEqual(calls);
  });

  it('streamed on Gemini: the SDK accumulator takes the stream, with the call and its result', async () => {
    gemini.push({ call: { name: 'mcp__calc__add', args: { a: 40, b: 2 } } }, { text: 'It is 42.' });
    const stream = responses.responses.stream({ model: 'on-gemini', input: 'What is 40 + 2?', tools: [calc()] });
    const types: string[] = [];
    stream.on('event', (event) => types.push(event.type));
    const answer = await stream.finalResponse();
    expect(answer.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
    expect(answer.output[1]).toMatchObject({ type: 'mcp_call', server_label: 'calc', name: 'add', arguments: '{"a":40,"b":2}', output: '42' });
    expect(answer.output_text).toBe('It is 42.');
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types.filter((type) => type === 'response.completed')).toHaveLength(1);
    expect(gemini.received).toHaveLength(2);
    expect(gemini.received[0]?.path).toContain(':streamGenerateContent');
    const contents = gemini.received[1]?.body.contents as unknown[];
    expect(contents.slice(1)).toEqual([
      { role: 'model', parts: [{ functionCall: { id: expect.any(String), name: 'mcp__calc__add', args: { a: 40, b: 2 } } }] },
      { role: 'user', parts: [{ functionResponse: { id: expect.any(String), name: 'mcp__calc__add', response: { output: '42' } } }] },
    ]);
  });

  it('a failing tool and a throwing tool are error results the model sees, not a failed request', async () => {
    chat.push(
      { call: { name: 'mcp__calc__fail', args: { mode: 'result' } } },
      { call: { name: 'mcp__calc__fail', args: { mode: 'throw' } } },
      { text: 'Both failed.' },
    );
    const answer = await responses.responses.create({ model: 'on-chat', input: 'Try to fail twice.', tools: [calc()] });
    expect(answer.status).toBe('completed');
    expect(answer.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'mcp_call', 'message']);
    expect(answer.output[1]).toMatchObject({ name: 'fail', error: 'the tool failed on purpose' });
    expect(answer.output[2]).toMatchObject({ name: 'fail', error: 'thrown inside the tool' });
    expect(loggedCalls()).toEqual([
      { mcpServer: 'calc', tool: 'fail', source: 'client', isError: true },
      { mcpServer: 'calc', tool: 'fail', source: 'client', isError: true },
    ]);
    expect(await ledgerCalls(accessLine().requestId as string)).toEqual([
      { server: 'calc', tool: 'fail', ms: expect.any(Number), isError: true },
      { server: 'calc', tool: 'fail', ms: expect.any(Number), isError: true },
    ]);
  });

  it('refuses a server outside allowClientServers with a 403 in the Responses shape, naming the server, before any upstream call', async () => {
    const error = await responses.responses
      .create({
        model: 'on-chat',
        input: 'hi',
        tools: [{ type: 'mcp', server_label: 'elsewhere', server_url: 'https://mcp.elsewhere.example/mcp', require_approval: 'never' }],
      })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((error as InstanceType<typeof OpenAI.PermissionDeniedError>).message).toBe(
      `403 MCP server "elsewhere": https://mcp.elsewhere.example/mcp is not on this gateway's MCP server allowlist`,
    );
    expect(chat.received).toHaveLength(0);
  });

  it('waits for approval, and resumes from previous_response_id once approved', async () => {
    const tools = [{ ...calc(), require_approval: { always: { tool_names: ['secret_op'] } } }];
    chat.push({ call: { name: 'mcp__calc__secret_op', args: { target: 'vault' } } });
    const first = await responses.responses.create({ model: 'on-chat', input: 'Open the vault.', tools });
    expect(first.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_approval_request']);
    const request = first.output[1] as OpenAI.Responses.ResponseOutputItem.McpApprovalRequest;
    expect(request).toMatchObject({ server_label: 'calc', name: 'secret_op', arguments: '{"target":"vault"}' });
    expect(loggedCalls()).toEqual([]);
    chat.push({ text: 'The vault is open.' });
    const second = await responses.responses.create({
      model: 'on-chat',
      previous_response_id: first.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }],
      tools,
    });
    // The resumed loop lists the server's tools again (they may have changed), then runs the approved call.
    expect(second.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
    expect(second.output[1]).toMatchObject({ name: 'secret_op', output: 'secret operation done on vault', approval_request_id: request.id });
    expect(second.output_text).toBe('The vault is open.');
    expect(loggedCalls()).toEqual([{ mcpServer: 'calc', tool: 'secret_op', source: 'client', isError: false }]);
    expect(chatFollowUp()).toEqual([
      {
        role: 'assistant',
        tool_calls: [{ id: expect.any(String), type: 'function', function: { name: 'mcp__calc__secret_op', arguments: '{"target":"vault"}' } }],
      },
      { role: 'tool', tool_call_id: expect.any(String), content: 'secret operation done on vault' },
    ]);
  });
});

describe('Claude clients with mcp_servers on upstreams without MCP', () => {
  const servers = () => [{ type: 'url' as const, url: `${mcp.origin}/mcp`, name: 'calc' }];
  const toolset = [{ type: 'mcp_toolset' as const, mcp_server_name: 'calc' }];

  it('JSON on Gemini: mcp_tool_use and mcp_tool_result blocks, then the answer', async () => {
    gemini.push({ call: { name: 'mcp__calc__add', args: { a: 1, b: 1 } } }, { text: 'Two.' });
    const message = await claude.beta.messages.create({
      model: 'on-gemini',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'What is 1 + 1?' }],
      mcp_servers: servers(),
      tools: toolset,
      betas: ['mcp-client-2025-11-20'],
    });
    expect(message.content.map((block) => block.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text']);
    expect(message.content[0]).toMatchObject({ type: 'mcp_tool_use', server_name: 'calc', name: 'add', input: { a: 1, b: 1 } });
    expect(message.content[1]).toMatchObject({ type: 'mcp_tool_result', tool_use_id: (message.content[0] as { id: string }).id, is_error: false });
    expect(message.content[2]).toMatchObject({ type: 'text', text: 'Two.' });
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({ input_tokens: 20, output_tokens: 10 });
  });

  it('refuses a server outside the allowlist with a 403 in the Claude shape, and a server that cannot list its tools with a 502', async () => {
    const ask = (url: string) =>
      claude.beta.messages
        .create({
          model: 'on-gemini',
          max_tokens: 100,
          messages: [{ role: 'user', content: 'hi' }],
          mcp_servers: [{ type: 'url', url, name: 'calc' }],
          tools: toolset,
          betas: ['mcp-client-2025-11-20'],
        })
        .catch((thrown: unknown) => thrown);
    const refused = await ask('https://mcp.elsewhere.example/mcp');
    expect(refused).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect((refused as InstanceType<typeof Anthropic.PermissionDeniedError>).error).toMatchObject({
      type: 'error',
      error: { type: 'permission_error', message: `MCP server "calc": https://mcp.elsewhere.example/mcp is not on this gateway's MCP server allowlist` },
    });
    // On the allowlist, but no MCP server there: the listing fails, details in the log only.
    const broken = await ask(`${mcp.origin}/mcp/none`);
    expect(broken).toBeInstanceOf(Anthropic.APIError);
    expect((broken as InstanceType<typeof Anthropic.APIError>).status).toBe(502);
    // A 5xx message names the request id, as every gateway 5xx does.
    expect((broken as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      error: { message: `MCP server "calc" could not list its tools (request id ${String(accessLine().requestId)})` },
    });
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === 'mcp tools list failed')).toEqual([
      expect.objectContaining({ level: 40, mcpServer: 'calc', source: 'client', err: expect.stringContaining('LlmError(permission 403)') }),
      // Streamable HTTP answered 405, so the older transport was tried: it answered 405 too.
      expect.objectContaining({ level: 40, mcpServer: 'calc', source: 'client', err: 'Error: SSE error: Non-200 status code (405)' }),
    ]);
    expect(gemini.received).toHaveLength(0);
  });

  it('streamed on Chat: the SDK accumulator takes the stream', async () => {
    chat.push({ call: { name: 'mcp__calc__add', args: { a: 3, b: 4 } } }, { text: 'Seven.' });
    const message = await claude.beta.messages
      .stream({
        model: 'on-chat',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'What is 3 + 4?' }],
        mcp_servers: servers(),
        tools: toolset,
        betas: ['mcp-client-2025-11-20'],
      })
      .finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text']);
    expect(message.content[0]).toMatchObject({ server_name: 'calc', name: 'add', input: { a: 3, b: 4 } });
    expect(message.content[1]).toMatchObject({ type: 'mcp_tool_result', is_error: false });
    expect(message.content[2]).toMatchObject({ text: 'Seven.' });
    expect(message.usage).toMatchObject({ input_tokens: 20, output_tokens: 10 });
    expect(chatFollowUp()).toEqual([
      { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'mcp__calc__add', arguments: '{"a":3,"b":4}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '7' },
    ]);
  });
});

describe('every hosted-MCP client on every upstream without MCP, JSON and streamed', () => {
  const cases = (['responses', 'claude'] as const).flatMap((client) =>
    (['chat', 'gemini'] as const).flatMap((upstream) => [false, true].map((stream) => [client, upstream, stream] as const)),
  );

  it.each(cases)('%s client, %s upstream, stream %s: the call and its result, then the answer, usage summed', async (client, upstream, stream) => {
    const script = upstream === 'chat' ? chat : gemini;
    script.push({ call: { name: 'mcp__calc__add', args: { a: 20, b: 22 } } }, { text: 'The answer is 42.' });
    const model = upstream === 'chat' ? 'on-chat' : 'on-gemini';
    const input = 'What is 20 + 22?';
    if (client === 'responses') {
      const body = { model, input, tools: [calc()] };
      const answer = stream ? await responses.responses.stream(body).finalResponse() : await responses.responses.create(body);
      expect(answer.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
      expect(answer.output[1]).toMatchObject({ server_label: 'calc', name: 'add', arguments: '{"a":20,"b":22}', output: '42' });
      expect(answer.output_text).toBe('The answer is 42.');
      expect(answer.usage).toMatchObject({ input_tokens: 20, output_tokens: 10 });
    } else {
      const body = {
        model,
        max_tokens: 100,
        messages: [{ role: 'user' as const, content: input }],
        mcp_servers: [{ type: 'url' as const, url: `${mcp.origin}/mcp`, name: 'calc' }],
        tools: [{ type: 'mcp_toolset' as const, mcp_server_name: 'calc' }],
        betas: ['mcp-client-2025-11-20' as const],
      };
      const message = stream ? await claude.beta.messages.stream(body).finalMessage() : await claude.beta.messages.create(body);
      expect(message.content.map((block) => block.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text']);
      expect(message.content[0]).toMatchObject({ server_name: 'calc', name: 'add', input: { a: 20, b: 22 } });
      expect(message.content[1]).toMatchObject({
        is_error: false,
        tool_use_id: (message.content[0] as { id: string }).id,
        content: '42',
      });
      expect(message.content[2]).toMatchObject({ text: 'The answer is 42.' });
      expect(message.usage).toMatchObject({ input_tokens: 20, output_tokens: 10 });
    }
    expect(script.received).toHaveLength(2);
    expect(loggedCalls()).toEqual([{ mcpServer: 'calc', tool: 'add', source: 'client', isError: false }]);
    expect(accessLine()).toMatchObject({ status: 200, upstream, mcpCalls: [{ server: 'calc', tool: 'add', ms: expect.any(Number), isError: false }] });
  });
});

describe('a Chat client on a route with a gateway-configured stdio server', () => {
  const chatClient = () => new OpenAI({ apiKey: 'none', baseURL: `${gateway.url}/v1`, maxRetries: 0 });

  it('gets the answer while the gateway runs the local server’s tool, JSON and streamed', async () => {
    chat.push({ call: { name: 'mcp__local__add', args: { a: 5, b: 6 } } }, { text: 'Eleven.' });
    const completion = await chatClient().chat.completions.create({ model: 'with-local-tools', messages: [{ role: 'user', content: 'What is 5 + 6?' }] });
    expect(completion.choices[0]?.message.content).toBe('Eleven.');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
    expect((chat.received[0]?.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toContain('mcp__local__add');
    expect(chatFollowUp()).toEqual([
      { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'mcp__local__add', arguments: '{"a":5,"b":6}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '11' },
    ]);
    expect(loggedCalls()).toEqual([{ mcpServer: 'local', tool: 'add', source: 'gateway', isError: false }]);

    chat.push({ call: { name: 'mcp__local__add', args: { a: 1, b: 2 } } }, { text: 'Three.' });
    const streamed = await chatClient()
      .chat.completions.stream({ model: 'with-local-tools', messages: [{ role: 'user', content: 'What is 1 + 2?' }], stream_options: { include_usage: true } })
      .finalChatCompletion();
    expect(streamed.choices[0]?.message.content).toBe('Three.');
    // The test's third upstream request: its call is `call_3`.
    expect(chatFollowUp().at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_3', content: '3' });
    expect(loggedCalls()).toEqual([
      { mcpServer: 'local', tool: 'add', source: 'gateway', isError: false },
      { mcpServer: 'local', tool: 'add', source: 'gateway', isError: false },
    ]);
  });
});

describe('a gateway-configured stdio server and the gateway’s lifetime', () => {
  it('is started on first use and ended when the gateway closes', async () => {
    const own: string[] = [];
    const config = parseConfig(
      JSON.stringify({
        upstreams: { chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl, apiKey: 'k' } },
        routes: [{ match: '*', upstream: 'chat', mcpServers: ['local'] }],
        mcp: { servers: { local: { command: process.execPath, args: ['--import', 'tsx', STDIO_SERVER] } } },
        ledger: false,
      }),
      {},
    );
    const closing = await startGateway(config, { port: 0, logger: createLogger('info', { write: (line: string) => own.push(line) }) });
    const started = () => own.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === 'mcp server started');
    expect(started()).toEqual([]);
    chat.push({ call: { name: 'mcp__local__pid', args: {} } }, { text: 'done' });
    const client = new OpenAI({ apiKey: 'none', baseURL: `${closing.url}/v1`, maxRetries: 0 });
    await client.chat.completions.create({ model: 'any', messages: [{ role: 'user', content: 'Which pid?' }] });
    const [entry] = started();
    const pid = Number(entry?.pid);
    expect(chatFollowUp().at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: String(pid) });
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(true);
    await closing.close();
    await expect.poll(alive).toBe(false);
  });
});
