import { reportForeignToolFields, type CodecContext, type LlmMcpApproval, type LlmMcpTool } from '@llm/core';
import { PROTOCOL, ext } from './protocol.js';

type Wire = Record<string, unknown>;

/**
 * The hosted `mcp` tool <-> {@link LlmMcpTool}. What has no canonical home stays in the bag:
 * `connector_id`, `defer_loading`, `tunnel_id`, `allowed_callers`, the `read_only` filters, nulls;
 * another protocol's encoder reports those as dropped fields.
 * @see https://platform.openai.com/docs/guides/tools-remote-mcp
 */
const KNOWN = new Set(['type', 'server_label', 'server_url', 'authorization', 'headers', 'allowed_tools', 'require_approval', 'server_description']);

/** A wire `mcp` tool -> canonical. */
export function decodeMcpTool(wire: Wire, serverLabel: string): LlmMcpTool {
  const tool: LlmMcpTool = { type: 'mcp', name: serverLabel };
  const bag: Wire = ext.rest(wire, KNOWN) ?? {};
  const keep = (key: string): void => {
    if (wire[key] !== undefined) bag[key] = wire[key];
  };
  if (typeof wire.server_url === 'string') tool.url = wire.server_url;
  else keep('server_url');
  if (typeof wire.authorization === 'string') tool.authorization = wire.authorization;
  else keep('authorization');
  if (isStringRecord(wire.headers)) tool.headers = wire.headers;
  else keep('headers');
  if (typeof wire.server_description === 'string') tool.description = wire.server_description;
  else keep('server_description');
  decodeAllowedTools(wire.allowed_tools, tool, bag);
  const approval = decodeApproval(wire.require_approval);
  if (approval !== undefined) tool.requireApproval = approval;
  else if (wire.require_approval === undefined) {
    // Responses asks for approval unless told otherwise: said, so that a target without an
    // approval step reports it; not written back.
    tool.requireApproval = 'always';
    bag.$defaultApproval = true;
  } else keep('require_approval');
  return ext.keep(tool, bag);
}

/**
 * `allowed_tools`: a name list, or the filter `{tool_names, read_only}`. The names are canonical;
 * the rest of a filter stays in the bag as `allowed_tools` (the filter without its names), with
 * `$filter` remembering that the names were a filter's.
 */
function decodeAllowedTools(wire: unknown, tool: LlmMcpTool, bag: Wire): void {
  if (wire === undefined) return;
  if (isStringList(wire)) {
    tool.allowedTools = wire;
    return;
  }
  if (typeof wire === 'object' && wire !== null && !Array.isArray(wire) && isStringList((wire as Wire).tool_names)) {
    const { tool_names: names, ...rest } = wire as Wire;
    tool.allowedTools = names as string[];
    bag.$filter = true;
    if (Object.keys(rest).length > 0) bag.allowed_tools = rest;
    return;
  }
  bag.allowed_tools = wire;
}

/** `require_approval`: `always`, `never`, or `{always: {tool_names}, never: {tool_names}}`; other filters are not canonical. */
function decodeApproval(wire: unknown): LlmMcpApproval | undefined {
  if (wire === 'always' || wire === 'never') return wire;
  if (typeof wire !== 'object' || wire === null || Array.isArray(wire)) return undefined;
  const out: { always?: string[]; never?: string[] } = {};
  for (const key in wire as Wire) {
    const filter = (wire as Wire)[key];
    if ((key !== 'always' && key !== 'never') || typeof filter !== 'object' || filter === null) return undefined;
    const names = (filter as Wire).tool_names;
    if (Object.keys(filter).length !== 1 || !isStringList(names)) return undefined;
    out[key] = names;
  }
  return out;
}

/** Canonical -> the wire `mcp` tool. */
export function encodeMcpTool(tool: LlmMcpTool, path: string, context: CodecContext | undefined): Wire {
  reportForeignToolFields(tool, path, PROTOCOL, context);
  const out: Wire = { type: 'mcp', server_label: tool.name };
  if (tool.url !== undefined) out.server_url = tool.url;
  if (tool.authorization !== undefined) out.authorization = tool.authorization;
  if (tool.headers !== undefined) out.headers = tool.headers;
  const bag = ext.bag(tool);
  // Without a rule (another protocol's server, Claude's runs every call) calls must not wait for an approval nobody sends.
  if (tool.requireApproval === undefined) out.require_approval = 'never';
  else if (!(bag?.$defaultApproval && tool.requireApproval === 'always')) out.require_approval = encodeApproval(tool.requireApproval);
  if (tool.description !== undefined) out.server_description = tool.description;
  ext.writeRest(out, tool);
  if (tool.allowedTools !== undefined) {
    const filter = bag?.allowed_tools;
    out.allowed_tools = bag?.$filter ? { ...(typeof filter === 'object' ? filter : {}), tool_names: tool.allowedTools } : tool.allowedTools;
  }
  return out;
}

function encodeApproval(approval: LlmMcpApproval): unknown {
  if (typeof approval === 'string') return approval;
  const out: Wire = {};
  if (approval.always !== undefined) out.always = { tool_names: approval.always };
  if (approval.never !== undefined) out.never = { tool_names: approval.never };
  return out;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string');
}
