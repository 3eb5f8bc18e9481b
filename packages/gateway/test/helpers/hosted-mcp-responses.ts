// A Responses upstream that hosts MCP as OpenAI does: for each `mcp` tool it connects to the
// server with the official SDK's client (its `headers` and `authorization` sent along) and lists
// the tools (`allowed_tools` only) in an `mcp_list_tools` item; the scripted call on the first
// server becomes an `mcp_call` item with its output, then a message, or, when `require_approval`
// asks for it, an `mcp_approval_request` item and nothing more (the tool is not called). An
// `mcp_approval_response` in the input runs the approved call. JSON or OpenAI's event stream.
import type { IncomingHttpHeaders } from 'node:http';
import { type HostedMcpSession, type HostedMcpTurn, openHostedMcpSession } from './hosted-mcp-session.js';
import { type JsonBody as Wire, type UpstreamAnswer, startJsonUpstream } from './json-upstream.js';
import { sseText } from './sse-frames.js';

export interface HostedMcpResponses {
  /** Base URL for an `openai-responses` upstream (`<origin>/v1`). */
  readonly baseUrl: string;
  /** Each request's headers and JSON body, in order. */
  readonly received: { headers: IncomingHttpHeaders; body: Wire }[];
  /** Queues turns, one a request. */
  push(...turns: HostedMcpTurn[]): void;
  close(): Promise<void>;
}

const USAGE = { input_tokens: 40, output_tokens: 16 };

interface McpToolWire {
  server_label: string;
  server_url: string;
  headers?: Record<string, string>;
  authorization?: string;
  allowed_tools?: string[] | { tool_names?: string[] };
  require_approval?: 'always' | 'never' | { always?: { tool_names?: string[] }; never?: { tool_names?: string[] } };
}

/** Whether a call of `tool` waits for the client (OpenAI's default, with no setting, is to ask). */
function needsApproval(setting: McpToolWire['require_approval'], tool: string): boolean {
  if (setting === undefined || setting === 'always') return true;
  if (setting === 'never') return false;
  if (setting.always?.tool_names?.includes(tool)) return true;
  if (setting.never?.tool_names?.includes(tool)) return false;
  return true;
}

function allowedOf(tool: McpToolWire): string[] | undefined {
  const allowed = tool.allowed_tools;
  return allowed === undefined ? undefined : Array.isArray(allowed) ? allowed : allowed.tool_names;
}

/** The approval the input answers, when it holds an `mcp_approval_response` that approves. */
function approvalIn(body: Wire): string | undefined {
  const input = Array.isArray(body.input) ? (body.input as Wire[]) : [];
  const response = input.find((item) => item.type === 'mcp_approval_response' && item.approve === true);
  return response?.approval_request_id as string | undefined;
}

/** The answer's output items. */
async function answerItems(body: Wire, turn: HostedMcpTurn): Promise<Wire[]> {
  const tools = ((body.tools as Wire[] | undefined) ?? []).filter((tool) => tool.type === 'mcp') as unknown as McpToolWire[];
  const sessions: HostedMcpSession[] = [];
  const items: Wire[] = [];
  try {
    for (const [index, tool] of tools.entries()) {
      const headers = { ...tool.headers, ...(tool.authorization ? { authorization: `Bearer ${tool.authorization}` } : {}) };
      const session = await openHostedMcpSession(tool.server_url, headers);
      sessions.push(session);
      const listed = await session.list(allowedOf(tool));
      items.push({
        id: `mcpl_${index + 1}`,
        type: 'mcp_list_tools',
        server_label: tool.server_label,
        tools: listed.map(({ inputSchema, ...rest }) => ({ ...rest, input_schema: inputSchema, annotations: rest.annotations ?? null })),
      });
    }
    const first = tools[0]!;
    const args = JSON.stringify(turn.args);
    const approved = approvalIn(body);
    if (approved === undefined && needsApproval(first.require_approval, turn.tool)) {
      items.push({ id: 'mcpr_1', type: 'mcp_approval_request', server_label: first.server_label, name: turn.tool, arguments: args });
      return items;
    }
    const { output, isError } = await sessions[0]!.call(turn.tool, turn.args);
    items.push({
      id: 'mcp_1',
      type: 'mcp_call',
      server_label: first.server_label,
      name: turn.tool,
      arguments: args,
      approval_request_id: approved ?? null,
      error: isError ? output : null,
      output: isError ? null : output,
      status: isError ? 'failed' : 'completed',
    });
    items.push({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: turn.text(output), annotations: [], logprobs: [] }],
    });
    return items;
  } finally {
    await Promise.all(sessions.map((session) => session.close()));
  }
}

