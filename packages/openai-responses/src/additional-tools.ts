import { collectUnknown, joinPath, type CodecContext, type LlmTool } from '@llm/core';
import { ext } from './protocol.js';
import { decodeTools } from './tools-decode.js';
import { encodeTools } from './tools-encode.js';

/**
 * `additional_tools` input items (Codex declares its tools this way, `role: "developer"`, often
 * as namespaces) add tools in the middle of the input. Their tools are lifted into the canonical
 * tool list, so every target sees them as tools; each lifted tool remembers its item (`$additional`,
 * the item's ordinal) and the request keeps the items' own fields and places
 * (`$additionalTools`), so a Responses target gets the items back where they were.
 */

/** One `additional_tools` item as the request remembers it. */
export interface AdditionalToolsItem {
  /** Index of the canonical message the item stood before (`messages.length` for the end). */
  at: number;
  /** The item's fields but `tools`. */
  item: Record<string, unknown>;
}

/** What decoding `input` collected from its `additional_tools` items. */
export interface LiftedTools {
  tools: LlmTool[];
  items: AdditionalToolsItem[];
}

/** Lifts one `additional_tools` item at `input[index]`, standing before message `at`. */
export function liftAdditionalTools(item: Record<string, unknown>, index: number, at: number, lifted: LiftedTools): void {
  const ordinal = lifted.items.length;
  const tools = decodeTools(item, joinPath('input', index));
  for (const tool of tools) ext.mark(tool, 'additional', ordinal);
  lifted.tools.push(...tools);
  lifted.items.push({ at, item: collectUnknown(item, TOOLS_KEY) ?? {} });
}

const TOOLS_KEY = new Set(['tools']);

/** True for a tool lifted from an `additional_tools` item. */
export function isLifted(tool: LlmTool): boolean {
  return ext.marker(tool, 'additional') !== undefined;
}

/** The remembered items, rebuilt with their lifted tools, for the input encoder to place. */
export function rebuildAdditionalTools(
  items: readonly AdditionalToolsItem[],
  tools: readonly LlmTool[] | undefined,
  context: CodecContext | undefined,
): { at: number; item: unknown }[] {
  return items.map(({ at, item }, ordinal) => {
    const own = (tools ?? []).filter((tool) => ext.marker(tool, 'additional') === ordinal);
    return { at, item: { ...item, tools: encodeTools(own, context) } };
  });
}
