import { isStrictResponseFormat, reportCacheHints, reportLoss, strictResponseSchema, type CodecContext, type LlmRequest } from '@llm/core';
import { type AdditionalToolsItem, isLifted, rebuildAdditionalTools } from './additional-tools.js';
import { encodeLogprobsInclude } from './logprobs.js';
import { MIN_MAX_OUTPUT_TOKENS, PROTOCOL, ext } from './protocol.js';
import { encodeMessages } from './items-encode.js';
import { encodeToolChoice, encodeTools } from './tools-encode.js';
import type { OpenAIResponsesRequest } from './wire-types.js';

/**
 * Canonical request -> `POST /v1/responses` body. Reports what Responses cannot say (`stop`,
 * `n`, penalties, seeds, `topK`, logit bias).
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export function encodeRequest(request: LlmRequest, context?: CodecContext): OpenAIResponsesRequest {
  const bag = ext.bag(request);
  const body: Record<string, unknown> = {};
  if (!bag?.$noModel) body.model = request.model;
  const additional = bag?.$additionalTools as AdditionalToolsItem[] | undefined;
  const insertions = additional ? rebuildAdditionalTools(additional, request.tools, context) : undefined;
  const { instructions, input } = encodeMessages(request.messages, context, { store: request.store, insertions });
  if (instructions !== undefined) body.instructions = instructions;
  if (!(bag?.$noInput && Array.isArray(input) && input.length === 0)) body.input = input;
  const tools = additional ? request.tools?.filter((tool) => !isLifted(tool)) : request.tools;
  if (tools !== undefined && !(bag?.$noTools && tools.length === 0)) body.tools = encodeTools(tools, context);
  if (request.toolChoice !== undefined) body.tool_choice = encodeToolChoice(request.toolChoice, request.tools);
  if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = maxOutputTokens(request.maxOutputTokens, bag?.$maxOutput, context);
  if (request.maxToolCalls !== undefined) body.max_tool_calls = request.maxToolCalls;
  const sampling = request.sampling;
  if (sampling) {
    if (sampling.temperature !== undefined) body.temperature = sampling.temperature;
    if (sampling.topP !== undefined) body.top_p = sampling.topP;
    for (const key of ['topK', 'frequencyPenalty', 'presencePenalty', 'seed', 'logitBias'] as const) {
      if (sampling[key] !== undefined) {
        reportLoss(context, { code: 'dropped-field', path: `sampling.${key}`, message: `Responses has no ${key}`, protocol: PROTOCOL });
      }
    }
  }
  if (request.stop !== undefined && request.stop.length > 0) {
    reportLoss(context, { code: 'dropped-field', path: 'stop', message: 'Responses has no stop sequences', protocol: PROTOCOL });
  }
  if (request.candidateCount !== undefined && request.candidateCount !== 1) {
    reportLoss(context, { code: 'dropped-field', path: 'candidateCount', message: 'Responses returns one answer per request', protocol: PROTOCOL });
  }
  if (request.logprobs?.top !== undefined) body.top_logprobs = request.logprobs.top;
  if (request.reasoning) {
    const reasoning: Record<string, unknown> = {};
    const effort = request.reasoning.effort;
    if (effort === 'max' && !bag?.$maxEffort) {
      // OpenAI's levels end at xhigh; `max` (Claude's top effort) goes as that.
      reasoning.effort = 'xhigh';
      reportLoss(context, { code: 'lossy-conversion', path: 'reasoning.effort', message: 'effort max sent as xhigh', protocol: PROTOCOL });
    } else if (effort !== undefined) reasoning.effort = effort;
    else if (request.reasoning.enabled === false) reasoning.effort = 'none';
    if (request.reasoning.summary !== undefined) reasoning.summary = request.reasoning.summary;
    Object.assign(reasoning, bag?.$reasoning);
    body.reasoning = reasoning;
  }
  const textRest = bag?.$text as Record<string, unknown> | undefined;
  if (request.responseFormat || request.verbosity || textRest) {
    const text: Record<string, unknown> = {};
    const format = request.responseFormat;
    if (format) {
      switch (format.type) {
        case 'text':
          text.format = { type: 'text' };
          break;
        case 'json':
          text.format = { type: 'json_object' };
          break;
        case 'json-schema': {
          const strict = isStrictResponseFormat(format, context);
          const wire: Record<string, unknown> = {
            type: 'json_schema',
            name: format.name ?? 'response',
            schema: strict ? strictResponseSchema(format, context) : format.schema,
          };
          if (format.description !== undefined) wire.description = format.description;
          if (strict) wire.strict = true;
          else if (format.strict !== undefined) wire.strict = format.strict;
          text.format = wire;
          break;
        }
        default: {
          const unreachable: never = format;
          return unreachable;
        }
      }
    }
    if (request.verbosity !== undefined) text.verbosity = request.verbosity;
    Object.assign(text, textRest);
    body.text = text;
  }
  if (request.store !== undefined) body.store = request.store;
  if (request.stream !== undefined) body.stream = request.stream;
  if (request.previousResponseId !== undefined) body.previous_response_id = request.previousResponseId;
  if (request.metadata !== undefined) body.metadata = request.metadata;
  if (request.user !== undefined) body.safety_identifier = request.user;
  if (request.promptCacheKey !== undefined) body.prompt_cache_key = request.promptCacheKey;
  if (request.serviceTier !== undefined) body.service_tier = request.serviceTier;
  // Responses has no breakpoints: every canonical hint is reported, none written.
  reportCacheHints(request, context, PROTOCOL, 'Responses has no cache breakpoints (OpenAI caches prompt prefixes automatically)');
  ext.writeRest(body, request);
  encodeLogprobsInclude(request, body);
  return body as OpenAIResponsesRequest;
}

/**
 * `max_output_tokens`: an output limit from another protocol below the API's floor (Claude
 * Desktop probes a model with `max_tokens: 1`) is raised to it, reported; a Responses client's own
 * value goes back as sent.
 */
function maxOutputTokens(limit: number, clientLimit: unknown, context: CodecContext | undefined): number {
  if (limit >= MIN_MAX_OUTPUT_TOKENS || limit === clientLimit) return limit;
  reportLoss(context, {
    code: 'lossy-conversion',
    path: 'maxOutputTokens',
    message: `an output limit of ${limit} was sent as ${MIN_MAX_OUTPUT_TOKENS}, the least max_output_tokens Responses takes`,
    protocol: PROTOCOL,
  });
  return MIN_MAX_OUTPUT_TOKENS;
}
