import {
  collectUnknown,
  isStrictResponseFormat,
  reportCacheHints,
  reportLoss,
  strictResponseSchema,
  type CodecContext,
  type LlmMessage,
  type LlmReasoningConfig,
  type LlmReasoningEffort,
  type LlmRequest,
  type LlmResponseFormat,
} from '@llm/core';
import { type AdditionalToolsItem, isLifted, rebuildAdditionalTools, type LiftedTools } from './additional-tools.js';
import { decodeLogprobsInclude, encodeLogprobsInclude } from './logprobs.js';
import { PROTOCOL, ext, read } from './protocol.js';
import { decodeInput } from './items-decode.js';
import { encodeMessages } from './items-encode.js';
import { decodeToolChoice, decodeTools, encodeToolChoice, encodeTools } from './tools.js';
import type { OpenAIResponsesRequest } from './wire-types.js';

const KNOWN = new Set([
  'model',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_output_tokens',
  'max_tool_calls',
  'temperature',
  'top_p',
  'top_logprobs',
  'reasoning',
  'text',
  'store',
  'previous_response_id',
  'metadata',
  'safety_identifier',
  'prompt_cache_key',
  'service_tier',
  'stream',
]);
const EFFORTS = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);
const SUMMARIES = new Set(['auto', 'concise', 'detailed', 'none']);
const VERBOSITIES = new Set(['low', 'medium', 'high']);