function responseObject(body: Wire, status: 'in_progress' | 'completed', output: Wire[]): Wire {
  return {
    id: 'resp_hosted_mcp',
    object: 'response',
    created_at: 1_700_000_000,
    status,
    error: null,
    incomplete_details: null,
    model: body.model,
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: body.tools ?? [],
    usage:
      status === 'completed'
        ? {
            input_tokens: USAGE.input_tokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: USAGE.output_tokens,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: USAGE.input_tokens + USAGE.output_tokens,
          }
        : null,
  };
}

/** The stream events of one output item, between its `output_item.added` and `output_item.done`. */
function itemEvents(item: Wire, output_index: number): Wire[] {
  const item_id = item.id;
  const at = { item_id, output_index };
  switch (item.type) {
    case 'mcp_list_tools':
      return [
        { type: 'response.output_item.added', output_index, item: { ...item, tools: [] } },
        { type: 'response.mcp_list_tools.in_progress', ...at },
        { type: 'response.mcp_list_tools.completed', ...at },
        { type: 'response.output_item.done', output_index, item },
      ];
    case 'mcp_call': {
      const args = String(item.arguments);
      const half = Math.ceil(args.length / 2);
      return [
        { type: 'response.output_item.added', output_index, item: { ...item, arguments: '', output: null, error: null, status: 'in_progress' } },
        { type: 'response.mcp_call.in_progress', ...at },
        { type: 'response.mcp_call_arguments.delta', ...at, delta: args.slice(0, half) },
        { type: 'response.mcp_call_arguments.delta', ...at, delta: args.slice(half) },
        { type: 'response.mcp_call_arguments.done', ...at, arguments: args },
        { type: item.status === 'failed' ? 'response.mcp_call.failed' : 'response.mcp_call.completed', ...at },
        { type: 'response.output_item.done', output_index, item },
      ];
    }
    case 'message': {
      const part = (item.content as Wire[])[0]!;
      const content = { ...at, content_index: 0 };
      return [
        { type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress', content: [] } },
        { type: 'response.content_part.added', ...content, part: { ...part, text: '' } },
        { type: 'response.output_text.delta', ...content, delta: part.text, logprobs: [] },
        { type: 'response.output_text.done', ...content, text: part.text, logprobs: [] },
        { type: 'response.content_part.done', ...content, part },
        { type: 'response.output_item.done', output_index, item },
      ];
    }
    default:
      return [
        { type: 'response.output_item.added', output_index, item },
        { type: 'response.output_item.done', output_index, item },
      ];
  }
}

/** The answer as OpenAI streams it: `response.created`, `response.in_progress`, each item's events, `response.completed`. */
function responseStream(body: Wire, output: Wire[]): string {
  const events: Wire[] = [
    { type: 'response.created', response: responseObject(body, 'in_progress', []) },
    { type: 'response.in_progress', response: responseObject(body, 'in_progress', []) },
    ...output.flatMap(itemEvents),
    { type: 'response.completed', response: responseObject(body, 'completed', output) },
  ];
  return sseText(events.map((event, sequence_number) => ({ event: String(event.type), data: { ...event, sequence_number } })));
}

/** Starts the mock on a free loopback port; a request with no turn queued gets 500. */
export async function startHostedMcpResponses(): Promise<HostedMcpResponses> {
  const turns: HostedMcpTurn[] = [];
  const answer = async (_headers: IncomingHttpHeaders, body: Wire): Promise<UpstreamAnswer> => {
    const turn = turns.shift();
    if (!turn) return { status: 500, type: 'text/plain', text: 'no scripted turn' };
    const output = await answerItems(body, turn);
    return body.stream === true
      ? { status: 200, type: 'text/event-stream', text: responseStream(body, output) }
      : { status: 200, type: 'application/json', text: JSON.stringify(responseObject(body, 'completed', output)) };
  };
  const upstream = await startJsonUpstream(answer);
  return {
    baseUrl: `${upstream.origin}/v1`,
    received: upstream.received,
    push: (...next) => void turns.push(...next),
    close: () => upstream.close(),
  };
}
