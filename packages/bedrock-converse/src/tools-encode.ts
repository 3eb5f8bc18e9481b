import type { CodecContext, LlmTool, LlmToolChoice } from '@llm/core';
import { reportLoss, reportMcpToolDropped } from '@llm/core';
import { cachePointBlock } from './cache-point.js';
import { PROTOCOL, ext } from './protocol.js';

type Wire = Record<string, unknown>;

/** The schema a free-form tool is sent with: one string argument `input`. */
const FREEFORM_SCHEMA = { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] };

/** A canonical tool -> `toolConfig.tools` entries (its `cachePoint` after it); nothing when Converse has no such tool (reported). */
export function encodeTool(tool: LlmTool, index: number, context: CodecContext | undefined, out: Wire[]): void {
  const path = `tools[${index}]`;
  switch (tool.type) {
    case 'function': {
      const spec: Wire = { name: tool.name };
      if (tool.description !== undefined) spec.description = tool.description;
      spec.inputSchema = { json: tool.parameters ?? { type: 'object', properties: {} } };
      if (tool.strict !== undefined) spec.strict = tool.strict;
      ext.writeRest(spec, tool);
      out.push({ toolSpec: spec });
      if (tool.cache) out.push(cachePointBlock(tool.cache));
      return;
    }
    case 'custom': {
      reportLoss(context, {
        code: 'lossy-conversion',
        path,
        message: `free-form tool "${tool.name}" was sent as a function taking one string \`input\``,
        protocol: PROTOCOL,
      });
      const spec: Wire = { name: tool.name };
      if (tool.description !== undefined) spec.description = tool.description;
      spec.inputSchema = { json: FREEFORM_SCHEMA };
      out.push({ toolSpec: spec });
      return;
    }
    case 'provider':
      if (tool.protocol === PROTOCOL) {
        out.push(tool.value as Wire);
        return;
      }
      reportLoss(context, { code: 'dropped-tool', path, message: `${tool.protocol} tool "${tool.name}" has no Converse equivalent`, protocol: PROTOCOL });
      return;
    case 'web_search':
    case 'code_execution':
      reportLoss(context, { code: 'dropped-tool', path, message: `Converse has no model-independent ${tool.type} tool`, protocol: PROTOCOL });
      return;
    case 'mcp':
      reportMcpToolDropped(tool, path, PROTOCOL, context);
      return;
    default: {
      const unreachable: never = tool;
      return unreachable;
    }
  }
}

/**
 * Canonical choice -> `toolChoice` (`allowed` also returns the tool names to keep). Converse has
 * no `none`: the choice is left out and reported (the tools stay, as past calls need them).
 */
export function encodeToolChoice(choice: LlmToolChoice | undefined, context: CodecContext | undefined): { wire?: Wire; only?: ReadonlySet<string> } {
  switch (choice?.type) {
    case undefined:
      return {};
    case 'auto':
      return { wire: { auto: {} } };
    case 'required':
      return { wire: { any: {} } };
    case 'tool':
      return { wire: { tool: { name: choice.name } } };
    case 'allowed':
      // No subset choice: keep only those tools.
      return { wire: choice.mode === 'required' ? { any: {} } : { auto: {} }, only: new Set(choice.names) };
    case 'none':
      reportLoss(context, {
        code: 'lossy-conversion',
        path: 'toolChoice',
        message: 'Converse has no "none" tool choice: the model may still call a tool',
        protocol: PROTOCOL,
      });
      return {};
  }
}
