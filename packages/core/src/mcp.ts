import type { LlmPartBase, LlmTextPart } from './content.js';
import type { WithExtensions } from './extensions.js';
import type { JsonObject, JsonSchema } from './json.js';

/**
 * When a call to a remote MCP server's tool needs the client's approval first (Responses
 * `require_approval`): `always`, `never`, or per tool name. Claude's `mcp_servers` has no
 * approval step: a target without one reports the setting as dropped.
 */
export type LlmMcpApproval = 'always' | 'never' | { always?: string[]; never?: string[] };

/**
 * A remote MCP server whose tools are run for the model, not by the client: a Responses `mcp`
 * tool, a Claude `mcp_servers` entry (with its `mcp_toolset` tool when the beta has one). Run by
 * the provider when the target hosts MCP, else by the gateway.
 */
export interface LlmMcpTool extends WithExtensions {
  type: 'mcp';
  /** The server's label, which calls name it by (Responses `server_label`, Claude `mcp_servers[].name`). */
  name: string;
  /** The server's URL (Responses `server_url`, Claude `url`). Absent for a Responses `connector_id`. */
  url?: string;
  /** A bearer token for the server (Responses `authorization`, Claude `authorization_token`). */
  authorization?: string;
  /** Other HTTP headers for the server (Responses `headers`). */
  headers?: Record<string, string>;
  /** Only these of the server's tools are offered (Responses `allowed_tools`, Claude `tool_configuration.allowed_tools`). */
  allowedTools?: string[];
  /** Which calls wait for the client's approval (Responses `require_approval`). */
  requireApproval?: LlmMcpApproval;
  /** What the server is for, told to the model (Responses `server_description`). */
  description?: string;
}

/** One tool an MCP server lists. */
export interface LlmMcpToolDescription {
  name: string;
  description?: string;
  /** JSON Schema of its arguments (MCP `inputSchema`, Responses `input_schema`). */
  inputSchema: JsonSchema;
  /** MCP tool annotations, as the server sent them. */
  annotations?: unknown;
}

/** The tools a remote MCP server listed (Responses `mcp_list_tools`; Claude has no block for it). */
export interface LlmMcpListToolsPart extends LlmPartBase {
  type: 'mcp-list-tools';
  /** Item id (`mcpl_…`). */
  id: string;
  /** The server's label ({@link LlmMcpTool.name}). */
  server: string;
  tools: LlmMcpToolDescription[];
  /** Why listing failed, when it did. */
  error?: string;
}

/**
 * A call of a remote MCP server's tool, run for the model (Responses `mcp_call`, Claude
 * `mcp_tool_use`). Its result is an {@link LlmMcpResultPart} right after it in the same message
 * (Responses carries both in one `mcp_call` item: `output` / `error`).
 */
export interface LlmMcpCallPart extends LlmPartBase {
  type: 'mcp-call';
  /** Call id (`mcp_…`, `mcptoolu_…`). */
  id: string;
  /** The server's label. */
  server: string;
  /** The tool's name on that server. */
  name: string;
  /** The arguments: JSON text (Responses) or the object (Claude `input`). */
  arguments: string | JsonObject;
  /** The approval request this call was approved under (Responses `approval_request_id`). */
  approvalRequestId?: string;
}

/** The result of an {@link LlmMcpCallPart} (Responses `mcp_call.output` / `.error`, Claude `mcp_tool_result`). */
export interface LlmMcpResultPart extends LlmPartBase {
  type: 'mcp-result';
  /** Id of the call this answers. */
  callId: string;
  /** The output: text, or text parts (Claude `content` blocks). */
  content: string | LlmTextPart[];
  /** True when the tool or the server failed (Claude `is_error`, Responses `error`). */
  isError?: boolean;
}

/** A call waiting for the client's approval (Responses `mcp_approval_request`). */
export interface LlmMcpApprovalRequestPart extends LlmPartBase {
  type: 'mcp-approval-request';
  /** Request id (`mcpr_…`), which the approval names. */
  id: string;
  server: string;
  name: string;
  /** The arguments the model gave, as JSON text or an object. */
  arguments: string | JsonObject;
}

/** The client's answer to an {@link LlmMcpApprovalRequestPart} (Responses `mcp_approval_response`, a user input item). */
export interface LlmMcpApprovalResponsePart extends LlmPartBase {
  type: 'mcp-approval-response';
  /** The approval request answered. */
  approvalRequestId: string;
  approve: boolean;
  /** Item id, when the wire had one. */
  id?: string;
  reason?: string;
}

/** Every MCP part an assistant message may hold. */
export type LlmMcpAssistantPart = LlmMcpListToolsPart | LlmMcpCallPart | LlmMcpResultPart | LlmMcpApprovalRequestPart;

/** Every MCP part, assistant or user. */
export type LlmMcpPart = LlmMcpAssistantPart | LlmMcpApprovalResponsePart;
