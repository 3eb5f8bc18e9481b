import {
  joinPath,
  textOf,
  toolArgumentsText,
  type LlmMcpApprovalRequestPart,
  type LlmMcpApprovalResponsePart,
  type LlmMcpCallPart,
  type LlmMcpListToolsPart,
  type LlmMcpResultPart,
  type LlmMcpToolDescription,
} from '@llm/core';
import { readMcpToolList } from '@llm/core/kit';
import { ext, read } from './protocol.js';

type Wire = Record<string, unknown>;

/**
 * Hosted MCP items <-> canonical MCP parts. Fields with no canonical home (`status`, nulls,
 * fields added later) ride in the part's bag and come back on a same-protocol round trip.
 * @see https://platform.openai.com/docs/guides/tools-remote-mcp
 */

const LIST_KNOWN = new Set(['type', 'id', 'server_label', 'tools', 'error']);
const CALL_KNOWN = new Set(['type', 'id', 'server_label', 'name', 'arguments', 'approval_request_id', 'output', 'error']);
const APPROVAL_REQUEST_KNOWN = new Set(['type', 'id', 'server_label', 'name', 'arguments']);
const APPROVAL_RESPONSE_KNOWN = new Set(['type', 'id', 'approval_request_id', 'approve', 'reason']);
const TOOL_KNOWN = new Set(['name', 'description', 'input_schema', 'annotations']);

/** The MCP item types (output items, and `mcp_approval_response` in input). */
export const MCP_ITEM_TYPES: ReadonlySet<string> = new Set(['mcp_list_tools', 'mcp_call', 'mcp_approval_request', 'mcp_approval_response']);

/** `mcp_list_tools` -> an MCP tool list part; a tool list the canonical form cannot say exactly is kept whole. */
export function decodeMcpListTools(item: Wire, path: string): LlmMcpListToolsPart {
  const wireTools = read.array(item, 'tools', path);
  const { tools, exact } = readMcpToolList(wireTools, joinPath(path, 'tools'), read, TOOL_KNOWN);
  const part: LlmMcpListToolsPart = { type: 'mcp-list-tools', id: read.string(item, 'id', path), server: read.string(item, 'server_label', path), tools };
  const error = read.optionalString(item, 'error', path);
  if (error !== undefined) part.error = error;
  const bag = ext.rest(item, LIST_KNOWN) ?? {};
  if (!exact) bag.$tools = wireTools;
  return ext.keep(part, bag);
}

/** An MCP tool list part -> `mcp_list_tools`. */
export function mcpListToolsItem(part: LlmMcpListToolsPart): Wire {
  const item: Wire = { type: 'mcp_list_tools', id: part.id, server_label: part.server };
  item.tools = ext.marker(part, 'tools') ?? part.tools.map(toolToWire);
  if (part.error !== undefined) item.error = part.error;
  ext.writeRest(item, part);
  return item;
}

function toolToWire(tool: LlmMcpToolDescription): Wire {
  const wire: Wire = { name: tool.name, input_schema: tool.inputSchema };
  if (tool.description !== undefined) wire.description = tool.description;
  if (tool.annotations !== undefined) wire.annotations = tool.annotations;
  return wire;
}

/**
 * `mcp_call` -> the call, and its result right after it when the item has one (`output`, or
 * `error`: an error result). Responses carries both in one item; Claude in two blocks.
 */
