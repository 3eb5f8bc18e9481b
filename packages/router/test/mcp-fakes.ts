// An MCP host and scripted upstreams for the MCP loop's tests: the host is a fake (the real SDK
// and a real MCP server are the gateway's tests); the upstreams answer each turn in turn.
import { LlmError, type JsonObject, type LlmMcpTool, type LlmMcpToolDescription } from '@llm/core';
import type { RequestRecord, RouterConfig, UpstreamRequest, UpstreamResponse } from '../src/config.js';
import { createRouter } from '../src/handler.js';
import type { McpCallContext, McpHost, McpToolOutput } from '../src/mcp/mcp-host.js';
import type { RouterReply } from '../src/reply.js';

/** One call the fake host saw. */
export interface HostCall {
  op: 'list' | 'call';
  server: string;
  tool?: string;
  args?: JsonObject;
  source: McpCallContext['source'];
  clientKeyId?: string;
}

/** A fake MCP host: each server's tools, and how a call ends. */
export function fakeHost(
  tools: Record<string, LlmMcpToolDescription[]>,
  run: (server: string, tool: string, args: JsonObject) => McpToolOutput | Promise<McpToolOutput> = (_server, tool, args) => ({
    content: `${tool}(${JSON.stringify(args)})`,
    isError: false,
  }),
): McpHost & { seen: HostCall[] } {
  const seen: HostCall[] = [];
  return {
    seen,
    async listTools(server: LlmMcpTool, context: McpCallContext) {
      seen.push(entry({ op: 'list', server: server.name, source: context.source }, context));
      const listed = tools[server.name];
      if (!listed) throw new LlmError({ kind: 'permission', message: `MCP server ${server.url ?? server.name} is not allowed`, path: 'tools' });
      return listed;
    },
    async callTool(server: LlmMcpTool, tool: string, args: JsonObject, context: McpCallContext) {
      seen.push(entry({ op: 'call', server: server.name, tool, args, source: context.source }, context));
      return run(server.name, tool, args);
    },
  };
}

function entry(call: HostCall, context: McpCallContext): HostCall {
  if (context.clientKeyId !== undefined) call.clientKeyId = context.clientKeyId;
  return call;
}

/** Two tools of a docs server. */
export const DOCS_TOOLS: LlmMcpToolDescription[] = [
  { name: 'search', description: 'Search the docs', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
  { name: 'fetch', description: 'Fetch a page', inputSchema: { type: 'object', properties: { url: { type: 'string' } } } },
];

/** A router over scripted upstream answers (one per upstream call, in order), recording what it sent. */
export function scriptedRouter(config: Omit<RouterConfig, 'transport'>, answers: Array<UpstreamResponse | (() => UpstreamResponse)>) {
  const sent: UpstreamRequest[] = [];
  const records: RequestRecord[] = [];
  const route = createRouter({
    ...config,
    transport: async (request) => {
      sent.push(request);
      const next = answers.shift();
      if (!next) throw new Error('no scripted answer left');
      return typeof next === 'function' ? next() : next;
    },
    hooks: { onRequestEnd: (record) => records.push(record) },
  });
  return {
    sent,
    records,
    /** The JSON bodies sent upstream. */
    bodies: () => sent.map((request) => JSON.parse(new TextDecoder().decode(request.body as Uint8Array)) as Record<string, unknown>),
    call: (path: string, body: unknown, headers: Record<string, string> = {}, clientKeyId?: string): Promise<RouterReply> =>
      route({
        method: 'POST',
        url: `http://router.test${path}`,
        headers: new Headers({ 'content-type': 'application/json', ...headers }),
        text: async () => JSON.stringify(body),
        clientKeyId,
      }),
  };
}

/** A reply's body as text (a stream read to its end). */
export async function replyText(reply: RouterReply): Promise<string> {
  const body = reply.body;
  if (typeof body === 'string') return body;
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of body as AsyncIterable<string | Uint8Array>) text += typeof chunk === 'string' ? chunk : decoder.decode(chunk);
  return text;
}
