import { collectUnknown, joinPath, type LlmTool, type LlmToolChoice } from '@llm/core';
import { PROTOCOL, ext, read } from './protocol.js';
import { qualifiedName } from './namespaces.js';
import { decodeCodeInterpreter } from './code-interpreter.js';
import { decodeMcpTool } from './mcp-tool.js';
import { decodeWebSearchTool, isWebSearchType } from './web-search.js';

const FUNCTION_KNOWN = new Set(['type', 'name', 'description', 'parameters', 'strict']);
const CUSTOM_KNOWN = new Set(['type', 'name', 'description', 'format']);

/**
 * `tools[]` -> canonical tools: `function` (flat, with `strict`), `custom`, `namespace` groups
 * (flattened, see namespaces.ts), web search and code interpreter as canonical hosted tools
 * (web-search.ts, code-interpreter.ts), and other built-ins kept whole as provider tools.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
 */
export function decodeTools(holder: Record<string, unknown>, parent: string): LlmTool[] {
  const out: LlmTool[] = [];
  const path = joinPath(parent, 'tools');
  const tools = read.array(holder, 'tools', parent);
  tools.forEach((_, index) => {
    const tool = read.object(tools, index, path);
    const toolPath = joinPath(path, index);
    const type = read.string(tool, 'type', toolPath);
    if (type === 'namespace' && Array.isArray(tool.tools) && tool.tools.length > 0 && tool.tools.every(isFunctionOrCustom)) {
      const group = collectUnknown(tool, NAMESPACE_KNOWN) ?? {};
      const name = read.string(tool, 'name', toolPath);
      const members = tool.tools as Record<string, unknown>[];
      members.forEach((member, at) => {
        const decoded = decodeTool(member, joinPath(joinPath(toolPath, 'tools'), at), member.type as string);
        decoded.name = qualifiedName(name, decoded.name);
        ext.mark(decoded, 'namespace', group);
        out.push(decoded);
      });
      return;
    }
    out.push(decodeTool(tool, toolPath, type));
  });
  return out;
}

const NAMESPACE_KNOWN = new Set(['tools']);

/** Whether `label` names an `mcp` tool of `tools` (a choice naming another stays as sent). */
function isMcpLabel(tools: unknown, label: unknown): boolean {
  return Array.isArray(tools) && tools.some((tool) => typeof tool === 'object' && tool !== null && tool.type === 'mcp' && tool.server_label === label);
}

function isFunctionOrCustom(tool: unknown): boolean {
  return (
    typeof tool === 'object' && tool !== null && ((tool as Record<string, unknown>).type === 'function' || (tool as Record<string, unknown>).type === 'custom')
  );
}

function decodeTool(tool: Record<string, unknown>, path: string, type: string): LlmTool {
  if (type === 'function') {
    const out: LlmTool = { type: 'function', name: read.string(tool, 'name', path) };
    const description = read.optionalString(tool, 'description', path);
    if (description !== undefined) out.description = description;
    const bag: Record<string, unknown> = collectUnknown(tool, FUNCTION_KNOWN) ?? {};
    if (tool.parameters === null) bag.parameters = null;
    else if (tool.parameters !== undefined) out.parameters = read.object(tool, 'parameters', path);
    const strict = read.optionalBoolean(tool, 'strict', path);
    if (strict !== undefined) out.strict = strict;
    else if (tool.strict === null) bag.strict = null;
    if (tool.description === null) bag.description = null;
    ext.keep(out, bag);
    return out;
  }
  if (type === 'custom') {
    const out: LlmTool = { type: 'custom', name: read.string(tool, 'name', path) };
    const description = read.optionalString(tool, 'description', path);
    if (description !== undefined) out.description = description;
    if (tool.format !== undefined) out.format = tool.format;
    ext.keep(out, collectUnknown(tool, CUSTOM_KNOWN));
    return out;
  }
  if (isWebSearchType(type)) return decodeWebSearchTool(tool);
  if (type === 'code_interpreter') return decodeCodeInterpreter(tool);
  if (type === 'mcp') return decodeMcpTool(tool, read.string(tool, 'server_label', path));
  const name = typeof tool.server_label === 'string' ? tool.server_label : typeof tool.name === 'string' && type === 'namespace' ? tool.name : type;
  return { type: 'provider', protocol: PROTOCOL, name, value: tool };
}

/**
 * `tool_choice` -> canonical. `{type: "mcp", server_label}` of a server in `tools` names it. Forms
 * with no canonical meaning (hosted-tool forcing, `mcp` with a tool `name`) return `undefined`
 * and the caller keeps the wire value.
 */
export function decodeToolChoice(body: Record<string, unknown>): LlmToolChoice | undefined {
  const wire = body.tool_choice;
  if (wire === 'auto' || wire === 'none' || wire === 'required') return { type: wire };
  if (typeof wire === 'string') return read.invalid(body, 'tool_choice', '', '"auto", "none", "required" or an object');
  const choice = read.object(body, 'tool_choice', '');
  if ((choice.type === 'function' || choice.type === 'custom') && Object.keys(choice).length === 2) {
    return { type: 'tool', name: read.string(choice, 'name', 'tool_choice') };
  }
  if (choice.type === 'mcp' && Object.keys(choice).every((key) => key === 'type' || key === 'server_label') && isMcpLabel(body.tools, choice.server_label)) {
    return { type: 'tool', name: choice.server_label as string };
  }
  if (choice.type === 'allowed_tools' && Object.keys(choice).length === 3 && (choice.mode === 'auto' || choice.mode === 'required')) {
    const tools = read.array(choice, 'tools', 'tool_choice');
    const names: string[] = [];
    for (const tool of tools) {
      if (typeof tool !== 'object' || tool === null) return undefined;
      const entry = tool as Record<string, unknown>;
      if (entry.type !== 'function' || typeof entry.name !== 'string' || Object.keys(entry).length !== 2) return undefined;
      names.push(entry.name);
    }
    return { type: 'allowed', names, mode: choice.mode };
  }
  return undefined;
}
