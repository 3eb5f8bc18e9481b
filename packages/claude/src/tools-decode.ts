import type { JsonSchema, LlmFunctionTool, LlmProviderTool, LlmTool, LlmToolChoice } from '@llm/core';
import { cacheHintFromWire } from '@llm/core';
import { PROTOCOL, ext, read } from './protocol.js';
import { decodeCodeExecutionTool, isCodeExecutionTool } from './code-execution.js';
import { decodeWebSearchTool, isWebSearchTool } from './web-search.js';

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
