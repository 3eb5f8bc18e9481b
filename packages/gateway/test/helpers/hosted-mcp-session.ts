// What a provider hosting MCP does with a client's server, for the hosted-MCP mock upstreams
// (hosted-mcp-claude.ts, hosted-mcp-responses.ts): it connects with the official SDK's client
// (Streamable HTTP), lists the tools, and calls one of them.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** A tool as the server listed it. */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: unknown;
}

/** One scripted model turn of a hosted-MCP mock: the tool it calls, then the text it answers with the tool's output. */
export interface HostedMcpTurn {
  tool: string;
  args: Record<string, unknown>;
  text: (output: string) => string;
}

/** An open connection to a client's MCP server. */
export interface HostedMcpSession {
  /** The server's tools, those in `allowed` only when given. */
  list(allowed?: readonly string[]): Promise<ListedTool[]>;
  /** Calls a tool: its text output, and whether the tool reported an error. */
  call(tool: string, args: Record<string, unknown>): Promise<{ output: string; isError: boolean }>;
  close(): Promise<void>;
}

/** Connects to the MCP server at `url`, sending `headers` (a bearer token among them) with every request. */
export async function openHostedMcpSession(url: string, headers: Record<string, string>): Promise<HostedMcpSession> {
  const client = new Client({ name: 'hosted-mcp-mock-provider', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return {
    async list(allowed) {
      const { tools } = await client.listTools();
      return tools
        .filter((tool) => allowed === undefined || allowed.includes(tool.name))
        .map((tool) => ({
          name: tool.name,
          ...(tool.description !== undefined ? { description: tool.description } : {}),
          inputSchema: tool.inputSchema as Record<string, unknown>,
          ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
        }));
    },
    async call(tool, args) {
      const result = await client.callTool({ name: tool, arguments: args });
      const content = (result.content ?? []) as { type: string; text?: string }[];
      return { output: content.map((item) => (item.type === 'text' ? (item.text ?? '') : '')).join(''), isError: result.isError === true };
    },
    close: () => client.close(),
  };
}
