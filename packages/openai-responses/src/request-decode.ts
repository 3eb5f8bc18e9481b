import {
  collectUnknown,
  type CodecContext,
  type LlmMessage,
  type LlmReasoningConfig,
  type LlmReasoningEffort,
  type LlmRequest,
  type LlmResponseFormat,
} from '@llm/core';
import type { LiftedTools } from './additional-tools.js';
import { decodeLogprobsInclude } from './logprobs.js';
import { MIN_MAX_OUTPUT_TOKENS, ext, read } from './protocol.js';
import { decodeInput } from './items-decode.js';
import { decodeToolChoice, decodeTools } from './tools-decode.js';

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
  if (request.maxOutputTokens !== undefined && request.maxOutputTokens < MIN_MAX_OUTPUT_TOKENS) bag.$maxOutput = request.maxOutputTokens;
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
    if (effort === 'max') bag.$maxEffort = true;
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
