// A Claude Messages upstream that hosts MCP as Anthropic's MCP connector does: a request with
// `mcp_servers` needs an `mcp-client-` beta in `anthropic-beta` (else 400 `invalid_request_error`);
// the mock connects to each server with the official SDK's client, lists its tools (those its
// `mcp_toolset` enables), calls the scripted tool on the first server and answers with
// `mcp_tool_use`, `mcp_tool_result` and text blocks, as JSON or as Anthropic's event stream.
import type { IncomingHttpHeaders } from 'node:http';
import { type HostedMcpSession, type HostedMcpTurn, openHostedMcpSession } from './hosted-mcp-session.js';
import { type JsonBody as Wire, type UpstreamAnswer, startJsonUpstream } from './json-upstream.js';
import { sseText } from './sse-frames.js';

export interface HostedMcpClaude {
  /** Base URL for a `claude` upstream (the origin). */
  readonly baseUrl: string;
  /** Each request's headers and JSON body, in order. */
  readonly received: { headers: IncomingHttpHeaders; body: Wire }[];
  /** The tools each request's servers listed, by server name. */
  readonly listed: Record<string, string[]>[];
  /** Queues turns, one a request. */
  push(...turns: HostedMcpTurn[]): void;
  close(): Promise<void>;
}

const USAGE = { input_tokens: 30, output_tokens: 12 };

/** The error Anthropic answers a request whose `mcp_servers` came without the MCP connector's beta. */
export const MISSING_BETA_ERROR = {
  type: 'error',
  error: { type: 'invalid_request_error', message: 'mcp_servers: Extra inputs are not permitted' },
};

/** The tools a server's `mcp_toolset` enables: all by default, only the `enabled` configs when the default is off. */
function enabledTools(body: Wire, server: string): string[] | undefined {
  const toolset = ((body.tools as Wire[] | undefined) ?? []).find((tool) => tool.type === 'mcp_toolset' && tool.mcp_server_name === server);
  if (!toolset || (toolset.default_config as Wire | undefined)?.enabled !== false) return undefined;
  return Object.entries((toolset.configs as Record<string, Wire> | undefined) ?? {})
    .filter(([, config]) => config.enabled === true)
    .map(([name]) => name);
}

/** The answer's content blocks: the call of the first server's tool, its result, the text. */
async function answerBlocks(body: Wire, turn: HostedMcpTurn, listed: Record<string, string[]>): Promise<Wire[]> {
  const servers = body.mcp_servers as { name: string; url: string; authorization_token?: string }[];
  const sessions: HostedMcpSession[] = [];
  try {
    for (const server of servers) {
      const headers: Record<string, string> = server.authorization_token ? { authorization: `Bearer ${server.authorization_token}` } : {};
      const session = await openHostedMcpSession(server.url, headers);
      sessions.push(session);
      listed[server.name] = (await session.list(enabledTools(body, server.name))).map((tool) => tool.name);
    }
    const first = servers[0]!;
    const { output, isError } = await sessions[0]!.call(turn.tool, turn.args);
    return [
      { type: 'mcp_tool_use', id: 'mcptoolu_01', name: turn.tool, server_name: first.name, input: turn.args },
      { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_01', is_error: isError, content: [{ type: 'text', text: output }] },
      { type: 'text', text: turn.text(output) },
    ];
  } finally {
    await Promise.all(sessions.map((session) => session.close()));
  }
}

/** The message as JSON. */
function messageJson(model: string, content: Wire[]): string {
  return JSON.stringify({
    id: 'msg_hosted_mcp',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: USAGE,
  });
}

/**
 * The message as Anthropic streams it: `message_start`, `ping`, per block `content_block_start`
 * (a tool use with empty `input`, a text with empty `text`, a result whole), its deltas
 * (`input_json_delta` in two halves, `text_delta`) and `content_block_stop`, then `message_delta`
 * and `message_stop`.
 */
function messageStream(model: string, content: Wire[]): string {
  const frames: { event: string; data: Wire }[] = [];
  const add = (event: string, data: Wire = {}) => frames.push({ event, data: { type: event, ...data } });
  add('message_start', {
    message: {
      id: 'msg_hosted_mcp',
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: USAGE.input_tokens, output_tokens: 1 },
    },
  });
  add('ping');
  content.forEach((block, index) => {
    if (block.type === 'mcp_tool_use') {
      add('content_block_start', { index, content_block: { ...block, input: {} } });
      const json = JSON.stringify(block.input);
      const half = Math.ceil(json.length / 2);
      for (const partial_json of [json.slice(0, half), json.slice(half)])
        add('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    } else if (block.type === 'text') {
      add('content_block_start', { index, content_block: { type: 'text', text: '' } });
      add('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else add('content_block_start', { index, content_block: block });
    add('content_block_stop', { index });
  });
  add('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: USAGE.output_tokens } });
  add('message_stop');
  return sseText(frames);
}

/** Starts the mock on a free loopback port; a request with no turn queued gets 500. */
export async function startHostedMcpClaude(): Promise<HostedMcpClaude> {
  const turns: HostedMcpTurn[] = [];
  const listed: HostedMcpClaude['listed'] = [];
  const answer = async (headers: IncomingHttpHeaders, body: Wire): Promise<UpstreamAnswer> => {
    const hasServers = Array.isArray(body.mcp_servers) && body.mcp_servers.length > 0;
    const betas = String(headers['anthropic-beta'] ?? '').split(',');
    if (hasServers && !betas.some((beta) => beta.trim().startsWith('mcp-client-')))
      return { status: 400, type: 'application/json', text: JSON.stringify(MISSING_BETA_ERROR) };
    const turn = turns.shift();
    if (!turn || !hasServers) return { status: 500, type: 'text/plain', text: 'no scripted turn, or no mcp_servers' };
    const servers: Record<string, string[]> = {};
    listed.push(servers);
    const content = await answerBlocks(body, turn, servers);
    const model = String(body.model);
    return body.stream === true
      ? { status: 200, type: 'text/event-stream', text: messageStream(model, content) }
      : { status: 200, type: 'application/json', text: messageJson(model, content) };
  };
  const upstream = await startJsonUpstream(answer);
  return {
    baseUrl: upstream.origin,
    received: upstream.received,
    listed,
    push: (...next) => void turns.push(...next),
    close: () => upstream.close(),
  };
}
