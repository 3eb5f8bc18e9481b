import type { JsonSchema } from '../json.js';
import type { LlmResponseFormat } from '../request.js';
import { checkResponseFormatSchema, checkToolSchema } from '../request-schemas.js';
import type { LlmFunctionTool } from '../tools.js';
import type { CodecContext } from '../warnings.js';
import { toOpenAIStrictSchema } from './openai-strict.js';

/** The parameters of a tool that takes none: closed already, since no arguments is what it means. */
const NO_PARAMETERS: JsonSchema = Object.freeze({ type: 'object', properties: {}, additionalProperties: false });

/**
 * True when an OpenAI encoder (Chat, Responses) sends this function tool with `strict: true`:
 * the upstream enforces tool schemas (`context.strictTools`), or the client asked for strict
 * itself. Either way the schema must be in the strict form, or OpenAI answers 400.
 */
export function isStrictTool(tool: LlmFunctionTool, context: CodecContext | undefined): boolean {
  return context?.strictTools === true || tool.strict === true;
}

/**
 * The strict form ({@link toOpenAIStrictSchema}) of a function tool's parameters, for a tool
 * {@link isStrictTool} picked: checked first (an invalid schema throws `invalid_request` naming
 * the tool and path), every change that alters meaning reported at `tools[index].parameters...`.
 * A tool without parameters gets the empty closed object.
 */
export function strictToolParameters(tool: LlmFunctionTool, index: number, context: CodecContext | undefined): JsonSchema {
  checkToolSchema(tool, index);
  return toOpenAIStrictSchema(tool.parameters ?? NO_PARAMETERS, { ...context, path: `tools[${index}].parameters` });
}

/**
 * True when an OpenAI encoder sends this JSON response schema with `strict: true`: the upstream
 * enforces schemas, the client asked for strict, or the format came from a protocol whose schema
 * output is always enforced and carries no name or strict flag (Gemini `responseSchema` /
 * `responseJsonSchema`, Claude `output_config.format`).
 */
export function isStrictResponseFormat(format: Extract<LlmResponseFormat, { type: 'json-schema' }>, context: CodecContext | undefined): boolean {
  return context?.strictTools === true || format.strict === true || (format.name === undefined && format.strict === undefined);
}

/** The strict form of a JSON response schema {@link isStrictResponseFormat} picked, checked first; warnings at `responseFormat.schema...`. */
export function strictResponseSchema(format: Extract<LlmResponseFormat, { type: 'json-schema' }>, context: CodecContext | undefined): JsonSchema {
  checkResponseFormatSchema(format);
  return toOpenAIStrictSchema(format.schema, { ...context, path: 'responseFormat.schema' });
}
