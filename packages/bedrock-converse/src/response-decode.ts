import type { CodecContext, LlmAssistantContent, LlmChoice, LlmResponse } from '@llm/core';
import { isJsonObject } from '@llm/core';
import { decodeContent } from './content-decode.js';
import { PROTOCOL, ext, read } from './protocol.js';
import { decodeStopReason, isKnownStopReason } from './stop-reason.js';
import { decodeUsage } from './usage.js';

const KNOWN = new Set(['output', 'stopReason', 'usage', 'serviceTier']);

/**
 * `Codec.response.answerFault`: a Converse answer is an object with `output.message` (what
 * `decodeResponse` reads first) and a `stopReason`; the path of what is not, else `undefined`.
 */
export function answerFault(wire: unknown): string | undefined {
  if (!isJsonObject(wire)) return '$';
  if (!isJsonObject(wire.output) || !isJsonObject(wire.output.message)) return 'output';
  return typeof wire.stopReason === 'string' ? undefined : 'stopReason';
}

/**
 * Response body -> canonical response (one choice). The answer names neither an id nor the model:
 * the id is `''` (the router or the client's encoder makes one) and the model is the one the
 * request was sent to (`context.model`). `metrics`, `trace` and `additionalModelResponseFields`
 * ride in the bag.
 */
export function decodeResponse(body: unknown, context?: CodecContext): LlmResponse {
  const wire = read.body(body);
  const output = read.object(wire, 'output', '');
  const message = read.object(output, 'message', 'output');
  const blocks = read.array(message, 'content', 'output.message');
  const { parts, blockOf } = decodeContent(blocks, 'output.message.content');
  const content: LlmAssistantContent[] = new Array(parts.length);
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    content[index] = part.type === 'tool-result' || part.type === 'json' ? { type: 'provider', protocol: PROTOCOL, value: blocks[blockOf[index]!] } : part;
  }
  const choice: LlmChoice = { index: 0, content };
  const stopReason = read.string(wire, 'stopReason', '');
  choice.finishReason = decodeStopReason(stopReason);
  choice.rawFinishReason = stopReason;
  // As in streams: a reason this codec does not know comes back to Converse clients as it came.
  if (!isKnownStopReason(stopReason)) ext.keep(choice, { $stop: { stopReason } });
  const response: LlmResponse = { id: '', model: context?.model ?? '', choices: [choice] };
  if (wire.usage != null) response.usage = decodeUsage(wire, 'usage', '');
  const tier = read.optionalObject(wire, 'serviceTier', '');
  let rest = ext.rest(wire, KNOWN);
  if (tier && typeof tier.type === 'string') response.serviceTier = tier.type;
  else if (tier) (rest ??= {}).serviceTier = tier;
  // Converse always sends usage and metrics; an answer without them is kept without them.
  if (wire.usage == null) (rest ??= {}).$noUsage = true;
  if (wire.metrics === undefined) (rest ??= {}).$noMetrics = true;
  return ext.keep(response, rest);
}
