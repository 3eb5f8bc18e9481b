import { reportForeignToolFields, reportLoss, type CodecContext, type LlmMcpTool, type LlmRequest, type LlmTool } from '@llm/core';
import { PROTOCOL, ext } from './protocol.js';

type Wire = Record<string, unknown>;

/**
 * The MCP connector's request side <-> canonical MCP tools: each `mcp_servers` entry (URL, bearer
 * token) with its `mcp_toolset` tool (which of the server's tools are enabled) is one
 * {@link LlmMcpTool}, at the toolset's place in `tools`. Written in the `mcp-client-2025-11-20`
 * form (server plus toolset; an allowlist is `default_config: {enabled: false}` and one
 * `{enabled: true}` config per tool); a server that came without a toolset (the deprecated
 * `mcp-client-2025-04-04` form, `tool_configuration` on the server) goes back in that form.
 * @see https://platform.claude.com/docs/en/agents-and-tools/mcp-connector
 */

/** The beta the toolset form needs, and the one the deprecated server-only form needs. */
export const MCP_BETA = 'mcp-client-2025-11-20';
export const MCP_LEGACY_BETA = 'mcp-client-2025-04-04';

const SERVER_KNOWN = new Set(['type', 'name', 'url', 'authorization_token', 'tool_configuration']);
/** Bag key holding the toolset's fields that have no canonical home (a denylist, `defer_loading`, `cache_control`). */
const TOOLSET = 'mcp_toolset';

/**
 * `mcp_servers` -> canonical MCP tools in `request.tools` (each replaces its `mcp_toolset`, which
 * the tool decoder kept whole; a server without one is added at the end). A list holding an entry
 * of another kind than `url` stays whole in `rest`, with its toolsets.
 */
export function decodeMcpServers(wire: Wire, request: LlmRequest, rest: Wire): void {
  const servers = wire.mcp_servers;
  if (!Array.isArray(servers) || !servers.every(isUrlServer)) return;
  delete rest.mcp_servers;
  const tools: LlmTool[] = request.tools ?? [];
  servers.forEach((server, index) => {
    const tool = decodeServer(server, index);
    const at = tools.findIndex((entry) => entry.type === 'provider' && isToolsetOf(entry.value, server.name));
    if (at >= 0) {
      decodeToolset((tools[at] as { value: Wire }).value, tool);
      tools[at] = tool;
    } else {
      ext.mark(tool, 'noToolset', true);
      tools.push(tool);
    }
  });
  if (tools.length > 0) request.tools = tools;
}

function isUrlServer(value: unknown): value is Wire & { name: string; url: string } {
  if (typeof value !== 'object' || value === null) return false;
  const server = value as Wire;
  return server.type === 'url' && typeof server.name === 'string' && typeof server.url === 'string';
}

function isToolsetOf(value: unknown, name: string): value is Wire {
  return typeof value === 'object' && value !== null && (value as Wire).type === 'mcp_toolset' && (value as Wire).mcp_server_name === name;
}

function decodeServer(server: Wire & { name: string; url: string }, index: number): LlmMcpTool {
  const tool: LlmMcpTool = { type: 'mcp', name: server.name, url: server.url };
  const bag: Wire = ext.rest(server, SERVER_KNOWN) ?? {};
  bag.$server = index;
  if (typeof server.authorization_token === 'string') tool.authorization = server.authorization_token;
  const config = server.tool_configuration;
  if (config !== undefined && config !== null) {
    const { allowed_tools: allowed, enabled, ...others } = config as Wire;
    if (isStringList(allowed) && (enabled === undefined || enabled === true) && Object.keys(others).length === 0) {
      tool.allowedTools = allowed;
      if (enabled === true) bag.$enabled = true;
    } else bag.tool_configuration = config;
  }
  return ext.keep(tool, bag);
}

/** A toolset's allowlist (`default_config: {enabled: false}`, `{enabled: true}` per tool) is canonical; the rest stays in the bag. */
function decodeToolset(toolset: Wire, tool: LlmMcpTool): void {
  const { type: _type, mcp_server_name: _name, ...fields } = toolset;
  const configs = fields.configs;
  if (
    isOnly(fields.default_config, { enabled: false }) &&
    typeof configs === 'object' &&
    configs !== null &&
    Object.values(configs).every((config) => isOnly(config, { enabled: true }))
  ) {
    tool.allowedTools = Object.keys(configs);
    delete fields.default_config;
    delete fields.configs;
  }
  if (Object.keys(fields).length > 0) (ext.bag(tool) as Wire)[TOOLSET] = fields;
}

