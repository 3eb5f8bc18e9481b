import type { CodecContext, LlmResponse } from '@llm/core';
import { reportLoss } from '@llm/core';
import { encodeContent } from './content-encode.js';
import { PROTOCOL, ext } from './protocol.js';
import { encodeStopReason } from './stop-reason.js';
import { encodeUsage, reportUnwrittenUsage } from './usage.js';
import type { ConverseResponse } from './wire-types.js';

type Wire = Record<string, unknown>;

/**
 * Canonical response -> response body. Extra choices are dropped (reported): Converse has one.
 * `metrics` is required on the wire: an answer from another protocol gets `latencyMs: 0`.
 */
export function encodeResponse(response: LlmResponse, context?: CodecContext): ConverseResponse {
  const choice = response.choices[0];
  if (response.choices.length > 1) {
    reportLoss(context, {
      code: 'dropped-field',
      path: 'choices',
      message: `Converse answers with one message; ${response.choices.length - 1} more choice(s) dropped`,
      protocol: PROTOCOL,
    });
  }
  if (choice?.logprobs) reportLoss(context, { code: 'dropped-field', path: 'choices[0].logprobs', message: 'Converse has no logprobs', protocol: PROTOCOL });
  const content = encodeContent(choice?.content ?? [], 'choices[0].content', { context, model: response.model, response: true });
  const out: Wire = {
    output: { message: { role: 'assistant', content } },
    stopReason: encodeStopReason(choice?.finishReason, choice?.rawFinishReason, choice?.stopSequence),
  };
  const own = ext.bag(response);
  if (!own?.$noUsage) {
    out.usage = encodeUsage(response.usage);
    reportUnwrittenUsage(response.usage, context);
  }
  if (response.serviceTier !== undefined) out.serviceTier = { type: response.serviceTier };
  ext.writeRest(out, response);
  // A folded Converse stream carries these on its choice (`messageStop` and `metadata` fields).
  const streamed = ext.bag(choice);
  if (streamed) Object.assign(out, streamed.$stop, streamed.$metadata);
  if (!own?.$noMetrics && out.metrics === undefined) out.metrics = { latencyMs: 0 };
  return out as unknown as ConverseResponse;
}
