import type { JsonSchema } from '@llm/core';

/**
 * A schema in Gemini's OpenAPI 3.0 dialect (`parameters`, `responseSchema`: uppercase `type`,
 * `nullable`) -> standard JSON Schema for the canonical model. The original is kept by the caller
 * for exact same-protocol round trips.
 */
export function fromGeminiSchema(schema: unknown): JsonSchema {
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
          for (const name in value as object) properties[name] = fromGeminiSchema((value as Record<string, unknown>)[name]);
          out.properties = properties;
        }
        break;
      case 'items':
        out.items = fromGeminiSchema(value);
        break;
      case 'anyOf':
        out.anyOf = Array.isArray(value) ? value.map(fromGeminiSchema) : value;
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
