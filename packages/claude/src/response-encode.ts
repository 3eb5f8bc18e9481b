import type { CodecContext, LlmResponse } from '@llm/core';
import { reportLoss } from '@llm/core';
import { encodePart } from './blocks-encode.js';
import { codeExecutionPairs } from './code-execution-blocks.js';
import { PROTOCOL, ext } from './protocol.js';
import { encodeStopReason } from './stop-reason.js';
import type { ClaudeResponse } from './wire-types.js';
import { encodeUsage } from './usage.js';

type Wire = Record<string, unknown>;

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
  const options = { context, model: response.model, response: true, codePairs: codeExecutionPairs() };
  for (let index = 0; index < parts.length; index++) {
    const block = encodePart(parts[index]!, `choices[0].content[${index}]`, options);
    if (block) content.push(block);
  }
  const out: Wire = {
    id: response.id,
    type: 'message',
    role: 'assistant',
    model: response.model,
    content,
    stop_reason: encodeStopReason(choice?.finishReason, choice?.rawFinishReason, choice?.stopSequence),
  };
  if (!ext.marker(response, 'noStopSequence')) out.stop_sequence = choice?.stopSequence ?? null;
  if (!ext.marker(response, 'noUsage')) out.usage = encodeUsage(response.usage, context);
  if (choice?.logprobs) {
    reportLoss(context, { code: 'dropped-field', path: 'choices[0].logprobs', message: 'Claude has no logprobs', protocol: PROTOCOL });
  }
  ext.writeRest(out, response);
  return out as ClaudeResponse;
}
