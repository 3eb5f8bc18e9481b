import type { LlmRequest, LlmSampling, LlmTool, LlmToolChoice } from '@llm/core';
import { REASONING_EFFORTS, joinPath } from '@llm/core';
import { decodeCacheControl } from './cache-control.js';
import { ext, read } from './protocol.js';
import { decodeWebSearchOptions } from './web-search-options.js';
import { decodeMessage } from './message-decode.js';

const KNOWN = new Set([
  'model',
  'messages',
  'max_completion_tokens',
  'max_tokens',
  'temperature',
  'top_p',
  'frequency_penalty',
  'presence_penalty',
  'seed',
  'logit_bias',
  'stop',
  'n',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'reasoning_effort',
  'verbosity',
  'stream',
  'metadata',
  'store',
  'service_tier',
  'prompt_cache_key',
  'safety_identifier',
  'user',
]);
const STREAM_OPTION_KEYS = new Set(['include_usage']);
const FUNCTION_TOOL_KEYS = new Set(['type', 'function']);
const CUSTOM_TOOL_KEYS = new Set(['type', 'custom']);
const FUNCTION_KEYS = new Set(['name', 'description', 'parameters', 'strict']);
const CUSTOM_KEYS = new Set(['name', 'description', 'format']);

function decodeTool(holder: readonly unknown[], index: number, parent: string): LlmTool {
  const wire = read.object(holder, index, parent);
  const path = joinPath(parent, index);
  if (wire.type === 'function') {
    const fn = read.object(wire, 'function', path);
    const inner = joinPath(path, 'function');
    const tool: LlmTool = { type: 'function', name: read.string(fn, 'name', inner) };
    const description = read.optionalString(fn, 'description', inner);
    if (description !== undefined) tool.description = description;
    const parameters = read.optionalObject(fn, 'parameters', inner);
    if (parameters) tool.parameters = parameters;
    const strict = read.optionalBoolean(fn, 'strict', inner);
    if (strict !== undefined) tool.strict = strict;
    decodeCacheControl(wire, tool);
    ext.keep(tool, ext.rest(wire, FUNCTION_TOOL_KEYS));
    const rest = ext.rest(fn, FUNCTION_KEYS);
    if (rest) ext.mark(tool, 'function', rest);
    return tool;
  }
  if (wire.type === 'custom') {
    const custom = read.object(wire, 'custom', path);
    const inner = joinPath(path, 'custom');
    const tool: LlmTool = { type: 'custom', name: read.string(custom, 'name', inner) };
    const description = read.optionalString(custom, 'description', inner);
    if (description !== undefined) tool.description = description;
    if (custom.format !== undefined) tool.format = custom.format;
    ext.keep(tool, ext.rest(wire, CUSTOM_TOOL_KEYS));
    const rest = ext.rest(custom, CUSTOM_KEYS);
    if (rest) ext.mark(tool, 'function', rest);
    return tool;
  }
  return read.invalid(wire, 'type', path, '"function" or "custom"');
}

function namedTool(wire: Record<string, unknown>, path: string): string {
  const key = wire.type === 'custom' ? 'custom' : 'function';
  if (wire.type !== 'custom' && wire.type !== 'function') read.invalid(wire, 'type', path, '"function" or "custom"');
  return read.string(read.object(wire, key, path), 'name', joinPath(path, key));
}

/** `tool_choice` in all its forms. @see https://platform.openai.com/docs/api-reference/chat/create */
function decodeToolChoice(body: Record<string, unknown>): LlmToolChoice {
  const value = body.tool_choice;
  if (value === 'none' || value === 'auto' || value === 'required') return { type: value };
  const wire = read.object(body, 'tool_choice', '');
  if (wire.type === 'allowed_tools') {
    const allowed = read.object(wire, 'allowed_tools', 'tool_choice');
    const path = 'tool_choice.allowed_tools';
    const mode = allowed.mode;
    if (mode !== 'auto' && mode !== 'required') return read.invalid(allowed, 'mode', path, '"auto" or "required"');
    const tools = read.array(allowed, 'tools', path);
    const names = tools.map((_, i) => namedTool(read.object(tools, i, `${path}.tools`), joinPath(`${path}.tools`, i)));
    return { type: 'allowed', names, mode };
  }
  return { type: 'tool', name: namedTool(wire, 'tool_choice') };
}

