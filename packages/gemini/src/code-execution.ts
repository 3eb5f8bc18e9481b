import { CODE_EXECUTION_TOOL_NAME, reportForeignToolFields, type CodecContext, type LlmCodeExecutionTool } from '@llm/core';
import { PROTOCOL, ext, read } from './protocol.js';

type Wire = Record<string, unknown>;

/** A Tool member that is code execution (either spelling proto3 JSON accepts). */
export function isCodeExecutionKey(key: string): boolean {
  return key === 'codeExecution' || key === 'code_execution';
}

/**
 * `codeExecution` -> the canonical hosted tool (its members, none today, stay in the bag with the
 * wire Tool's index and key spelling).
 * @see https://ai.google.dev/api/caching#CodeExecution
 */
export function decodeCodeExecution(holder: Wire, key: string, path: string, toolIndex: number): LlmCodeExecutionTool {
  const wire = read.object(holder, key, path);
  const bag: Wire = { $tool: toolIndex, ...wire };
  if (key !== 'codeExecution') bag.$key = key;
  const tool: LlmCodeExecutionTool = { type: 'code_execution', name: CODE_EXECUTION_TOOL_NAME };
  return ext.keep(tool, bag);
}

/** The canonical hosted tool -> `[key, codeExecution value]` for its Tool object. */
export function encodeCodeExecution(tool: LlmCodeExecutionTool, path: string, context: CodecContext | undefined): [string, Wire] {
  reportForeignToolFields(tool, path, PROTOCOL, context);
  const bag = ext.bag(tool);
  const out: Wire = {};
  ext.writeRest(out, tool);
  return [typeof bag?.$key === 'string' ? bag.$key : 'codeExecution', out];
}
