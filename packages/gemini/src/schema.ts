import { checkJsonDepth, type JsonSchema } from '@llm/core';
import { PROTOCOL } from './protocol.js';

/**
 * A schema in Gemini's OpenAPI 3.0 dialect (`parameters`, `responseSchema`: uppercase `type`,
 * `nullable`) -> standard JSON Schema for the canonical model. The original is kept by the caller
 * for exact same-protocol round trips. `path` names where the schema sits, for the
 * `invalid_request` a schema nested deeper than `MAX_JSON_DEPTH` gets.
 */
export function fromGeminiSchema(schema: unknown, path?: string): JsonSchema {
  // The conversion recurses: a schema nested past MAX_JSON_DEPTH is refused, naming its path.
  checkJsonDepth(schema, { path, protocol: PROTOCOL });
  return decodeNode(schema);
}

/**
 * {@link fromGeminiSchema} for a schema inside a request `request.decode` has already checked
 * whole (core's `requestDecoder`): the schema is not walked a second time.
 */
export function fromCheckedGeminiSchema(schema: unknown): JsonSchema {
  return decodeNode(schema);
}

function decodeNode(schema: unknown): JsonSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return {};
  const node = schema as Record<string, unknown>;
  const out: JsonSchema = {};
  for (const key in node) {
    const value = node[key];
    switch (key) {
      case 'type':
        out.type = typeof value === 'string' ? value.toLowerCase() : value;
        break;
      case 'nullable':
        break;
      case 'properties':
        if (typeof value === 'object' && value !== null) {
          const properties: Record<string, JsonSchema> = {};
          for (const name in value as object) properties[name] = decodeNode((value as Record<string, unknown>)[name]);
          out.properties = properties;
        }
        break;
      case 'items':
        out.items = decodeNode(value);
        break;
      case 'anyOf':
        out.anyOf = Array.isArray(value) ? value.map((item) => decodeNode(item)) : value;
        break;
      default:
        out[key] = value;
    }
  }
  if (node.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else out.anyOf = [...((out.anyOf as JsonSchema[] | undefined) ?? []), { type: 'null' }];
  }
  return out;
}
