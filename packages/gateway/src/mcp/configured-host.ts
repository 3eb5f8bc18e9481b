import type { LlmMcpTool } from '@llm/core';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/schema.js';
import type { McpConfig } from '@llm/router';
import { type GatewayMcpHost, type McpHostConfig, type McpServerConfig, createMcpHost } from './host.js';

type McpSection = NonNullable<GatewayConfig['mcp']>;

/** The host's view of the config's `mcp` section: each server as remote or local. */
export function mcpHostConfig(mcp: McpSection): McpHostConfig {
  const servers: Record<string, McpServerConfig> = {};
  for (const [name, server] of Object.entries(mcp.servers ?? {})) {
    servers[name] =
      server.url !== undefined
        ? { url: server.url, ...(server.headers && { headers: server.headers }) }
        : { command: server.command as string, ...(server.args && { args: server.args }), ...(server.env && { env: server.env }) };
  }
  const out: McpHostConfig = { servers };
  if (mcp.allowClientServers) out.allowClientServers = mcp.allowClientServers;
  if (mcp.callTimeoutMs !== undefined) out.callTimeoutMs = mcp.callTimeoutMs;
  if (mcp.maxResultBytes !== undefined) out.maxResultBytes = mcp.maxResultBytes;
  return out;
}

/**
 * RouterConfig.mcp for a config's `mcp` section. The router knows the configured servers by name
 * only: their URLs, headers and commands stay with the host, which looks them up by that name.
 */
export function routerMcpConfig(mcp: McpSection, host: GatewayMcpHost): McpConfig {
  const servers: Record<string, LlmMcpTool> = {};
  for (const name of Object.keys(mcp.servers ?? {})) servers[name] = { type: 'mcp', name };
  const out: McpConfig = { host, servers };
  if (mcp.maxTurns !== undefined) out.maxTurns = mcp.maxTurns;
  if (mcp.timeBudgetMs !== undefined) out.timeBudgetMs = mcp.timeBudgetMs;
  return out;
}

/**
 * The gateway's MCP host across reloads: kept while the `mcp` section is unchanged (its stdio
 * servers keep running), replaced when it changes (the old one closed: its servers end, and calls
 * still running on them become error results), closed with the gateway.
 */
export class ConfiguredMcpHost {
  private current: { section: string; host: GatewayMcpHost } | undefined;

  constructor(private readonly logger: Logger) {}

  /** The host for `mcp`; undefined without an `mcp` section. */
  for(mcp: GatewayConfig['mcp']): GatewayMcpHost | undefined {
    const section = mcp === undefined ? undefined : JSON.stringify(mcp);
    if (this.current && this.current.section === section) return this.current.host;
    void this.close();
    if (!mcp || section === undefined) return undefined;
    const host = createMcpHost(mcpHostConfig(mcp), this.logger);
    this.current = { section, host };
    return host;
  }

  async close(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    await current?.host.close();
  }
}
