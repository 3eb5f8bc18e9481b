import type { LlmMcpPart, LlmMcpTool } from './mcp.js';
import type { ProtocolId } from './protocol.js';
import { reportLoss, type CodecContext } from './warnings.js';

/** What each MCP part is, in warnings. */
const PART_NAMES: Readonly<Record<LlmMcpPart['type'], string>> = {
  'mcp-list-tools': 'MCP tool list',
  'mcp-call': 'MCP call',
  'mcp-result': 'MCP result',
  'mcp-approval-request': 'MCP approval request',
  'mcp-approval-response': 'MCP approval response',
};

/** True for the MCP parts (list, call, result, approval request and response). */
export function isMcpPart(part: { type: string }): part is LlmMcpPart {
  return Object.hasOwn(PART_NAMES, part.type);
}

/**
 * Reports an MCP server tool a target without hosted MCP cannot carry (`dropped-tool` at `path`).
 * The router runs the MCP loop itself for such targets, so an encoder only sees one when it is
 * called directly.
 */
export function reportMcpToolDropped(tool: LlmMcpTool, path: string, target: ProtocolId, context: CodecContext | undefined): void {
  reportLoss(context, { code: 'dropped-tool', path, message: `MCP server ${tool.name} has no ${target} form (${target} hosts no MCP)`, protocol: target });
}

/**
 * Reports an MCP part a target cannot carry (`dropped-part` at `path`): by default because it
 * hosts no MCP, else for `reason` (Claude has no approval step). Returns `undefined`, the part's encoding.
 */
export function reportMcpPartDropped(
  part: LlmMcpPart,
  path: string,
  target: ProtocolId,
  context: CodecContext | undefined,
  reason = `${target} hosts no MCP`,
): undefined {
  reportLoss(context, { code: 'dropped-part', path, message: `an ${PART_NAMES[part.type]} has no ${target} form (${reason})`, protocol: target });
}