/**
 * A `POST /v1/responses` body -> canonical request. `instructions` becomes a leading system
 * message; `input` items become messages (see items-decode.ts). Fields without a canonical home
 * (`include`, `truncation`, `conversation`, `background`, `stream_options`, `user`, ...) stay in
 * the extensions bag.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export function decodeRequest(wire: unknown, _context?: CodecContext): LlmRequest {
  const body = read.body(wire);
  const messages: LlmMessage[] = [];
  const bag: Record<string, unknown> = collectUnknown(body, KNOWN) ?? {};
  const instructions = read.optionalString(body, 'instructions', '');
  if (instructions !== undefined) messages.push({ role: 'system', content: [{ type: 'text', text: instructions }] });
  else if (body.instructions === null) bag.instructions = null;
  const lifted: LiftedTools = { tools: [], items: [] };
  if (body.input !== undefined) decodeInput(body, messages, lifted);
  else bag.$noInput = true;
  const request: LlmRequest = { model: read.optionalString(body, 'model', '') ?? '', messages };
  if (body.model === undefined) bag.$noModel = true;
  if (body.tools !== undefined) request.tools = decodeTools(body, '');
  if (lifted.items.length > 0) {
    if (body.tools === undefined) bag.$noTools = true;
    request.tools = [...(request.tools ?? []), ...lifted.tools];
    bag.$additionalTools = lifted.items;
  }
  if (body.tool_choice !== undefined) {
    const choice = decodeToolChoice(body);
    if (choice) request.toolChoice = choice;
    else bag.tool_choice = body.tool_choice;
  }
  copyNullable(body, bag, request, 'parallel_tool_calls', 'parallelToolCalls', read.optionalBoolean);
  copyNullable(body, bag, request, 'max_output_tokens', 'maxOutputTokens', read.optionalInteger);
  copyNullable(body, bag, request, 'max_tool_calls', 'maxToolCalls', read.optionalInteger);
  copyNullable(body, bag, request, 'store', 'store', read.optionalBoolean);
  copyNullable(body, bag, request, 'stream', 'stream', read.optionalBoolean);
  copyNullable(body, bag, request, 'previous_response_id', 'previousResponseId', read.optionalString);
  copyNullable(body, bag, request, 'safety_identifier', 'user', read.optionalString);
  copyNullable(body, bag, request, 'prompt_cache_key', 'promptCacheKey', read.optionalString);
  copyNullable(body, bag, request, 'service_tier', 'serviceTier', read.optionalString);
  const temperature = read.optionalNumber(body, 'temperature', '');
  const topP = read.optionalNumber(body, 'top_p', '');
  if (temperature !== undefined || topP !== undefined) {
    request.sampling = {};
    if (temperature !== undefined) request.sampling.temperature = temperature;
    if (topP !== undefined) request.sampling.topP = topP;
  }
  if (body.temperature === null) bag.temperature = null;
  if (body.top_p === null) bag.top_p = null;
  const top = read.optionalInteger(body, 'top_logprobs', '');
  if (top !== undefined) request.logprobs = { top };
  else if (body.top_logprobs === null) bag.top_logprobs = null;
  decodeLogprobsInclude(request, bag);
  if (body.metadata !== undefined && body.metadata !== null) {
    const metadata = read.object(body, 'metadata', '');
    for (const key in metadata) if (typeof metadata[key] !== 'string') read.invalid(metadata, key, 'metadata', 'a string');
    request.metadata = metadata as Record<string, string>;
  } else if (body.metadata === null) bag.metadata = null;
  if (body.reasoning !== undefined && body.reasoning !== null) decodeReasoningConfig(body, request, bag);
  else if (body.reasoning === null) bag.reasoning = null;
  if (body.text !== undefined && body.text !== null) decodeTextConfig(body, request, bag);
  else if (body.text === null) bag.text = null;
  ext.keep(request, bag);
  return request;
}

type Reader<T> = (holder: Record<string, unknown>, key: string, parent: string) => T | undefined;

function copyNullable<K extends keyof LlmRequest, T extends LlmRequest[K]>(
  body: Record<string, unknown>,
  bag: Record<string, unknown>,
  request: LlmRequest,
  key: string,
  field: K,
  readValue: Reader<T>,
): void {
  const value = readValue(body, key, '');
  if (value !== undefined) request[field] = value as LlmRequest[K];
  else if (body[key] === null) bag[key] = null;
}

function decodeReasoningConfig(body: Record<string, unknown>, request: LlmRequest, bag: Record<string, unknown>): void {
  const reasoning = read.object(body, 'reasoning', '');
  const config: LlmReasoningConfig = {};
  const rest: Record<string, unknown> = collectUnknown(reasoning, new Set(['effort', 'summary'])) ?? {};
  const effort = read.optionalString(reasoning, 'effort', 'reasoning');
  if (effort !== undefined) {
    if (!EFFORTS.has(effort)) read.invalid(reasoning, 'effort', 'reasoning', 'a reasoning effort');
    config.effort = effort as LlmReasoningEffort;
  } else if (reasoning.effort === null) rest.effort = null;
  const summary = read.optionalString(reasoning, 'summary', 'reasoning');
  if (summary !== undefined) {
    if (!SUMMARIES.has(summary)) read.invalid(reasoning, 'summary', 'reasoning', '"auto", "concise" or "detailed"');
    config.summary = summary as NonNullable<LlmReasoningConfig['summary']>;
  } else if (reasoning.summary === null) rest.summary = null;
  request.reasoning = config;
  if (Object.keys(rest).length > 0) bag.$reasoning = rest;
}

function decodeTextConfig(body: Record<string, unknown>, request: LlmRequest, bag: Record<string, unknown>): void {
  const text = read.object(body, 'text', '');
  const rest: Record<string, unknown> = collectUnknown(text, new Set(['format', 'verbosity'])) ?? {};
  const verbosity = read.optionalString(text, 'verbosity', 'text');
  if (verbosity !== undefined) {
    if (!VERBOSITIES.has(verbosity)) read.invalid(text, 'verbosity', 'text', '"low", "medium" or "high"');
    request.verbosity = verbosity as NonNullable<LlmRequest['verbosity']>;
  } else if (text.verbosity === null) rest.verbosity = null;
  if (text.format !== undefined) {
    const format = read.object(text, 'format', 'text');
    const type = read.string(format, 'type', 'text.format');
    let decoded: LlmResponseFormat | undefined;
    if (type === 'text' && Object.keys(format).length === 1) decoded = { type: 'text' };
    else if (type === 'json_object' && Object.keys(format).length === 1) decoded = { type: 'json' };
    else if (type === 'json_schema') {
      const schema = read.object(format, 'schema', 'text.format');
      const known = new Set(['type', 'schema', 'name', 'description', 'strict']);
      if (!collectUnknown(format, known)) {
        const out: Extract<LlmResponseFormat, { type: 'json-schema' }> = { type: 'json-schema', schema };
        const name = read.optionalString(format, 'name', 'text.format');
        if (name !== undefined) out.name = name;
        const description = read.optionalString(format, 'description', 'text.format');
        if (description !== undefined) out.description = description;
        const strict = read.optionalBoolean(format, 'strict', 'text.format');
        if (strict !== undefined) out.strict = strict;
        if (format.strict === null || format.description === null || format.name === null) decoded = undefined;
        else decoded = out;
      }
    }
    if (decoded) request.responseFormat = decoded;
    else rest.format = format;
  }
  if (Object.keys(rest).length > 0 || (request.verbosity === undefined && request.responseFormat === undefined)) bag.$text = rest;
}

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
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
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
    if (request.reasoning.effort !== undefined) reasoning.effort = request.reasoning.effort;
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
          const wire: Record<string, unknown> = { type: 'json_schema', name: format.name ?? 'response', schema: strict ? strictResponseSchema(format, context) : format.schema };
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
