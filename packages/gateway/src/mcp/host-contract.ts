// The router <-> gateway MCP contract (issue 24), as the router loop will export it from
// @llm/router. Kept here until that lands, then re-exported from there.
import type { CancelSignal, JsonObject, LlmMcpTool, LlmMcpToolDescription, LlmTextPart } from '@llm/core';

/** Who a call runs for. */
export interface McpCallContext {
  /** The request's cancel signal. */
  signal?: CancelSignal;
  clientKeyId?: string;
  /** 'client': from the request's tools (the allowlist applies); 'gateway': a configured server. */
  source: 'client' | 'gateway';
}

/** The outcome of one MCP tool call. */
export interface McpToolResult {
  content: string | LlmTextPart[];
  isError: boolean;
}

/** Runs remote MCP servers' tools for the router's MCP loop. */
export interface McpHost {
  /** The server's tools. Throws LlmError (kind + status + message safe for the client) on failure / refusal. */
  listTools(server: LlmMcpTool, context: McpCallContext): Promise<LlmMcpToolDescription[]>;
  /** Runs one tool. Tool/server errors come back as isError results, never thrown (thrown = the request fails). */
  callTool(server: LlmMcpTool, tool: string, args: JsonObject, context: McpCallContext): Promise<McpToolResult>;
}

/** RouterConfig.mcp: the host, the configured servers routes attach by name, the loop's limits. */
export interface RouterMcpConfig {
  host: McpHost;
  servers?: Record<string, LlmMcpTool>;
  maxTurns?: number;
  timeBudgetMs?: number;
}
