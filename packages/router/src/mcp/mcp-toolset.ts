import { LlmError, type LlmFunctionTool, type LlmMcpListToolsPart, type LlmMcpTool, type LlmMcpToolDescription, type LlmRequest } from '@llm/core';
import { MAX_MCP_SERVERS_PER_REQUEST, type McpCallContext, type McpConfig, type McpHost } from './mcp-host.js';
import { FunctionNames, baseFunctionName } from './mcp-names.js';

/** An MCP server a request uses, and whose it is. */
export interface McpServerUse {
  server: LlmMcpTool;
  source: McpCallContext['source'];
}

/** One MCP tool offered to the upstream as a function. */
export interface McpOfferedTool {
  /** The function name the upstream sees. */
  functionName: string;
  server: LlmMcpTool;
  source: McpCallContext['source'];
  tool: LlmMcpToolDescription;
}

/**
 * The MCP servers the router runs for this request: the route's configured ones (always), and
 * the request's own MCP tools when the upstream cannot host them. Empty: no loop.
 */
export function mcpServersFor(request: LlmRequest, routeServers: readonly string[] | undefined, config: McpConfig, upstreamHostsMcp: boolean): McpServerUse[] {
  const uses: McpServerUse[] = [];
  for (const name of routeServers ?? []) {
    const server = config.servers?.[name];
    // createRouter checked every name; a config changed under a running router is still no crash.
    if (server) uses.push({ server: { ...server, name }, source: 'gateway' });
  }
  if (!upstreamHostsMcp) {
    for (const tool of request.tools ?? []) if (tool.type === 'mcp') uses.push({ server: tool, source: 'client' });
  }
  if (uses.length > MAX_MCP_SERVERS_PER_REQUEST) {
    throw new LlmError({
      kind: 'invalid_request',
      message: `at most ${MAX_MCP_SERVERS_PER_REQUEST} MCP servers per request (${uses.length} given)`,
      path: 'tools',
    });
  }
  const labels = new Set<string>();
  for (const { server } of uses) {
    if (labels.has(server.name)) {
      throw new LlmError({ kind: 'invalid_request', message: `MCP server label ${server.name} is used twice`, path: 'tools' });
    }
    labels.add(server.name);
  }
  return uses;
}

/** Route server names missing from `RouterConfig.mcp.servers` (a configuration error). */
export function unknownRouteServers(config: { routes: readonly { mcpServers?: string[] }[]; mcp?: McpConfig }): string[] {
  const missing: string[] = [];
  for (const route of config.routes) {
    for (const name of route.mcpServers ?? []) if (!config.mcp?.servers?.[name] && !missing.includes(name)) missing.push(name);
  }
  return missing;
}

/**
 * The tools of a request's MCP servers, listed once per request, and their function names both
 * ways. Listing fails the request (the host's LlmError) before anything is sent upstream.
 */
export class McpToolset {
  private readonly byFunction = new Map<string, McpOfferedTool>();
  private readonly byServerTool = new Map<string, string>();

  private constructor(
    /** The `mcp-list-tools` parts the client sees, one per server. */
    readonly listings: LlmMcpListToolsPart[],
    offered: McpOfferedTool[],
  ) {
    for (const entry of offered) {
      this.byFunction.set(entry.functionName, entry);
      this.byServerTool.set(serverToolKey(entry.server.name, entry.tool.name), entry.functionName);
    }
  }

  /** Lists every server's tools (at once), keeping the allowed ones; `taken`: the request's own tool names. */
  static async list(uses: readonly McpServerUse[], taken: Iterable<string>, host: McpHost, context: Omit<McpCallContext, 'source'>): Promise<McpToolset> {
    const listed = await Promise.all(uses.map((use) => host.listTools(use.server, { ...context, source: use.source })));
    const names = new FunctionNames(taken);
    const listings: LlmMcpListToolsPart[] = [];
    const offered: McpOfferedTool[] = [];
    uses.forEach((use, index) => {
      const allowed = use.server.allowedTools;
      const tools = (listed[index] ?? []).filter((tool) => allowed === undefined || allowed.includes(tool.name));
      listings.push({ type: 'mcp-list-tools', id: mintId('mcpl_'), server: use.server.name, tools });
      for (const tool of tools) offered.push({ functionName: names.claim(use.server.name, tool.name), server: use.server, source: use.source, tool });
    });
    return new McpToolset(listings, offered);
  }

  /** The MCP tool a function name stands for, if any. */
  toolOf(functionName: string): McpOfferedTool | undefined {
    return this.byFunction.get(functionName);
  }

  /** The listed tool `tool` of server `server`, if offered. */
  find(server: string, tool: string): McpOfferedTool | undefined {
    const name = this.byServerTool.get(serverToolKey(server, tool));
    return name === undefined ? undefined : this.byFunction.get(name);
  }

  /** The function name of a call in the history (a tool no longer listed keeps its base name). */
  functionNameOf(server: string, tool: string): string {
    return this.byServerTool.get(serverToolKey(server, tool)) ?? baseFunctionName(server, tool);
  }

  /** The function tools the upstream gets. */
  functionTools(): LlmFunctionTool[] {
    return [...this.byFunction.values()].map(({ functionName, tool, server }) => {
      const fn: LlmFunctionTool = { type: 'function', name: functionName, parameters: tool.inputSchema };
      const description = tool.description ?? server.description;
      if (description !== undefined) fn.description = description;
      return fn;
    });
  }
}

function serverToolKey(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}

/** A fresh item id: `prefix` + 32 hex digits. */
export function mintId(prefix: string): string {
  return prefix + crypto.randomUUID().replace(/-/g, '');
}
