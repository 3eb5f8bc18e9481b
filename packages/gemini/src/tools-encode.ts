import { reportLoss, reportMcpToolDropped, toGeminiJsonSchema, type CodecContext, type LlmTool, type LlmToolChoice } from '@llm/core';
import { PROTOCOL, ext } from './protocol.js';
import { encodeCodeExecution } from './code-execution.js';
import { encodeGoogleSearch } from './web-search.js';

type Wire = Record<string, unknown>;

/**
 * Canonical tools -> `tools`. Function declarations share one Tool object (or the objects they
 * came from); parameters go as standard JSON Schema in `parametersJsonSchema` unless the tool came
 * from Gemini in the OpenAPI dialect. Custom (free-form) tools become functions taking one string.
 */
export function encodeTools(tools: readonly LlmTool[], context?: CodecContext): Wire[] {
  const groups = new Map<number | string, Wire>();
  const out: Wire[] = [];
  const group = (key: number | string): Wire => {
    let wire = groups.get(key);
    if (!wire) {
      wire = {};
      groups.set(key, wire);
      out.push(wire);
    }
    return wire;
  };
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index]!;
    const path = `tools[${index}]`;
    const bag = ext.bag(tool);
    const key =
      typeof bag?.$tool === 'number'
        ? bag.$tool
        : tool.type === 'provider' || tool.type === 'web_search' || tool.type === 'code_execution'
          ? `provider-${index}`
          : 'functions';
    switch (tool.type) {
      case 'function': {
        const declaration: Wire = { name: tool.name };
        if (tool.description !== undefined) declaration.description = tool.description;
        if (bag?.$schema !== undefined) declaration.parameters = bag.$schema;
        else if (tool.parameters !== undefined) {
          declaration.parametersJsonSchema = bag?.$jsonSchema ? tool.parameters : toGeminiJsonSchema(tool.parameters, context, `${path}.parameters`);
        }
        if (tool.strict !== undefined) {
          reportLoss(context, {
            code: 'dropped-field',
            path: `${path}.strict`,
            message: 'Gemini has no strict switch per function (VALIDATED mode validates every call)',
            protocol: PROTOCOL,
          });
        }
        ext.writeRest(declaration, tool);
        const wire = group(key);
        ((wire.functionDeclarations ??= []) as Wire[]).push(declaration);
        break;
      }
      case 'custom':
        reportLoss(context, {
          code: 'lossy-conversion',
          path,
          message: 'a free-form tool was declared as a function taking one string `input`',
          protocol: PROTOCOL,
        });
        ((group(key).functionDeclarations ??= []) as Wire[]).push({
          name: tool.name,
          ...(tool.description !== undefined ? { description: tool.description } : {}),
          parametersJsonSchema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
        });
        break;
      case 'web_search':
      case 'code_execution': {
        const [member, value] = tool.type === 'web_search' ? encodeGoogleSearch(tool, path, context) : encodeCodeExecution(tool, path, context);
        group(key)[member] = value;
        break;
      }
      case 'provider':
        if (tool.protocol !== PROTOCOL) {
          reportLoss(context, {
            code: 'dropped-tool',
            path,
            message: `the ${tool.protocol} built-in tool ${tool.name} has no Gemini equivalent`,
            protocol: PROTOCOL,
          });
          break;
        }
        group(key)[tool.name] = tool.value;
        break;
      case 'mcp':
        reportMcpToolDropped(tool, path, PROTOCOL, context);
        break;
    }
  }
  return out;
}

/** Canonical tool choice (+ kept fields) -> `toolConfig`. */
export function encodeToolConfig(choice: LlmToolChoice | undefined, kept: Wire | undefined): Wire | undefined {
  const { $calling, $mode, $names, ...rest } = kept ?? {};
  let calling: Wire | undefined;
  if (choice) {
    switch (choice.type) {
      case 'auto':
        calling = $mode === null ? {} : { mode: typeof $mode === 'string' ? $mode : 'AUTO' };
        break;
      case 'none':
        calling = { mode: 'NONE', ...($names ? { allowedFunctionNames: $names } : {}) };
        break;
      case 'required':
        calling = { mode: 'ANY' };
        break;
      case 'tool':
        calling = { mode: 'ANY', allowedFunctionNames: [choice.name] };
        break;
      case 'allowed':
        calling = { mode: choice.mode === 'required' ? 'ANY' : typeof $mode === 'string' ? $mode : 'AUTO', allowedFunctionNames: choice.names };
        break;
    }
  }
  if (calling && $calling) Object.assign(calling, $calling);
  if (!calling && Object.keys(rest).length === 0) return undefined;
  return calling ? { functionCallingConfig: calling, ...rest } : rest;
}
