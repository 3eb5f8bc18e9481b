import type { LlmRequest, LlmSampling, LlmTool, LlmToolChoice } from '@llm/core';
import {
  REASONING_EFFORTS,
  invalid,
  joinPath,
  readArray,
  readObject,
  readOptionalBoolean,
  readOptionalInteger,
  readOptionalNumber,
  readOptionalString,
  readString,
  setExtensions,
} from '@llm/core';
import { decodeCacheControl } from './cache-control.js';
import { PROTOCOL, collectRest, mark } from './internal.js';
import { decodeWebSearchOptions } from './web-search-options.js';
import { decodeMessage } from './message-decode.js';

const P = PROTOCOL;
const KNOWN = new Set([
  'model', 'messages', 'max_completion_tokens', 'max_tokens', 'temperature', 'top_p', 'frequency_penalty',
  'presence_penalty', 'seed', 'logit_bias', 'stop', 'n', 'tools', 'tool_choice', 'parallel_tool_calls',
  'response_format', 'reasoning_effort', 'verbosity', 'stream', 'metadata', 'store', 'service_tier',
  'prompt_cache_key', 'safety_identifier', 'user',
]);
const STREAM_OPTION_KEYS = new Set(['include_usage']);
const FUNCTION_TOOL_KEYS = new Set(['type', 'function']);
const CUSTOM_TOOL_KEYS = new Set(['type', 'custom']);
const FUNCTION_KEYS = new Set(['name', 'description', 'parameters', 'strict']);
const CUSTOM_KEYS = new Set(['name', 'description', 'format']);

function decodeTool(value: unknown, parent: string, index: number): LlmTool {
  const wire = readObject(value, parent, index, P);
  const path = joinPath(parent, index);
  if (wire.type === 'function') {
    const fn = readObject(wire.function, path, 'function', P);
    const inner = joinPath(path, 'function');
    const tool: LlmTool = { type: 'function', name: readString(fn, 'name', inner, P) };
    const description = readOptionalString(fn, 'description', inner, P);
    if (description !== undefined) tool.description = description;
    if (fn.parameters !== undefined && fn.parameters !== null) tool.parameters = readObject(fn.parameters, inner, 'parameters', P);
    const strict = readOptionalBoolean(fn, 'strict', inner, P);
    if (strict !== undefined) tool.strict = strict;
    decodeCacheControl(wire, tool);
    setExtensions(tool, P, collectRest(wire, FUNCTION_TOOL_KEYS));
    const rest = collectRest(fn, FUNCTION_KEYS);
    if (rest) mark(tool, 'function', rest);
    return tool;
  }
  if (wire.type === 'custom') {
    const custom = readObject(wire.custom, path, 'custom', P);
    const inner = joinPath(path, 'custom');
    const tool: LlmTool = { type: 'custom', name: readString(custom, 'name', inner, P) };
    const description = readOptionalString(custom, 'description', inner, P);
    if (description !== undefined) tool.description = description;
    if (custom.format !== undefined) tool.format = custom.format;
    setExtensions(tool, P, collectRest(wire, CUSTOM_TOOL_KEYS));
    const rest = collectRest(custom, CUSTOM_KEYS);
    if (rest) mark(tool, 'function', rest);
    return tool;
  }
  return invalid(path, 'type', '"function" or "custom"', wire.type, P);
}

function namedTool(wire: Record<string, unknown>, path: string): string {
  const key = wire.type === 'custom' ? 'custom' : 'function';
  if (wire.type !== 'custom' && wire.type !== 'function') invalid(path, 'type', '"function" or "custom"', wire.type, P);
  return readString(readObject(wire[key], path, key, P), 'name', joinPath(path, key), P);
}

