import type { JsonSchema, LlmFunctionTool, LlmTool, LlmToolChoice } from '@llm/core';
import { cacheHintFromPoint } from './cache-point.js';
import { PROTOCOL, ext, read } from './protocol.js';
import { hasOnly, memberOf } from './union.js';

const SPEC_KNOWN = new Set(['name', 'description', 'inputSchema', 'strict']);

/** `toolConfig.tools[index]` -> canonical; a `cachePoint` marks the tool before it, other kinds stay whole. */
function decodeTool(list: unknown[], index: number, tools: LlmTool[]): void {
  const wire = read.object(list, index, 'toolConfig.tools');
  const path = `toolConfig.tools[${index}]`;
  const member = memberOf(wire);
  if (member === 'cachePoint') {
    const hint = cacheHintFromPoint(wire.cachePoint);
    const previous = tools[tools.length - 1];
    if (hint && previous?.type === 'function' && previous.cache === undefined) {
      previous.cache = hint;
      return;
    }
  }
  if (member !== 'toolSpec') {
    // systemTool and kinds added later: Converse's own.
    tools.push({ type: 'provider', protocol: PROTOCOL, name: member ?? 'tool', value: wire });
    return;
  }
  const spec = read.object(wire, 'toolSpec', path);
  const specPath = `${path}.toolSpec`;
  const schema = read.object(spec, 'inputSchema', specPath);
  if (!hasOnly(schema, ['json'])) read.invalid(spec, 'inputSchema', specPath, 'an object with `json`');
  const tool: LlmFunctionTool = {
    type: 'function',
    name: read.string(spec, 'name', specPath),
    parameters: read.object(schema, 'json', `${specPath}.inputSchema`) as JsonSchema,
  };
  const description = read.optionalString(spec, 'description', specPath);
  if (description !== undefined) tool.description = description;
  const strict = read.optionalBoolean(spec, 'strict', specPath);
  if (strict !== undefined) tool.strict = strict;
  tools.push(ext.keep(tool, ext.rest(spec, SPEC_KNOWN)));
}

/** `toolConfig.tools` -> canonical tools. */
export function decodeTools(config: Record<string, unknown>): LlmTool[] {
  const list = read.array(config, 'tools', 'toolConfig');
  const tools: LlmTool[] = [];
  for (let index = 0; index < list.length; index++) decodeTool(list, index, tools);
  return tools;
}

/** `toolConfig.toolChoice` -> canonical: `auto`, `any` (required) or one `tool`. */
export function decodeToolChoice(config: Record<string, unknown>): LlmToolChoice {
  const choice = read.object(config, 'toolChoice', 'toolConfig');
  const path = 'toolConfig.toolChoice';
  switch (memberOf(choice)) {
    case 'auto':
      read.object(choice, 'auto', path);
      return { type: 'auto' };
    case 'any':
      read.object(choice, 'any', path);
      return { type: 'required' };
    case 'tool': {
      const tool = read.object(choice, 'tool', path);
      return { type: 'tool', name: read.string(tool, 'name', `${path}.tool`) };
    }
    default:
      return read.invalid(config, 'toolChoice', 'toolConfig', 'one of `auto`, `any` or `tool`');
  }
}