/**
 * A Chat Completions request body -> `LlmRequest`.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function decodeRequest(body: unknown): LlmRequest {
  const wire = read.body(body);
  const messages = read.array(wire, 'messages', '');
  const request: LlmRequest = { model: read.string(wire, 'model', ''), messages: new Array(messages.length) };
  for (let i = 0; i < messages.length; i++) request.messages[i] = decodeMessage(messages, i, 'messages');

  const maxCompletion = read.optionalInteger(wire, 'max_completion_tokens', '');
  const maxTokens = read.optionalInteger(wire, 'max_tokens', '');
  if (maxCompletion !== undefined) {
    request.maxOutputTokens = maxCompletion;
    if (maxTokens !== undefined) ext.mark(request, 'maxTokens', maxTokens);
  } else if (maxTokens !== undefined) {
    request.maxOutputTokens = maxTokens;
    ext.mark(request, 'legacyMax', true);
  }
  let sampling: LlmSampling | undefined;
  const temperature = read.optionalNumber(wire, 'temperature', '');
  if (temperature !== undefined) (sampling ??= {}).temperature = temperature;
  const topP = read.optionalNumber(wire, 'top_p', '');
  if (topP !== undefined) (sampling ??= {}).topP = topP;
  const frequency = read.optionalNumber(wire, 'frequency_penalty', '');
  if (frequency !== undefined) (sampling ??= {}).frequencyPenalty = frequency;
  const presence = read.optionalNumber(wire, 'presence_penalty', '');
  if (presence !== undefined) (sampling ??= {}).presencePenalty = presence;
  const seed = read.optionalNumber(wire, 'seed', '');
  if (seed !== undefined) (sampling ??= {}).seed = seed;
  if (wire.logit_bias !== undefined && wire.logit_bias !== null) {
    (sampling ??= {}).logitBias = read.object(wire, 'logit_bias', '') as Record<string, number>;
  }
  if (sampling) request.sampling = sampling;

  const stop = wire.stop;
  if (typeof stop === 'string') {
    request.stop = [stop];
    ext.mark(request, 'stopString', true);
  } else if (stop !== undefined && stop !== null) {
    const items = read.array(wire, 'stop', '');
    request.stop = items.map((item, i) => (typeof item === 'string' ? item : read.invalid(items, i, 'stop', 'a string')));
  }
  const n = read.optionalInteger(wire, 'n', '');
  if (n !== undefined) request.candidateCount = n;
  if (wire.logprobs === true) {
    const top = read.optionalInteger(wire, 'top_logprobs', '');
    request.logprobs = top === undefined ? {} : { top };
  }
  if (wire.tools !== undefined && wire.tools !== null) {
    const tools = read.array(wire, 'tools', '');
    request.tools = tools.map((_, i) => decodeTool(tools, i, 'tools'));
  }
  const webSearch = decodeWebSearchOptions(wire.web_search_options, request.tools !== undefined);
  if (webSearch) (request.tools ??= []).push(webSearch);
  if (wire.tool_choice !== undefined && wire.tool_choice !== null) request.toolChoice = decodeToolChoice(wire);
  const parallel = read.optionalBoolean(wire, 'parallel_tool_calls', '');
  if (parallel !== undefined) request.parallelToolCalls = parallel;

  const format = wire.response_format;
  if (format !== undefined && format !== null) {
    const object = read.object(wire, 'response_format', '');
    if (object.type === 'text') request.responseFormat = { type: 'text' };
    else if (object.type === 'json_object') request.responseFormat = { type: 'json' };
    else if (object.type === 'json_schema') {
      const schema = read.object(object, 'json_schema', 'response_format');
      const path = 'response_format.json_schema';
      const result: LlmRequest['responseFormat'] = {
        type: 'json-schema',
        name: read.string(schema, 'name', path),
        schema: schema.schema === undefined ? {} : read.object(schema, 'schema', path),
      };
      const description = read.optionalString(schema, 'description', path);
      if (description !== undefined) result.description = description;
      const strict = read.optionalBoolean(schema, 'strict', path);
      if (strict !== undefined) result.strict = strict;
      if (schema.schema === undefined) ext.mark(request, 'noSchema', true);
      request.responseFormat = result;
    } else read.invalid(object, 'type', 'response_format', '"text", "json_object" or "json_schema"');
  }
  const effort = read.optionalString(wire, 'reasoning_effort', '');
  if (effort !== undefined) {
    if (!(REASONING_EFFORTS as readonly string[]).includes(effort)) read.invalid(wire, 'reasoning_effort', '', 'a reasoning effort');
    request.reasoning = { effort: effort as (typeof REASONING_EFFORTS)[number] };
  }
  const verbosity = read.optionalString(wire, 'verbosity', '');
  if (verbosity !== undefined) {
    if (verbosity !== 'low' && verbosity !== 'medium' && verbosity !== 'high') read.invalid(wire, 'verbosity', '', '"low", "medium" or "high"');
    request.verbosity = verbosity;
  }
  const stream = read.optionalBoolean(wire, 'stream', '');
  if (stream !== undefined) request.stream = stream;
  const options = wire.stream_options;
  let otherOptions: Record<string, unknown> | undefined;
  if (options !== undefined && options !== null) {
    const object = read.object(wire, 'stream_options', '');
    const include = read.optionalBoolean(object, 'include_usage', 'stream_options');
    if (include !== undefined) {
      request.streamUsage = include;
      otherOptions = ext.rest(object, STREAM_OPTION_KEYS);
    } else otherOptions = object;
  }
  if (wire.metadata !== undefined && wire.metadata !== null) {
    request.metadata = read.object(wire, 'metadata', '') as Record<string, string>;
  }
  const store = read.optionalBoolean(wire, 'store', '');
  if (store !== undefined) request.store = store;
  const tier = read.optionalString(wire, 'service_tier', '');
  if (tier !== undefined) request.serviceTier = tier;
  const cacheKey = read.optionalString(wire, 'prompt_cache_key', '');
  if (cacheKey !== undefined) request.promptCacheKey = cacheKey;
  const safety = read.optionalString(wire, 'safety_identifier', '');
  const user = read.optionalString(wire, 'user', '');
  if (safety !== undefined) {
    request.user = safety;
    if (user !== undefined) ext.mark(request, 'user', user);
  } else if (user !== undefined) {
    request.user = user;
    ext.mark(request, 'legacyUser', true);
  }
  // Everything not modelled (stream_options, logprobs false, modalities, audio, prediction, ...)
  // travels in the extension bag.
  const rest = ext.rest(wire, KNOWN);
  if (rest) {
    // Modelled parts of `logprobs` / `stream_options` live in canonical fields only, so a router
    // that clears them is not overridden by the bag.
    if (wire.logprobs === true) {
      delete rest.logprobs;
      if (typeof wire.top_logprobs === 'number') delete rest.top_logprobs;
    }
    if (webSearch) delete rest.web_search_options;
    if (otherOptions) rest.stream_options = otherOptions;
    else if (options !== undefined && options !== null) delete rest.stream_options;
    if (Object.keys(rest).length > 0) ext.keep(request, rest);
  }
  return request;
}
