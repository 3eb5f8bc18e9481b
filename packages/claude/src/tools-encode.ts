import type { CodecContext, LlmTool, LlmToolChoice } from '@llm/core';
import { cacheHintToWire, reportLoss } from '@llm/core';
import { encodeMcpServer } from './mcp-servers.js';
import { PROTOCOL, ext } from './protocol.js';
import { encodeCodeExecutionTool } from './code-execution.js';
import { encodeWebSearchTool } from './web-search.js';

/** A canonical tool -> wire, or `undefined` (reported) when Claude has no such tool. */
export function encodeTool(tool: LlmTool, index: number, context: CodecContext | undefined): Record<string, unknown> | undefined {
  const path = `tools[${index}]`;
  switch (tool.type) {
    case 'function': {
      const out: Record<string, unknown> = { name: tool.name };
      if (tool.description !== undefined) out.description = tool.description;
      out.input_schema = tool.parameters ?? { type: 'object', properties: {} };
      if (tool.strict !== undefined) out.strict = tool.strict;
      if (tool.cache) out.cache_control = cacheHintToWire(tool.cache);
      ext.writeRest(out, tool);
      return out;
    }
    case 'custom':
      reportLoss(context, {
        code: 'lossy-conversion',
        path,
        message: `free-form tool "${tool.name}" was sent as a function taking one string \`input\``,
        protocol: PROTOCOL,
      });
      return {
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        input_schema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
      };
    case 'web_search':
      return encodeWebSearchTool(tool, path, context);
    case 'code_execution':
      return encodeCodeExecutionTool(tool, path, context);
    case 'mcp':
      // The request encoder writes a server's toolset with its `mcp_servers` entry (mcp-servers.ts).
      return encodeMcpServer(tool, index, context).toolset;
    case 'provider':
      if (tool.protocol === PROTOCOL) return tool.value as Record<string, unknown>;
      reportLoss(context, { code: 'dropped-tool', path, message: `${tool.protocol} tool "${tool.name}" has no Claude equivalent`, protocol: PROTOCOL });
      return undefined;
    default: {
      const unreachable: never = tool;
      return unreachable;
    }
  }
}

/** Canonical choice + parallel switch -> `tool_choice` (`allowed` also returns the tool names to keep). */
export function encodeToolChoice(
  choice: LlmToolChoice | undefined,
  parallel: boolean | undefined,
): { wire?: Record<string, unknown>; only?: ReadonlySet<string> } {
  let wire: Record<string, unknown> | undefined;
  let only: ReadonlySet<string> | undefined;
  switch (choice?.type) {
    case undefined:
      if (parallel === false) wire = { type: 'auto' };
      break;
    case 'auto':
      wire = { type: 'auto' };
      break;
    case 'none':
      wire = { type: 'none' };
      break;
    case 'required':
      wire = { type: 'any' };
      break;
    case 'tool':
      wire = { type: 'tool', name: choice.name };
      break;
    case 'allowed':
      // Claude has no subset choice: keep only those tools (our mapping of `allowed`).
      only = new Set(choice.names);
      wire = { type: choice.mode === 'required' ? 'any' : 'auto' };
      break;
  }
  // `none` has no parallel switch in the API (ToolChoiceNone is `{type}` alone).
  if (wire && parallel !== undefined && wire.type !== 'none') wire.disable_parallel_tool_use = !parallel;
  return { wire, only };
}
