import { CODE_EXECUTION_TOOL_NAME, reportForeignToolFields, type CodecContext, type LlmCodeExecutionTool } from '@llm/core';
import { PROTOCOL, ext } from './protocol.js';

type Wire = Record<string, unknown>;

/** The version written for code execution from another protocol (Python and bash sandbox). */
const DEFAULT_TYPE = 'code_execution_20250825';
const KNOWN = new Set(['type', 'name']);

/** A `code_execution_<date>` server tool (any version). */
export function isCodeExecutionTool(tool: Wire): boolean {
  return typeof tool.type === 'string' && tool.type.startsWith('code_execution_');
}

/** `code_execution_<date>` -> the canonical hosted tool; the version and other fields stay in the bag. */
export function decodeCodeExecutionTool(wire: Wire): LlmCodeExecutionTool {
  const tool: LlmCodeExecutionTool = { type: 'code_execution', name: typeof wire.name === 'string' ? wire.name : CODE_EXECUTION_TOOL_NAME };
  const bag: Wire = ext.rest(wire, KNOWN) ?? {};
  if (wire.type !== DEFAULT_TYPE) bag.$type = wire.type;
  if (typeof wire.name !== 'string') bag.$noName = true;
  return ext.keep(tool, bag);
}

/** The canonical hosted tool -> `code_execution_<date>`; other protocols' settings reported. */
export function encodeCodeExecutionTool(tool: LlmCodeExecutionTool, path: string, context: CodecContext | undefined): Wire {
  reportForeignToolFields(tool, path, PROTOCOL, context);
  const type = ext.marker(tool, 'type');
  const out: Wire = { type: typeof type === 'string' ? type : DEFAULT_TYPE };
  if (!ext.marker(tool, 'noName')) out.name = tool.name;
  ext.writeRest(out, tool);
  return out;
}
