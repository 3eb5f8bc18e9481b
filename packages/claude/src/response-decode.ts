import type { LlmAssistantContent, LlmChoice, LlmResponse } from '@llm/core';
import { isJsonObject } from '@llm/core';
import { asAssistantContent, decodeBlock } from './blocks-decode.js';
import { ext, read } from './protocol.js';
import { decodeStopReason } from './stop-reason.js';
import { decodeUsage } from './usage.js';

type Wire = Record<string, unknown>;

/** Response fields with a canonical home; the rest (stop_details, container, ...) ride in the bag. */
const KNOWN = new Set(['id', 'type', 'role', 'model', 'content', 'stop_reason', 'stop_sequence', 'usage']);

/** The counts decodeUsage reads leniently (streams merge partial usage) must be numbers in a body. */
const USAGE_COUNTS = ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'];

function checkUsage(usage: Wire): void {
  for (const key of USAGE_COUNTS) read.optionalNumber(usage, key, 'usage');
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
  const wire = read.body(body);
  const blocks = read.array(wire, 'content', '');
  const content: LlmAssistantContent[] = new Array(blocks.length);
  for (let index = 0; index < blocks.length; index++) {
    content[index] = asAssistantContent(decodeBlock(blocks, index, 'content'), `content[${index}]`);
  }
  const choice: LlmChoice = { index: 0, content };
  const stopReason = wire.stop_reason;
  if (typeof stopReason === 'string') {
    choice.finishReason = decodeStopReason(stopReason);
    choice.rawFinishReason = stopReason;
  }
  if (typeof wire.stop_sequence === 'string') choice.stopSequence = wire.stop_sequence;
  const response: LlmResponse = {
    id: read.string(wire, 'id', ''),
    model: read.string(wire, 'model', ''),
    choices: [choice],
  };
  const usageObject = read.optionalObject(wire, 'usage', '');
  if (usageObject) checkUsage(usageObject);
  read.optionalString(wire, 'stop_reason', '');
  read.optionalString(wire, 'stop_sequence', '');
  const usage = decodeUsage(wire.usage);
  if (usage) response.usage = usage;
  const tier = (wire.usage as Wire | undefined)?.service_tier;
  if (typeof tier === 'string') response.serviceTier = tier;
  // `type`/`role` are constants; a missing `stop_sequence` or `usage` is remembered so it stays missing.
  let rest = ext.rest(wire, KNOWN);
  if (!('stop_sequence' in wire)) (rest ??= {}).$noStopSequence = true;
  if (wire.usage === undefined) (rest ??= {}).$noUsage = true;
  return ext.keep(response, rest);
}
