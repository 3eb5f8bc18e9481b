import { isStrictTool, reportLoss, strictToolParameters, type CodecContext, type LlmTool, type LlmToolChoice } from '@llm/core';
import { PROTOCOL, ext } from './protocol.js';
import { splitQualifiedName } from './namespaces.js';
import { encodeCodeInterpreter } from './code-interpreter.js';
import { encodeMcpTool } from './mcp-tool.js';
import { encodeWebSearchTool } from './web-search.js';

/**
 * Canonical tools -> `tools[]`; tools decoded from a namespace are grouped into it again (a
 * qualified name keeps only its own part there); foreign provider tools are dropped and reported.
 */
export function encodeTools(tools: readonly LlmTool[], context: CodecContext | undefined): unknown[] {
  const out: unknown[] = [];
  let group: { name: string; tools: unknown[] } | undefined;
  tools.forEach((tool, index) => {
    const bag = ext.bag(tool);
    const namespace = bag?.$namespace as Record<string, unknown> | undefined;
    const split = namespace && (tool.type === 'function' || tool.type === 'custom') ? splitQualifiedName(tool.name) : undefined;
    if (namespace && split?.namespace !== undefined) {
      const wire = encodeTool({ ...tool, name: split.name } as LlmTool, bag, index, context);
      if (group?.name !== split.namespace) {
        group = { name: split.namespace, tools: [] };
        out.push({ type: 'namespace', ...namespace, name: split.namespace, tools: group.tools });
      }
      if (wire !== undefined) group.tools.push(wire);
      return;
    }
    group = undefined;
    const wire = encodeTool(tool, bag, index, context);
    if (wire !== undefined) out.push(wire);
  });
  return out;
}

function encodeTool(tool: LlmTool, bag: Record<string, unknown> | undefined, index: number, context: CodecContext | undefined): unknown {
  switch (tool.type) {
    case 'function': {
      const wire: Record<string, unknown> = { type: 'function', name: tool.name };
      if (tool.description !== undefined) wire.description = tool.description;
      if (isStrictTool(tool, context)) {
        wire.parameters = strictToolParameters(tool, index, context);
        wire.strict = true;
        ext.writeRest(wire, tool);
        // A kept `strict: null` must not undo it.
        wire.strict = true;
        return wire;
      }
      wire.parameters = tool.parameters ?? (bag ? undefined : { type: 'object', properties: {} });
      if (wire.parameters === undefined) delete wire.parameters;
      // Responses defaults to strict schemas; say false unless the tool asked for strict.
      if (tool.strict !== undefined) wire.strict = tool.strict;
      else if (!bag) wire.strict = false;
      ext.writeRest(wire, tool);
      return wire;
    }
    case 'custom': {
      const wire: Record<string, unknown> = { type: 'custom', name: tool.name };
      if (tool.description !== undefined) wire.description = tool.description;
      if (tool.format !== undefined) wire.format = tool.format;
      ext.writeRest(wire, tool);
      return wire;
    }
    case 'web_search':
      return encodeWebSearchTool(tool, `tools[${index}]`, context);
    case 'code_execution':
      return encodeCodeInterpreter(tool, `tools[${index}]`, context);
    case 'mcp':
      return encodeMcpTool(tool, `tools[${index}]`, context);
    case 'provider':
      if (tool.protocol === PROTOCOL) return tool.value;
      reportLoss(context, {
        code: 'dropped-tool',
        path: `tools[${index}]`,
        message: `the ${tool.protocol} tool ${tool.name} has no Responses form`,
        protocol: PROTOCOL,
      });
      return undefined;
    default: {
      const unreachable: never = tool;
      return unreachable;
    }
  }
}

/** Canonical tool choice -> `tool_choice`. */
export function encodeToolChoice(choice: LlmToolChoice, tools: readonly LlmTool[] | undefined): unknown {
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'tool': {
      const named = tools?.find((tool) => tool.name === choice.name);
      // The hosted-tool choice that forces a web search.
      if (named?.type === 'web_search') return { type: 'web_search_preview' };
      if (named?.type === 'code_execution') return { type: 'code_interpreter' };
      if (named?.type === 'mcp') return { type: 'mcp', server_label: choice.name };
      return { type: named?.type === 'custom' ? 'custom' : 'function', name: choice.name };
    }
    case 'allowed':
      return { type: 'allowed_tools', mode: choice.mode, tools: choice.names.map((name) => ({ type: 'function', name })) };
    default: {
      const unreachable: never = choice;
      return unreachable;
    }
  }
}
