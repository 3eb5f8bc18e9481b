import type { CodecContext, JsonSchema, LlmFunctionTool, LlmProviderTool, LlmTool, LlmToolChoice } from '@llm/core';
import { cacheHintFromWire, cacheHintToWire, reportLoss } from '@llm/core';
import { PROTOCOL, ext, read } from './protocol.js';
import { decodeCodeExecutionTool, encodeCodeExecutionTool, isCodeExecutionTool } from './code-execution.js';
import { decodeWebSearchTool, encodeWebSearchTool, isWebSearchTool } from './web-search.js';

const FUNCTION_KNOWN = new Set(['name', 'description', 'input_schema', 'strict', 'cache_control']);

/**
 * A wire tool -> canonical. Client tools (an `input_schema`, no type or `type:"custom"`) become
 * functions; web search and code execution become canonical hosted tools (web-search.ts,
 * code-execution.ts); other Anthropic-defined and server tools (`bash_20250124`, ...) are kept
 * whole as provider tools.
 */
export function decodeTool(tools: readonly unknown[], index: number): LlmTool {
  const tool = read.object(tools, index, 'tools');
  const type = tool.type;
  if (tool.input_schema !== undefined && (type === undefined || type === null || type === 'custom')) {
    const path = `tools[${index}]`;
    const out: LlmFunctionTool = {
      type: 'function',
      name: read.string(tool, 'name', path),
      parameters: read.object(tool, 'input_schema', path) as JsonSchema,
    };
    let rest = ext.rest(tool, FUNCTION_KNOWN);
    if (typeof tool.description === 'string') out.description = tool.description;
    else if (tool.description != null) (rest ??= {}).description = tool.description;
    if (typeof tool.strict === 'boolean') out.strict = tool.strict;
    else if (tool.strict != null) (rest ??= {}).strict = tool.strict;
    if (tool.cache_control != null) {
      const cache = cacheHintFromWire(tool.cache_control);
      if (cache) out.cache = cache;
      else (rest ??= {}).cache_control = tool.cache_control;
    }
    return ext.keep(out, rest);
  }
  if (isWebSearchTool(tool)) return decodeWebSearchTool(tool);
  if (isCodeExecutionTool(tool)) return decodeCodeExecutionTool(tool);
  const name = typeof type === 'string' ? type : read.string(tool, 'name', `tools[${index}]`);
  return { type: 'provider', protocol: PROTOCOL, name, value: tool } satisfies LlmProviderTool;
}

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

/** Decoded `tool_choice`: the canonical choice, the parallel switch, and a raw copy for shapes we do not model. */
export interface DecodedToolChoice {
  choice?: LlmToolChoice;
  parallel?: boolean;
  raw?: unknown;
}

/** The request's `tool_choice` -> canonical. */
export function decodeToolChoice(request: Record<string, unknown>): DecodedToolChoice {
  const wire = read.object(request, 'tool_choice', '');
  let keys = 0;
  for (const _ in wire) keys++;
  const out: DecodedToolChoice = {};
  if (typeof wire.disable_parallel_tool_use === 'boolean') {
    out.parallel = !wire.disable_parallel_tool_use;
    keys--;
  } else if (wire.disable_parallel_tool_use !== undefined) return { raw: wire };
  switch (wire.type) {
    case 'auto':
      if (keys !== 1) return { raw: wire };
      out.choice = { type: 'auto' };
      return out;
    case 'any':
      if (keys !== 1) return { raw: wire };
      out.choice = { type: 'required' };
      return out;
    case 'none':
      if (keys !== 1) return { raw: wire };
      out.choice = { type: 'none' };
      return out;
    case 'tool':
      if (keys !== 2 || typeof wire.name !== 'string') return { raw: wire };
      out.choice = { type: 'tool', name: wire.name };
      return out;
    default:
      read.string(wire, 'type', 'tool_choice');
      return { raw: wire };
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
