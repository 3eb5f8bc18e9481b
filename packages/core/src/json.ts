/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/**
 * A JSON Schema document (draft 2020-12 or the OpenAPI 3.0 subset Gemini reads). Kept as a plain
 * object: codecs pass schemas through and only the transforms in `json-schema/` rewrite them.
 */
export type JsonSchema = { [keyword: string]: unknown };

/** True for plain objects (not arrays, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
