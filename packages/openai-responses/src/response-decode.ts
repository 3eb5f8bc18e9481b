import { collectUnknown, isJsonObject, joinPath, type CodecContext, type LlmAssistantContent, type LlmChoice, type LlmResponse } from '@llm/core';
import { decodeAnswerLogprobs } from './logprobs.js';
import { PROTOCOL, ext, read } from './protocol.js';
import { decodeFinishReason } from './finish-reason.js';
import { decodeAssistantItem } from './items-decode.js';
import { decodeUsage } from './usage.js';

const KNOWN = new Set(['id', 'object', 'created_at', 'model', 'output', 'usage', 'status', 'service_tier']);

/**
 * A response object -> canonical response with one choice. Every output item becomes parts (see
 * items-decode.ts); the finish reason is derived from `status` and the output. Echoed request
 * config (`tools`, `reasoning`, `text`, ...) and `incomplete_details` / `error` stay in the bag.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
/**
 * `Codec.response.answerFault`: a Responses answer is an object with a string `id` (what
 * `decodeResponse` requires) and an `output` array (the OpenAI SDK's `Response` always has one,
 * `[]` when empty); the path of what is not, else `undefined`. Stream events' response objects
 * are read more leniently (`decodeResponseObject`).
 */
export function answerFault(wire: unknown): string | undefined {
  if (!isJsonObject(wire)) return '$';
  if (typeof wire.id !== 'string') return 'id';
  return Array.isArray(wire.output) ? undefined : 'output';
}

export function decodeResponse(wire: unknown, _context?: CodecContext): LlmResponse {
  const body = read.body(wire);
  return decodeResponseObject(body, '');
}

/** Decodes a response object found at `path` (a stream event's `response`). */
export function decodeResponseObject(body: Record<string, unknown>, path: string): LlmResponse {
  const model = read.optionalString(body, 'model', path) ?? '';
  const output = read.optionalArray(body, 'output', path) ?? [];
  const outputPath = joinPath(path, 'output');
  const content: LlmAssistantContent[] = [];
  for (let index = 0; index < output.length; index++) {
    const item = read.object(output, index, outputPath);
    for (const part of decodeAssistantItem(item, joinPath(outputPath, index))) {
      if (part.type === 'reasoning' && model) part.origin = { protocol: PROTOCOL, model };
      content.push(part);
    }
  }
  const status = read.optionalString(body, 'status', path);
  const incomplete = body.incomplete_details;
  const reason =
    typeof incomplete === 'object' && incomplete !== null && typeof (incomplete as { reason?: unknown }).reason === 'string'
      ? (incomplete as { reason: string }).reason
      : undefined;
  const finish = decodeFinishReason(status, reason, content);
  const choice: LlmChoice = { index: 0, content, finishReason: finish.reason, rawFinishReason: finish.raw };
  decodeAnswerLogprobs(content, choice);
  const response: LlmResponse = { id: read.string(body, 'id', path), model, choices: [choice] };
  const created = read.optionalInteger(body, 'created_at', path);
  if (created !== undefined) response.created = created;
  if (body.usage !== undefined && body.usage !== null) response.usage = decodeUsage(body, path);
  const tier = read.optionalString(body, 'service_tier', path);
  if (tier !== undefined) response.serviceTier = tier;
  const bag: Record<string, unknown> = collectUnknown(body, KNOWN) ?? {};
  if (body.usage === null) bag.usage = null;
  if (body.service_tier === null) bag.service_tier = null;
  if (body.model === undefined) bag.$noModel = true;
  if (status === undefined) bag.$noStatus = true;
  if (body.object === undefined) bag.$noObject = true;
  if (body.created_at === null) bag.created_at = null;
  // An empty bag still says "came from Responses": encode then adds no defaults of its own.
  if (Object.keys(bag).length === 0) bag.$own = true;
  ext.keep(response, bag);
  return response;
}
