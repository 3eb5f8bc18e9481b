import { toolArgumentsObject, type JsonObject } from '@llm/core';

/**
 * The object a tool result's text spells, sent as `functionResponse.response` itself (the form
 * Gemini documents for a function's structured answer), or `undefined` for text that is not a
 * JSON object, nests deeper than MAX_JSON_DEPTH, or is an object with the one key `output` or
 * `error` (the wrappers themselves: sent as such it would read back as another text, or as an
 * error). Only text that starts with `{` is parsed.
 */
export function responseObjectOf(text: string): JsonObject | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  const object = toolArgumentsObject(text);
  if (!object) return undefined;
  const keys = Object.keys(object);
  return keys.length === 1 && (keys[0] === 'output' || keys[0] === 'error') ? undefined : object;
}
