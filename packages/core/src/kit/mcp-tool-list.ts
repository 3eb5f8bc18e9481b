import { collectUnknown } from '../extensions.js';
import type { LlmMcpToolDescription } from '../mcp.js';
import { joinPath } from '../validate.js';
import type { WireReader } from './wire-reader.js';

/**
 * A hosted-MCP tool list of the wire (`{ name, description?, input_schema, ... }` items: Responses
 * `mcp_list_tools.tools`, Claude `mcp_tool_listing.tools`, at `path`) -> canonical tools, and
 * whether they say it exactly: a description that is not a string, or a field outside `known`,
 * does not (the codec then keeps the wire list whole). `annotations` is read when `known` has it.
 */
export function readMcpToolList(
  wireTools: readonly unknown[],
  path: string,
  read: WireReader,
  known: ReadonlySet<string>,
): { tools: LlmMcpToolDescription[]; exact: boolean } {
  let exact = true;
  const tools = wireTools.map((_, index): LlmMcpToolDescription => {
    const wire = read.object(wireTools, index, path);
    const tool: LlmMcpToolDescription = { name: read.string(wire, 'name', joinPath(path, index)), inputSchema: wire.input_schema as never };
    if (typeof wire.description === 'string') tool.description = wire.description;
    else if (wire.description !== undefined) exact = false;
    if (known.has('annotations') && wire.annotations !== undefined) tool.annotations = wire.annotations;
    if (collectUnknown(wire, known)) exact = false;
    return tool;
  });
  return { tools, exact };
}
