import { LlmError, checkJsonDepth, isJsonObject, type ProtocolId } from '@llm/core';

/**
 * The client's body while upstream attempts may need it: parsed, and its text for the bridge's
 * opaque-state scan. Emptied before the last attempt waits on its upstream.
 */
export interface HeldBody {
  body?: Record<string, unknown>;
  text?: string;
}

export function heldBody(text: string, protocol: ProtocolId): HeldBody {
  return { body: parseBody(text, protocol), text };
}

export function stringField(body: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = body?.[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * A client body: a JSON object nesting at most `MAX_JSON_DEPTH` (128) levels, so no recursive
 * walk after it (decoders, schema rewriters, `JSON.stringify`) can exhaust the stack; deeper
 * bodies answer 400 naming where the limit was crossed. The check walks the parsed value once.
 */
export function parseBody(text: string, protocol: ProtocolId): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new LlmError({ kind: 'invalid_request', message: 'request body is not valid JSON' });
  }
  if (!isJsonObject(body)) throw new LlmError({ kind: 'invalid_request', message: 'request body must be a JSON object' });
  checkJsonDepth(body, { protocol });
  return body;
}