function isOnly(value: unknown, expected: Wire): boolean {
  return typeof value === 'object' && value !== null && JSON.stringify(value) === JSON.stringify(expected);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** What one canonical MCP tool becomes: its `mcp_servers` entry and its toolset (none in the legacy form, or when dropped). */
export interface EncodedMcpServer {
  server?: Wire;
  toolset?: Wire;
  /** Its place among the servers (the order the wire had). */
  order: number;
}

/**
 * A canonical MCP tool -> its server entry and toolset. What Claude cannot say is reported at the
 * tool's path: a server without a URL (a Responses connector), headers other than a bearer
 * token, an approval requirement (Claude runs every call without asking), the description.
 */
export function encodeMcpServer(tool: LlmMcpTool, index: number, context: CodecContext | undefined): EncodedMcpServer {
  const path = `tools[${index}]`;
  const bag = ext.bag(tool);
  const order = typeof bag?.$server === 'number' ? bag.$server : Number.MAX_SAFE_INTEGER;
  reportForeignToolFields(tool, path, PROTOCOL, context);
  if (tool.url === undefined) {
    reportLoss(context, { code: 'dropped-tool', path, message: `MCP server ${tool.name} has no URL (a connector), which Claude needs`, protocol: PROTOCOL });
    return { order };
  }
  const server: Wire = { type: 'url', url: tool.url, name: tool.name };
  const { token, other } = splitHeaders(tool.headers);
  const authorization = tool.authorization ?? token;
  if (authorization !== undefined) server.authorization_token = authorization;
  if (other || (token !== undefined && tool.authorization !== undefined)) {
    reportLoss(context, {
      code: 'dropped-field',
      path: `${path}.headers`,
      message: 'Claude sends an MCP server only a bearer token, no other headers',
      protocol: PROTOCOL,
    });
  }
  if (tool.requireApproval !== undefined && tool.requireApproval !== 'never') {
    reportLoss(context, {
      code: 'dropped-field',
      path: `${path}.requireApproval`,
      message: 'Claude has no approval step: MCP calls run without asking the client',
      protocol: PROTOCOL,
    });
  }
  if (tool.description !== undefined) {
    reportLoss(context, { code: 'dropped-field', path: `${path}.description`, message: 'Claude has no MCP server description', protocol: PROTOCOL });
  }
  for (const key in bag) if (key.charCodeAt(0) !== 36 && key !== TOOLSET) server[key] = bag[key];
  if (bag?.$noToolset) {
    if (tool.allowedTools !== undefined) server.tool_configuration = { allowed_tools: tool.allowedTools, ...(bag.$enabled ? { enabled: true } : {}) };
    return { server, order };
  }
  const toolset: Wire = { type: 'mcp_toolset', mcp_server_name: tool.name };
  if (tool.allowedTools !== undefined) {
    toolset.default_config = { enabled: false };
    toolset.configs = Object.fromEntries(tool.allowedTools.map((name) => [name, { enabled: true }]));
  }
  const fields = bag?.[TOOLSET];
  if (typeof fields === 'object' && fields !== null) Object.assign(toolset, fields);
  return { server, toolset, order };
}

/** `Authorization: Bearer <token>` (any case) split from the other headers. */
function splitHeaders(headers: Record<string, string> | undefined): { token?: string; other: boolean } {
  let token: string | undefined;
  let other = false;
  for (const name in headers) {
    const match = name.toLowerCase() === 'authorization' ? /^Bearer\s+(\S+)$/i.exec(headers[name]!) : null;
    if (match) token = match[1];
    else other = true;
  }
  return token === undefined ? { other } : { token, other };
}

/**
 * The `anthropic-beta` a request body needs for its MCP servers: the toolset form's, or the
 * deprecated form's when no toolset names a server. `undefined` without servers.
 */
export function mcpBetaFor(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { mcp_servers: servers, tools } = body as Wire;
  if (!Array.isArray(servers) || servers.length === 0) return undefined;
  const toolsets = Array.isArray(tools) && tools.some((tool) => typeof tool === 'object' && tool !== null && (tool as Wire).type === 'mcp_toolset');
  return toolsets ? MCP_BETA : MCP_LEGACY_BETA;
}
