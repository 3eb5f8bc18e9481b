import { CODE_EXECUTION_TOOL_NAME, collectUnknown, reportForeignToolFields, type CodecContext, type LlmCodeExecutionTool } from '@llm/core';
import { PROTOCOL, ext } from './protocol.js';

type Wire = Record<string, unknown>;

const KNOWN = new Set(['type', 'container']);

/**
 * `code_interpreter` -> the canonical hosted tool. A `container` other than the automatic one
 * (an existing container id, files, a memory limit) is a Responses setting kept in the bag.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
 */
export function decodeCodeInterpreter(wire: Wire): LlmCodeExecutionTool {
  const tool: LlmCodeExecutionTool = { type: 'code_execution', name: CODE_EXECUTION_TOOL_NAME };
  const bag: Wire = collectUnknown(wire, KNOWN) ?? {};
  const container = wire.container as Wire | undefined;
  const automatic = typeof container === 'object' && container !== null && container.type === 'auto' && Object.keys(container).length === 1;
  if (!automatic) bag.container = container;
  ext.keep(tool, bag);
  return tool;
}

/** The canonical hosted tool -> `code_interpreter` (in an automatic container unless it named one). */
export function encodeCodeInterpreter(tool: LlmCodeExecutionTool, path: string, context: CodecContext | undefined): Wire {
  reportForeignToolFields(tool, path, PROTOCOL, context);
  const out: Wire = { type: 'code_interpreter', container: { type: 'auto' } };
  ext.writeRest(out, tool);
  if (out.container === undefined) delete out.container;
  return out;
}