export function decodeMcpCall(item: Wire, path: string): [LlmMcpCallPart] | [LlmMcpCallPart, LlmMcpResultPart] {
  const call: LlmMcpCallPart = {
    type: 'mcp-call',
    id: read.string(item, 'id', path),
    server: read.string(item, 'server_label', path),
    name: read.string(item, 'name', path),
    arguments: read.string(item, 'arguments', path),
  };
  const approval = read.optionalString(item, 'approval_request_id', path);
  if (approval !== undefined) call.approvalRequestId = approval;
  const bag = ext.rest(item, CALL_KNOWN) ?? {};
  if (item.status === undefined) bag.$noStatus = true; // so that none is made up on the way back
  ext.keep(call, bag);
  const output = read.optionalString(item, 'output', path);
  const error = read.optionalString(item, 'error', path);
  if (output === undefined && error === undefined) return [call];
  const result: LlmMcpResultPart = { type: 'mcp-result', callId: call.id, content: error ?? (output as string) };
  if (error !== undefined) {
    result.isError = true;
    // Both set: the output has no canonical home beside the error.
    if (output !== undefined) ext.keep(result, { output });
  }
  return [call, result];
}

/**
 * An MCP call (and its result, when it has one) -> one `mcp_call` item. Another protocol's call
 * gets the `status` of its result: `completed` / `failed`, `in_progress` without one.
 */
export function mcpCallItem(call: LlmMcpCallPart, result: LlmMcpResultPart | undefined): Wire {
  const item: Wire = { type: 'mcp_call', id: call.id, server_label: call.server, name: call.name, arguments: toolArgumentsText(call.arguments) };
  if (call.approvalRequestId !== undefined) item.approval_request_id = call.approvalRequestId;
  if (result) {
    const text = textOf(result.content);
    if (result.isError) item.error = text;
    else item.output = text;
  }
  const bag = ext.writeRest(item, call);
  if (bag?.status === undefined && !bag?.$noStatus) item.status = mcpCallStatus(result);
  if (result) ext.writeRest(item, result);
  return item;
}

/** The `status` of an `mcp_call` item from its result. */
export function mcpCallStatus(result: LlmMcpResultPart | undefined): 'completed' | 'failed' | 'in_progress' {
  return result ? (result.isError ? 'failed' : 'completed') : 'in_progress';
}

/** `mcp_approval_request` -> an approval request part. */
export function decodeMcpApprovalRequest(item: Wire, path: string): LlmMcpApprovalRequestPart {
  const part: LlmMcpApprovalRequestPart = {
    type: 'mcp-approval-request',
    id: read.string(item, 'id', path),
    server: read.string(item, 'server_label', path),
    name: read.string(item, 'name', path),
    arguments: read.string(item, 'arguments', path),
  };
  return ext.keep(part, ext.rest(item, APPROVAL_REQUEST_KNOWN));
}

/** An approval request part -> `mcp_approval_request`. */
export function mcpApprovalRequestItem(part: LlmMcpApprovalRequestPart): Wire {
  const item: Wire = { type: 'mcp_approval_request', id: part.id, server_label: part.server, name: part.name, arguments: toolArgumentsText(part.arguments) };
  ext.writeRest(item, part);
  return item;
}

/** `mcp_approval_response` (an input item) -> the client's approval part. */
export function decodeMcpApprovalResponse(item: Wire, path: string): LlmMcpApprovalResponsePart {
  const approve = read.optionalBoolean(item, 'approve', path);
  if (approve === undefined) return read.invalid(item, 'approve', path, 'a boolean');
  const part: LlmMcpApprovalResponsePart = { type: 'mcp-approval-response', approvalRequestId: read.string(item, 'approval_request_id', path), approve };
  const id = read.optionalString(item, 'id', path);
  if (id !== undefined) part.id = id;
  const reason = read.optionalString(item, 'reason', path);
  if (reason !== undefined) part.reason = reason;
  return ext.keep(part, ext.rest(item, APPROVAL_RESPONSE_KNOWN));
}

/** The client's approval part -> `mcp_approval_response`. */
export function mcpApprovalResponseItem(part: LlmMcpApprovalResponsePart): Wire {
  const item: Wire = { type: 'mcp_approval_response', approval_request_id: part.approvalRequestId, approve: part.approve };
  if (part.id !== undefined) item.id = part.id;
  if (part.reason !== undefined) item.reason = part.reason;
  ext.writeRest(item, part);
  return item;
}