/** `tool_choice` in all its forms. @see https://platform.openai.com/docs/api-reference/chat/create */
function decodeToolChoice(value: unknown): LlmToolChoice {
  if (value === 'none' || value === 'auto' || value === 'required') return { type: value };
  const wire = readObject(value, '', 'tool_choice', P);
  if (wire.type === 'allowed_tools') {
    const allowed = readObject(wire.allowed_tools, 'tool_choice', 'allowed_tools', P);
    const path = 'tool_choice.allowed_tools';
    const mode = allowed.mode;
    if (mode !== 'auto' && mode !== 'required') return invalid(path, 'mode', '"auto" or "required"', mode, P);
    const tools = readArray(allowed.tools, path, 'tools', P);
    const names = tools.map((tool, i) => namedTool(readObject(tool, `${path}.tools`, i, P), joinPath(`${path}.tools`, i)));
    return { type: 'allowed', names, mode };
  }
  return { type: 'tool', name: namedTool(wire, 'tool_choice') };
}

/**
 * A Chat Completions request body -> `LlmRequest`.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function decodeRequest(body: unknown): LlmRequest {
  const wire = readObject(body, '', undefined, P);
  const messages = readArray(wire.messages, '', 'messages', P);
  const request: LlmRequest = { model: readString(wire, 'model', '', P), messages: new Array(messages.length) };
  for (let i = 0; i < messages.length; i++) request.messages[i] = decodeMessage(messages[i], 'messages', i);

  const maxCompletion = readOptionalInteger(wire, 'max_completion_tokens', '', P);
  const maxTokens = readOptionalInteger(wire, 'max_tokens', '', P);
  if (maxCompletion !== undefined) {
    request.maxOutputTokens = maxCompletion;
    if (maxTokens !== undefined) mark(request, 'maxTokens', maxTokens);
  } else if (maxTokens !== undefined) {
    request.maxOutputTokens = maxTokens;
    mark(request, 'legacyMax', true);
  }
  let sampling: LlmSampling | undefined;
  const temperature = readOptionalNumber(wire, 'temperature', '', P);
  if (temperature !== undefined) (sampling ??= {}).temperature = temperature;
  const topP = readOptionalNumber(wire, 'top_p', '', P);
  if (topP !== undefined) (sampling ??= {}).topP = topP;
  const frequency = readOptionalNumber(wire, 'frequency_penalty', '', P);
  if (frequency !== undefined) (sampling ??= {}).frequencyPenalty = frequency;
  const presence = readOptionalNumber(wire, 'presence_penalty', '', P);
  if (presence !== undefined) (sampling ??= {}).presencePenalty = presence;
  const seed = readOptionalNumber(wire, 'seed', '', P);
  if (seed !== undefined) (sampling ??= {}).seed = seed;
  if (wire.logit_bias !== undefined && wire.logit_bias !== null) {
    (sampling ??= {}).logitBias = readObject(wire.logit_bias, '', 'logit_bias', P) as Record<string, number>;
  }
  if (sampling) request.sampling = sampling;

  const stop = wire.stop;
  if (typeof stop === 'string') {
    request.stop = [stop];
    mark(request, 'stopString', true);
  } else if (stop !== undefined && stop !== null) {
    const items = readArray(stop, '', 'stop', P);
    request.stop = items.map((item, i) => (typeof item === 'string' ? item : invalid('stop', i, 'a string', item, P)));
  }
  const n = readOptionalInteger(wire, 'n', '', P);
  if (n !== undefined) request.candidateCount = n;
  if (wire.logprobs === true) {
    const top = readOptionalInteger(wire, 'top_logprobs', '', P);
    request.logprobs = top === undefined ? {} : { top };
  }
  if (wire.tools !== undefined && wire.tools !== null) {
    const tools = readArray(wire.tools, '', 'tools', P);
    request.tools = tools.map((tool, i) => decodeTool(tool, 'tools', i));
  }
  const webSearch = decodeWebSearchOptions(wire.web_search_options, request.tools !== undefined);
  if (webSearch) (request.tools ??= []).push(webSearch);
  if (wire.tool_choice !== undefined && wire.tool_choice !== null) request.toolChoice = decodeToolChoice(wire.tool_choice);
  const parallel = readOptionalBoolean(wire, 'parallel_tool_calls', '', P);
  if (parallel !== undefined) request.parallelToolCalls = parallel;

  const format = wire.response_format;
  if (format !== undefined && format !== null) {
    const object = readObject(format, '', 'response_format', P);
    if (object.type === 'text') request.responseFormat = { type: 'text' };
    else if (object.type === 'json_object') request.responseFormat = { type: 'json' };
    else if (object.type === 'json_schema') {
      const schema = readObject(object.json_schema, 'response_format', 'json_schema', P);
      const path = 'response_format.json_schema';
      const result: LlmRequest['responseFormat'] = {
        type: 'json-schema',
        name: readString(schema, 'name', path, P),
        schema: schema.schema === undefined ? {} : readObject(schema.schema, path, 'schema', P),
      };
      const description = readOptionalString(schema, 'description', path, P);
      if (description !== undefined) result.description = description;
      const strict = readOptionalBoolean(schema, 'strict', path, P);
      if (strict !== undefined) result.strict = strict;
      if (schema.schema === undefined) mark(request, 'noSchema', true);
      request.responseFormat = result;
    } else invalid('response_format', 'type', '"text", "json_object" or "json_schema"', object.type, P);
  }
  const effort = readOptionalString(wire, 'reasoning_effort', '', P);
  if (effort !== undefined) {
    if (!(REASONING_EFFORTS as readonly string[]).includes(effort)) invalid('', 'reasoning_effort', 'a reasoning effort', effort, P);
    request.reasoning = { effort: effort as (typeof REASONING_EFFORTS)[number] };
  }
  const verbosity = readOptionalString(wire, 'verbosity', '', P);
  if (verbosity !== undefined) {
    if (verbosity !== 'low' && verbosity !== 'medium' && verbosity !== 'high') invalid('', 'verbosity', '"low", "medium" or "high"', verbosity, P);
    request.verbosity = verbosity;
  }
  const stream = readOptionalBoolean(wire, 'stream', '', P);
  if (stream !== undefined) request.stream = stream;
  const options = wire.stream_options;
  let otherOptions: Record<string, unknown> | undefined;
  if (options !== undefined && options !== null) {
    const object = readObject(options, '', 'stream_options', P);
    const include = readOptionalBoolean(object, 'include_usage', 'stream_options', P);
    if (include !== undefined) {
      request.streamUsage = include;
      otherOptions = collectRest(object, STREAM_OPTION_KEYS);
    } else otherOptions = object;
  }
  if (wire.metadata !== undefined && wire.metadata !== null) {
    request.metadata = readObject(wire.metadata, '', 'metadata', P) as Record<string, string>;
  }
  const store = readOptionalBoolean(wire, 'store', '', P);
  if (store !== undefined) request.store = store;
  const tier = readOptionalString(wire, 'service_tier', '', P);
  if (tier !== undefined) request.serviceTier = tier;
  const cacheKey = readOptionalString(wire, 'prompt_cache_key', '', P);
  if (cacheKey !== undefined) request.promptCacheKey = cacheKey;
  const safety = readOptionalString(wire, 'safety_identifier', '', P);
  const user = readOptionalString(wire, 'user', '', P);
  if (safety !== undefined) {
    request.user = safety;
    if (user !== undefined) mark(request, 'user', user);
  } else if (user !== undefined) {
    request.user = user;
    mark(request, 'legacyUser', true);
  }
  // Everything not modelled (stream_options, logprobs false, modalities, audio, prediction, ...)
  // travels in the extension bag.
  const rest = collectRest(wire, KNOWN);
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
    if (Object.keys(rest).length > 0) setExtensions(request, P, rest);
  }
  return request;
}
