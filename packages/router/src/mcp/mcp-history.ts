import type { LlmAssistantContent, LlmMcpApprovalRequestPart, LlmMcpTool, LlmMessage, LlmToolCallPart, LlmToolResultPart, LlmUserContent } from '@llm/core';

/**
 * MCP parts in a conversation sent to an upstream that runs no MCP: calls become function calls
 * and results tool results (under the functions' names), so the model sees what it did; tool
 * lists and unanswered approval requests go (the tools are offered again as functions);
 * approval responses go. See the README, "MCP".
 */

/** An approval request the client answered and the loop has not acted on yet. */
export interface AnsweredApproval {
  request: LlmMcpApprovalRequestPart;
  approve: boolean;
  reason?: string;
}

/**
 * Approval requests in the conversation that an approval response answers and no call ran
 * under yet (no `mcp-call` names them): what the loop acts on before its first turn.
 */
export function answeredApprovals(messages: readonly LlmMessage[]): AnsweredApproval[] {
  const requests = new Map<string, LlmMcpApprovalRequestPart>();
  const ran = new Set<string>();
  const answers = new Map<string, { approve: boolean; reason?: string }>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type === 'mcp-approval-request') requests.set(part.id, part);
        else if (part.type === 'mcp-call' && part.approvalRequestId !== undefined) ran.add(part.approvalRequestId);
      }
    } else if (message.role === 'user') {
      for (const part of message.content) {
        if (part.type === 'mcp-approval-response' && requests.has(part.approvalRequestId)) {
          answers.set(part.approvalRequestId, part.reason === undefined ? { approve: part.approve } : { approve: part.approve, reason: part.reason });
        }
      }
    }
  }
  const out: AnsweredApproval[] = [];
  for (const [id, answer] of answers) {
    const request = requests.get(id);
    if (request && !ran.has(id)) out.push({ request, ...answer });
  }
  return out;
}

/** Whether a call of `tool` on `server` waits for the client's approval (unset: never; a tool no list names: ask). */
export function needsApproval(server: LlmMcpTool, tool: string): boolean {
  const setting = server.requireApproval;
  if (setting === undefined || setting === 'never') return false;
  if (setting === 'always') return true;
  if (setting.never?.includes(tool)) return false;
  return true;
}

/** What lowering needs: function names, and the results of approval requests acted on now. */
export interface LoweringContext {
  functionNameOf(server: string, tool: string): string;
  /** Results of answered approval requests by request id (the call is made under that id). */
  approvalResults: ReadonlyMap<string, LlmToolResultPart>;
  /** True when the router runs `server`'s calls; parts of others (an upstream hosting MCP runs them) stay as they are. */
  runs(server: string): boolean;
}

/** The conversation with its MCP parts rewritten for an upstream without MCP (a new array; messages without MCP are kept as they are). */
export function lowerMcpHistory(messages: readonly LlmMessage[], context: LoweringContext): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (const message of messages) {
    if (message.role === 'assistant' && message.content.some((part) => isLoweredPart(part, context))) out.push(...lowerAssistant(message.content, context));
    else if (message.role === 'user' && message.content.some((part) => part.type === 'mcp-approval-response')) {
      const content = message.content.filter((part: LlmUserContent) => part.type !== 'mcp-approval-response');
      if (content.length > 0) out.push({ ...message, content });
    } else out.push(message);
  }
  return out;
}

/** An MCP part of a server the router runs (results go with their calls). */
function isLoweredPart(part: LlmAssistantContent, context: LoweringContext): boolean {
  if (part.type === 'mcp-result') return true;
  return (part.type === 'mcp-list-tools' || part.type === 'mcp-call' || part.type === 'mcp-approval-request') && context.runs(part.server);
}

/**
 * One assistant message -> assistant / tool message pairs: calls (MCP ones and the client's own)
 * gather in the current assistant message and MCP results in the tool message after it, until
 * other content comes (the model's next step), which starts the next pair. The client's results
 * come in its own tool message after them.
 */
function lowerAssistant(content: readonly LlmAssistantContent[], context: LoweringContext): LlmMessage[] {
  const out: LlmMessage[] = [];
  let assistant: LlmAssistantContent[] = [];
  let results: LlmToolResultPart[] = [];
  /** Function names of the calls seen, for their results (Gemini answers calls by name). */
  const callNames = new Map<string, string>();
  const flush = (): void => {
    if (assistant.length > 0) out.push({ role: 'assistant', content: assistant });
    if (results.length > 0) out.push({ role: 'tool', content: results });
    assistant = [];
    results = [];
  };
  /** Ids of calls kept as they are (a hosted server's): their results stay with them. */
  const keptCalls = new Set<string>();
  for (const part of content) {
    if (part.type === 'mcp-call' && !context.runs(part.server)) keptCalls.add(part.id);
    if (!isLoweredPart(part, context) || (part.type === 'mcp-result' && keptCalls.has(part.callId))) {
      // The model's next step starts after the results; a call of the client's own joins the calls.
      if (results.length > 0 && part.type !== 'tool-call') flush();
      assistant.push(part);
      continue;
    }
    switch (part.type) {
      case 'mcp-list-tools':
        break;
      case 'mcp-call': {
        const name = context.functionNameOf(part.server, part.name);
        callNames.set(part.id, name);
        assistant.push(functionCall(part.id, name, part.arguments));
        break;
      }
      case 'mcp-result': {
        const result: LlmToolResultPart = { type: 'tool-result', toolCallId: part.callId, content: part.content };
        const name = callNames.get(part.callId);
        if (name !== undefined) result.toolName = name;
        if (part.isError) result.isError = true;
        results.push(result);
        break;
      }
      case 'mcp-approval-request': {
        const result = context.approvalResults.get(part.id);
        if (!result) break;
        assistant.push(functionCall(part.id, context.functionNameOf(part.server, part.name), part.arguments));
        results.push(result);
        break;
      }
    }
  }
  flush();
  return out;
}

function functionCall(id: string, name: string, args: LlmToolCallPart['arguments']): LlmToolCallPart {
  return { type: 'tool-call', id, name, arguments: args };
}
