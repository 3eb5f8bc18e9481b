import { toolArgumentsObject, type JsonObject, type LlmMcpCallPart, type LlmMcpResultPart, type LlmToolResultPart } from '@llm/core';
import type { RequestRecord } from '../config.js';
import { MAX_MCP_CALLS_PER_TURN, type McpCallContext, type McpHost, type McpToolOutput } from './mcp-host.js';
import type { McpOfferedTool } from './mcp-toolset.js';

/** What the model is told of a call whose arguments are not a JSON object (no server sees it). */
export const NOT_AN_OBJECT_OUTPUT = 'The arguments of this call are not a JSON object; the tool was not called.';

/** What the model is told of a call beyond `MAX_MCP_CALLS_PER_TURN` in one turn (no server sees it). */
export const TOO_MANY_CALLS_OUTPUT = `More than ${MAX_MCP_CALLS_PER_TURN} MCP calls in one turn; this one was not run.`;

/** Runs MCP tool calls through the host, each timed into `RequestRecord.mcpCalls`. */
export class McpCaller {
  constructor(
    private readonly host: McpHost,
    private readonly record: RequestRecord,
    private readonly context: Omit<McpCallContext, 'source'>,
  ) {}

  /** One call. What the host throws fails the request; a tool's failure is an `isError` output. */
  async run(offered: McpOfferedTool, args: string | JsonObject): Promise<McpToolOutput> {
    const started = Date.now();
    const object = toolArgumentsObject(args);
    const output: McpToolOutput = object
      ? await this.host.callTool(offered.server, offered.tool.name, object, { ...this.context, source: offered.source })
      : { content: NOT_AN_OBJECT_OUTPUT, isError: true };
    this.note(offered, Date.now() - started, output);
    return output;
  }

  /** A call the router does not run (past the turn's limit): recorded, its output the refusal. */
  refuse(offered: McpOfferedTool, content: string): McpToolOutput {
    const output = { content, isError: true };
    this.note(offered, 0, output);
    return output;
  }

  private note(offered: McpOfferedTool, ms: number, output: McpToolOutput): void {
    this.record.mcpCalls ??= [];
    this.record.mcpCalls.push({ server: offered.server.name, tool: offered.tool.name, ms, isError: output.isError });
  }
}

/** The client's view of a call that ran: the call and its result. */
export function callParts(
  id: string,
  offered: McpOfferedTool,
  args: string | JsonObject,
  output: McpToolOutput,
  approvalRequestId?: string,
): [LlmMcpCallPart, LlmMcpResultPart] {
  const call: LlmMcpCallPart = { type: 'mcp-call', id, server: offered.server.name, name: offered.tool.name, arguments: args };
  if (approvalRequestId !== undefined) call.approvalRequestId = approvalRequestId;
  const result: LlmMcpResultPart = { type: 'mcp-result', callId: id, content: output.content };
  if (output.isError) result.isError = true;
  return [call, result];
}

/** The upstream's view of a call's output: the function's result. */
export function functionResult(callId: string, functionName: string, output: McpToolOutput): LlmToolResultPart {
  const result: LlmToolResultPart = { type: 'tool-result', toolCallId: callId, toolName: functionName, content: output.content };
  if (output.isError) result.isError = true;
  return result;
}
