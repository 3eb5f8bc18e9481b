import type { CodecContext, LlmResponse } from '@llm/core';
import { encodeAnswerLogprobs } from './logprobs.js';
import { ext } from './protocol.js';
import { encodeFinishReason } from './finish-reason.js';
import { encodeAssistantParts } from './items-encode.js';
import { missingRefusal } from './refusal.js';
import { encodeUsage } from './usage.js';
import type { OpenAIResponsesResponse } from './wire-types.js';

/**
 * Canonical response -> response object. Items without ids get ones derived from the response
 * id; opaque state is written as it is. A `refusal` finish without a refusal part gets one
 * (refusal.ts).
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export function encodeResponse(response: LlmResponse, context?: CodecContext): OpenAIResponsesResponse {
  const bag = ext.bag(response);
  const choice = response.choices[0];
  const output: unknown[] = [];
  const { status, incomplete } = encodeFinishReason(choice?.finishReason, choice?.rawFinishReason);
  const base = response.id.replace(/^resp_/, '');
  if (choice) {
    const refusal = missingRefusal(choice);
    encodeAssistantParts(
      refusal ? [...choice.content, refusal] : choice.content,
      'choices[0]',
      output,
      context,
      {},
      {
        // Each item is whole as written: `status` and `incomplete_details` say the answer was
        // cut, as a stream of it does (its items are done before its finish is known).
        status: 'completed',
        idFor: (prefix, index) => `${prefix}_${base}_${index}`,
      },
    );
    encodeAnswerLogprobs(choice, output);
  }
  const body: Record<string, unknown> = { id: response.id };
  if (!bag?.$noObject) body.object = 'response';
  body.created_at = response.created ?? Math.floor(Date.now() / 1000);
  if (!bag?.$noStatus) body.status = status;
  if (!bag) {
    body.error = status === 'failed' ? { code: 'server_error', message: 'the model failed' } : null;
    body.incomplete_details = incomplete ?? null;
  }
  if (!bag?.$noModel) body.model = response.model;
  body.output = output;
  if (response.usage) body.usage = encodeUsage(response.usage);
  if (response.serviceTier !== undefined) body.service_tier = response.serviceTier;
  if (!bag) body.parallel_tool_calls = true;
  if (!bag) body.tool_choice = 'auto';
  if (!bag) body.tools = [];
  ext.writeRest(body, response);
  return body as unknown as OpenAIResponsesResponse;
}
