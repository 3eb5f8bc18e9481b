import {
  CALL_ARGUMENTS_LOSS,
  objectCallArguments,
  reportLoss,
  type CodecContext,
  type JsonObject,
  type LlmMcpCallPart,
  type LlmMcpListToolsPart,
  type LlmMcpResultPart,
  type LlmTextPart,
} from '@llm/core';
import { readMcpToolList, type PathLike } from '@llm/core/kit';
import { PROTOCOL, ext, read } from './protocol.js';

type Wire = Record<string, unknown>;

/**
 * The MCP connector's blocks <-> canonical MCP parts: `mcp_tool_use` (the model's call of a
 * server's tool, run by Anthropic) and `mcp_tool_result` (its result), both in the assistant's
 * content. Fields with no canonical home (`cache_control`, ...) ride in the part's bag.
 * @see https://platform.claude.com/docs/en/agents-and-tools/mcp-connector
 */
const USE_KNOWN = new Set(['type', 'id', 'name', 'server_name', 'input']);
const RESULT_KNOWN = new Set(['type', 'tool_use_id', 'content', 'is_error']);

/** Why MCP tool lists and approvals cannot go to Claude. */
export const MCP_PART_LOSS = 'Claude answers carry no MCP tool list, and Claude has no approval step';

/** `mcp_tool_use` -> an MCP call (its `input` object as the arguments). */
export function decodeMcpToolUse(block: Wire, path: PathLike): LlmMcpCallPart {
  const part: LlmMcpCallPart = {
    type: 'mcp-call',
    id: read.string(block, 'id', path),
    server: read.string(block, 'server_name', path),
    name: read.string(block, 'name', path),
    arguments: read.object(block, 'input', path) as JsonObject,
  };
  return ext.keep(part, ext.rest(block, USE_KNOWN));
}

/** `mcp_tool_result` -> an MCP result; content other than plain text blocks is kept whole. */
export function decodeMcpToolResult(block: Wire, path: PathLike): LlmMcpResultPart {
  const bag: Wire = ext.rest(block, RESULT_KNOWN) ?? {};
  const content = block.content;
  let decoded: LlmMcpResultPart['content'] = '';
  if (typeof content === 'string') decoded = content;
  else if (Array.isArray(content) && content.every(isPlainText))
    decoded = content.map((item): LlmTextPart => ({ type: 'text', text: (item as Wire).text as string }));
  else if (content !== undefined) {
    read.array(block, 'content', path);
    bag.$content = content;
  } else bag.$noContent = true;
  const part: LlmMcpResultPart = { type: 'mcp-result', callId: read.string(block, 'tool_use_id', path), content: decoded };
  const isError = read.optionalBoolean(block, 'is_error', path);
  if (isError !== undefined) part.isError = isError;
  else bag.$noIsError = true;
  return ext.keep(part, bag);
}

function isPlainText(item: unknown): boolean {
  if (typeof item !== 'object' || item === null) return false;
  const { type, text, ...rest } = item as Wire;
  return type === 'text' && typeof text === 'string' && Object.keys(rest).length === 0;
}

/** An MCP call -> `mcp_tool_use`; arguments that are not a JSON object become `{}` (reported). */
export function mcpToolUseBlock(part: LlmMcpCallPart, path: PathLike, context: CodecContext | undefined): Wire {
  const input = objectCallArguments(part.arguments, false, () =>
    reportLoss(context, { code: 'lossy-conversion', path: `${path}.arguments`, message: CALL_ARGUMENTS_LOSS['not-an-object'], protocol: PROTOCOL }),
  );
  const out: Wire = { type: 'mcp_tool_use', id: part.id, name: part.name, server_name: part.server, input };
  ext.writeRest(out, part);
  return out;
}

/**
 * An MCP result -> `mcp_tool_result`. `is_error` is always written (answers carry it), unless the
 * block came from a Claude request that left it out.
 */
export function mcpToolResultBlock(part: LlmMcpResultPart): Wire {
  const out: Wire = { type: 'mcp_tool_result', tool_use_id: part.callId };
  const bag = ext.bag(part);
  if (bag?.$content !== undefined) out.content = bag.$content;
  else if (!bag?.$noContent) out.content = typeof part.content === 'string' ? part.content : part.content.map((item) => ({ type: 'text', text: item.text }));
  if (!bag?.$noIsError || part.isError !== undefined) out.is_error = part.isError === true;
  ext.writeRest(out, part);
  return out;
}

const LISTING_KNOWN = new Set(['type', 'mcp_server_name', 'tools']);
const LISTED_TOOL_KNOWN = new Set(['name', 'description', 'input_schema']);

/**
 * `mcp_tool_listing` (the tools a server listed while the answer was made, sent back unchanged
 * so later requests reuse it) -> an MCP tool list. The block has no id: the part's is
 * `mcpl_<server>`. Tools the canonical form cannot say exactly keep the wire list whole.
 */
export function decodeMcpToolListing(block: Wire, path: PathLike): LlmMcpListToolsPart {
  const server = read.string(block, 'mcp_server_name', path);
  const wireTools = read.array(block, 'tools', path);
  const { tools, exact } = readMcpToolList(wireTools, `${path}.tools`, read, LISTED_TOOL_KNOWN);
  const bag: Wire = ext.rest(block, LISTING_KNOWN) ?? {};
  bag.$listing = exact ? true : wireTools;
  const part: LlmMcpListToolsPart = { type: 'mcp-list-tools', id: `mcpl_${server}`, server, tools };
  return ext.keep(part, bag);
}

/** A tool list that came from Claude -> `mcp_tool_listing` again; `undefined` for another protocol's (Claude takes none). */
export function mcpToolListingBlock(part: LlmMcpListToolsPart): Wire | undefined {
  const listing = ext.marker(part, 'listing');
  if (listing === undefined) return undefined;
  const tools = Array.isArray(listing)
    ? listing
    : part.tools.map((tool) => ({
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        input_schema: tool.inputSchema,
      }));
  const out: Wire = { type: 'mcp_tool_listing', mcp_server_name: part.server, tools };
  ext.writeRest(out, part);
  return out;
}
