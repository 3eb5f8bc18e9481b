import type { CancelSignal, JsonObject, LlmMcpTool, LlmMcpToolDescription, LlmTextPart } from '@llm/core';

/**
 * The router's side of MCP: where an upstream cannot run remote MCP servers itself
 * (`Codec.traits.hostedMcp` false), the router runs the loop (list, offer as functions, call,
 * feed back) and an {@link McpHost} talks to the servers. The gateway's host uses the official
 * SDK; the router stays free of it.
 */

/** Default of `RouterConfig.mcp.maxTurns`: upstream calls one request may make in the loop. */
export const DEFAULT_MCP_MAX_TURNS = 8;

/** Default of `RouterConfig.mcp.timeBudgetMs`: 2 minutes for the whole loop. */
export const DEFAULT_MCP_TIME_BUDGET_MS = 120_000;

/** Most MCP servers one request may use (its own and the route's): more is a 400. */
export const MAX_MCP_SERVERS_PER_REQUEST = 16;

/** Most MCP calls of one turn the router runs; the model is told the others were not run. */
export const MAX_MCP_CALLS_PER_TURN = 16;

/** What a host knows of the call it serves. */
export interface McpCallContext {
  /** The request's cancellation (client gone, deadline passed). */
  signal?: CancelSignal;
  /** The request's `clientKeyId`. */
  clientKeyId?: string;
  /** 'client': from the request's tools (the host's allowlist applies); 'gateway': a configured server. */
  source: 'client' | 'gateway';
}

/** An MCP tool's output, as the host gives it back. */
export interface McpToolOutput {
  content: string | LlmTextPart[];
  isError: boolean;
}

/** Talks to MCP servers for the router's loop. */
export interface McpHost {
  /** The server's tools. Throws LlmError (kind + status + message safe for the client) on failure / refusal. */
  listTools(server: LlmMcpTool, context: McpCallContext): Promise<LlmMcpToolDescription[]>;
  /** Runs one tool. Tool/server errors come back as isError results, never thrown (thrown = the request fails). */
  callTool(server: LlmMcpTool, tool: string, args: JsonObject, context: McpCallContext): Promise<McpToolOutput>;
}

/** `RouterConfig.mcp`: the host and the loop's bounds. */
export interface McpConfig {
  host: McpHost;
  /** Gateway-configured servers by name; routes attach them by name (`RouteRule.mcpServers`). */
  servers?: Record<string, LlmMcpTool>;
  /** Upstream calls one request may make in the loop (default {@link DEFAULT_MCP_MAX_TURNS}). */
  maxTurns?: number;
  /** Milliseconds the loop may run (default {@link DEFAULT_MCP_TIME_BUDGET_MS}). */
  timeBudgetMs?: number;
}

/** One MCP call the loop made, in `RequestRecord.mcpCalls`. */
export interface McpCallRecord {
  server: string;
  tool: string;
  ms: number;
  isError: boolean;
}
