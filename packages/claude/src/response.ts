import type { CodecContext, LlmAssistantContent, LlmChoice, LlmResponse } from '@llm/core';
import { isJsonObject, readArray, readObject, readOptionalNumber, readOptionalString, readString, reportLoss } from '@llm/core';
import { asAssistantContent, decodeBlock, encodePart } from './blocks.js';
import { PROTOCOL, keep, ownBag, restOf, writeBack } from './ext.js';
import { decodeStopReason, encodeStopReason } from './stop-reason.js';
import type { ClaudeResponse } from './wire-types.js';
import { decodeUsage, encodeUsage } from './usage.js';

type Wire = Record<string, unknown>;

/** Response fields with a canonical home; the rest (stop_details, container, ...) ride in the bag. */
const KNOWN = new Set(['id', 'type', 'role', 'model', 'content', 'stop_reason', 'stop_sequence', 'usage']);

/** The counts decodeUsage reads leniently (streams merge partial usage) must be numbers in a body. */
const USAGE_COUNTS = ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'];

function checkUsage(usage: Wire): void {
  for (const key of USAGE_COUNTS) readOptionalNumber(usage, key, 'usage', PROTOCOL);
}

/**
 * `Codec.response.answerFault`: a Messages answer is an object with a `content` array (what
 * `decodeResponse` reads first) and `type: "message"`; the path of what is not, else `undefined`.
 */
export function answerFault(wire: unknown): string | undefined {
  if (!isJsonObject(wire)) return '$';
  if (!Array.isArray(wire.content)) return 'content';
  return wire.type === 'message' ? undefined : 'type';
}

/** Response body -> canonical response (one choice: Claude has no candidates). */
export function decodeResponse(body: unknown): LlmResponse {
  const wire = readObject(body, '', undefined, PROTOCOL);
  const blocks = readArray(wire.content, '', 'content', PROTOCOL);
  const content: LlmAssistantContent[] = new Array(blocks.length);
  for (let index = 0; index < blocks.length; index++) {
    content[index] = asAssistantContent(decodeBlock(blocks[index], 'content', index), `content[${index}]`);
  }
  const choice: LlmChoice = { index: 0, content };
  const stopReason = wire.stop_reason;
  if (typeof stopReason === 'string') {
    choice.finishReason = decodeStopReason(stopReason);
    choice.rawFinishReason = stopReason;
  }
  if (typeof wire.stop_sequence === 'string') choice.stopSequence = wire.stop_sequence;
  const response: LlmResponse = {
    id: readString(wire, 'id', '', PROTOCOL),
    model: readString(wire, 'model', '', PROTOCOL),
    choices: [choice],
  };
  if (wire.usage !== undefined && wire.usage !== null) checkUsage(readObject(wire.usage, '', 'usage', PROTOCOL));
  readOptionalString(wire, 'stop_reason', '', PROTOCOL);
  readOptionalString(wire, 'stop_sequence', '', PROTOCOL);
  const usage = decodeUsage(wire.usage);
  if (usage) response.usage = usage;
  const tier = (wire.usage as Wire | undefined)?.service_tier;
  if (typeof tier === 'string') response.serviceTier = tier;
  // `type`/`role` are constants; a missing `stop_sequence` or `usage` is remembered so it stays missing.
  let rest = restOf(wire, KNOWN);
  if (!('stop_sequence' in wire)) (rest ??= {}).$noStopSequence = true;
  if (wire.usage === undefined) (rest ??= {}).$noUsage = true;
  return keep(response, rest);
}

/** Canonical response -> response body. Extra choices are dropped (reported): Claude has one. */
export function encodeResponse(response: LlmResponse, context?: CodecContext): ClaudeResponse {
  const choice = response.choices[0];
  if (response.choices.length > 1) {
    reportLoss(context, {
      code: 'dropped-field',
      path: 'choices',
      message: `Claude answers with one message; ${response.choices.length - 1} more choice(s) dropped`,
      protocol: PROTOCOL,
    });
  }
  const content: Wire[] = [];
  const parts = choice?.content ?? [];
  for (let index = 0; index < parts.length; index++) {
    const block = encodePart(parts[index]!, `choices[0].content[${index}]`, { context, model: response.model, response: true });
    if (block) content.push(block);
  }
  const bag = ownBag(response);
  const out: Wire = {
    id: response.id,
    type: 'message',
    role: 'assistant',
    model: response.model,
    content,
    stop_reason: encodeStopReason(choice?.finishReason, choice?.rawFinishReason, choice?.stopSequence),
  };
  if (!bag?.$noStopSequence) out.stop_sequence = choice?.stopSequence ?? null;
  if (!bag?.$noUsage) out.usage = encodeUsage(response.usage, context);
  if (choice?.logprobs) {
    reportLoss(context, { code: 'dropped-field', path: 'choices[0].logprobs', message: 'Claude has no logprobs', protocol: PROTOCOL });
  }
  writeBack(out, bag);
  return out as ClaudeResponse;
}
