import type { JsonSchema, LlmTool, LlmToolChoice } from '@llm/core';
import { PROTOCOL, ext, read } from './protocol.js';
import { camel, field, unknownFields } from './read.js';
import { fromCheckedGeminiSchema } from './schema.js';
import { decodeCodeExecution, isCodeExecutionKey } from './code-execution.js';
import { decodeGoogleSearch, isGoogleSearchKey } from './web-search.js';

type Wire = Record<string, unknown>;

const DECLARATION_KNOWN = new Set(['name', 'description', 'parameters', 'parametersJsonSchema']);

/**
 * `tools` (Tool objects, each holding one or more kinds) -> canonical tools, in order. A
 * declaration's fields with no canonical meaning (`response` / `responseJsonSchema`, the output
 * schema no other protocol declares; `behavior`; anything newer) stay in the tool's bag for
 * Gemini, and are also listed in `requestBag` under `$<their declaration's path>` so that a
 * request crossing to another protocol reports each as a dropped field with its JSON path (core's
 * reportForeignExtensions reads only the request bag).
 */
export function decodeTools(body: Wire, requestBag: Wire): LlmTool[] {
  const list = read.array(body, 'tools', '');
  const tools: LlmTool[] = [];
  for (let index = 0; index < list.length; index++) {
    const tool = read.object(list, index, 'tools');
    const path = `tools[${index}]`;
    for (const key in tool) {
      if (key === 'functionDeclarations' || key === 'function_declarations') {
        const declarations = read.array(tool, key, path);
        for (let at = 0; at < declarations.length; at++) tools.push(decodeDeclaration(declarations, at, `${path}.${key}`, index, requestBag));
      } else if (isGoogleSearchKey(key)) {
        tools.push(decodeGoogleSearch(tool, key, path, index));
      } else if (isCodeExecutionKey(key)) {
        tools.push(decodeCodeExecution(tool, key, path, index));
      } else {
        // Built-ins (googleSearch, codeExecution, urlContext, ...) are kept whole.
        const builtIn: LlmTool = { type: 'provider', protocol: PROTOCOL, name: key, value: tool[key] };
        tools.push(ext.keep(builtIn, { $tool: index }));
      }
    }
  }
  return tools;
}

function decodeDeclaration(declarations: readonly unknown[], index: number, parent: string, toolIndex: number, requestBag: Wire): LlmTool {
  const declaration = read.object(declarations, index, parent);
  const path = `${parent}[${index}]`;
  const tool: LlmTool = { type: 'function', name: read.string(declaration, 'name', path) };
  const unmapped = unknownFields(declaration, DECLARATION_KNOWN);
  if (unmapped) requestBag[`$${path}`] = unmapped;
  const bag: Wire = { $tool: toolIndex, ...unmapped };
  const description = declaration.description;
  if (typeof description === 'string') tool.description = description;
  else if (description !== undefined) read.invalid(declaration, 'description', path, 'a string');
  const openApi = declaration.parameters;
  if (field(declaration, 'parametersJsonSchema') !== undefined) {
    tool.parameters = read.object(camel(declaration, 'parametersJsonSchema'), 'parametersJsonSchema', path) as JsonSchema;
    bag.$jsonSchema = true;
  } else if (openApi !== undefined) {
    read.object(declaration, 'parameters', path);
    tool.parameters = fromCheckedGeminiSchema(openApi);
    bag.$schema = openApi;
  }
  return ext.keep(tool, bag);
}

const MODE_KNOWN = new Set(['mode', 'allowedFunctionNames']);
const TOOL_CONFIG_KNOWN = new Set(['functionCallingConfig']);

/** What `toolConfig` says, canonically, plus what stays in the request bag. */
export interface DecodedToolConfig {
  choice?: LlmToolChoice;
  /** Fields to keep for the round trip (VALIDATED mode, retrievalConfig, ...). */
  rest?: Wire;
}

/** `toolConfig` -> canonical tool choice. */
export function decodeToolConfig(body: Wire): DecodedToolConfig {
  const config = read.object(camel(body, 'toolConfig'), 'toolConfig', '');
  const result: DecodedToolConfig = {};
  let rest = unknownFields(config, TOOL_CONFIG_KNOWN);
  if (field(config, 'functionCallingConfig') === undefined) return rest ? { rest } : result;
  const wire = read.object(camel(config, 'functionCallingConfig'), 'functionCallingConfig', 'toolConfig');
  const path = 'toolConfig.functionCallingConfig';
  const mode = wire.mode;
  const names =
    field(wire, 'allowedFunctionNames') === undefined
      ? undefined
      : read
          .array(camel(wire, 'allowedFunctionNames'), 'allowedFunctionNames', path)
          .map((_, at, list) => read.string(list, at, `${path}.allowedFunctionNames`));
  const callingRest = unknownFields(wire, MODE_KNOWN);
  if (callingRest) rest = { ...rest, $calling: callingRest };
  switch (mode) {
    case undefined:
    case 'MODE_UNSPECIFIED':
    case 'AUTO':
    case 'VALIDATED':
      result.choice = names ? { type: 'allowed', names, mode: 'auto' } : { type: 'auto' };
      if (mode !== 'AUTO') rest = { ...rest, $mode: mode ?? null };
      break;
    case 'ANY':
      result.choice = names?.length === 1 ? { type: 'tool', name: names[0]! } : names ? { type: 'allowed', names, mode: 'required' } : { type: 'required' };
      break;
    case 'NONE':
      result.choice = { type: 'none' };
      if (names) rest = { ...rest, $names: names };
      break;
    default:
      return read.invalid(wire, 'mode', path, 'AUTO, ANY, NONE or VALIDATED');
  }
  if (rest) result.rest = rest;
  return result;
}
