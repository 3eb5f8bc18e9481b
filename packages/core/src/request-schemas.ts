import { LlmError } from './errors.js';
import { findSchemaProblem } from './json-schema/check.js';
import type { LlmRequest, LlmResponseFormat } from './request.js';
import type { LlmTool } from './tools.js';

/**
 * Checks every JSON Schema a request carries (function tool parameters, the JSON response
 * schema) with {@link findSchemaProblem}, so a malformed schema is a 400 from the gateway naming
 * the tool and the path inside the schema, not an upstream error after a network round trip.
 * Protocol-blind: run it once on the decoded request, whatever the client and target.
 * Costs one walk of each schema; nothing is copied.
 */
export function checkRequestSchemas(request: LlmRequest): void {
  const { tools, responseFormat } = request;
  if (tools !== undefined) for (let index = 0; index < tools.length; index++) checkToolSchema(tools[index]!, index);
  if (responseFormat !== undefined) checkResponseFormatSchema(responseFormat);
}

/**
 * Throws `invalid_request` for a function tool whose parameters are not a JSON Schema:
 * `tool "get_weather": parameters.properties.city.type: "strin" is not a JSON Schema type`,
 * with the error's `path` at `tools[index]`.
 */
export function checkToolSchema(tool: LlmTool, index: number): void {
  if (tool.type !== 'function' || tool.parameters === undefined) return;
  const problem = findSchemaProblem(tool.parameters, 'parameters');
  if (problem === undefined) return;
  throw new LlmError({
    kind: 'invalid_request',
    message: `tool ${JSON.stringify(tool.name)}: ${problem.path}: ${problem.message}`,
    path: `tools[${index}].${problem.path}`,
  });
}

/**
 * Throws `invalid_request` for a JSON response format whose schema is not a JSON Schema:
 * `response format "weather": schema.required[0]: expected a string, got 1`.
 */
export function checkResponseFormatSchema(format: LlmResponseFormat): void {
  if (format.type !== 'json-schema') return;
  const problem = findSchemaProblem(format.schema, 'schema');
  if (problem === undefined) return;
  const subject = format.name === undefined ? 'response format' : `response format ${JSON.stringify(format.name)}`;
  throw new LlmError({ kind: 'invalid_request', message: `${subject}: ${problem.path}: ${problem.message}`, path: `responseFormat.${problem.path}` });
}
