import type { CodecContext, LlmRequest, LlmTool, LlmToolChoice } from '@llm/core';
import {
  choiceWithoutHostedTools,
  isStrictResponseFormat,
  reportMcpToolDropped,
  isStrictTool,
  joinPath,
  reportLoss,
  strictResponseSchema,
  strictToolParameters,
} from '@llm/core';
import { reportForeignCache } from './cache-control.js';
import { PROTOCOL, ext } from './protocol.js';
import { encodeMessage } from './message-encode.js';
import { encodeWebSearchOptions, keepsEmptyTools } from './web-search-options.js';
import type { OpenAIChatRequest } from './wire-types.js';

const P = PROTOCOL;
type Wire = Record<string, unknown>;

function encodeTool(tool: LlmTool, index: number, context: CodecContext | undefined): Wire | undefined {
  const path = joinPath('tools', index);
  switch (tool.type) {
    case 'function': {
      const fn: Wire = { name: tool.name };
      if (tool.description !== undefined) fn.description = tool.description;
      if (isStrictTool(tool, context)) {
        fn.parameters = strictToolParameters(tool, index, context);
        fn.strict = true;
      } else {
        if (tool.parameters !== undefined) fn.parameters = tool.parameters;
        if (tool.strict !== undefined) fn.strict = tool.strict;
      }
      Object.assign(fn, ext.marker(tool, 'function'));
      reportForeignCache(tool, path, context);
      return { type: 'function', function: fn, ...ext.bag(tool) };
    }
    case 'custom': {
      const custom: Wire = { name: tool.name };
      if (tool.description !== undefined) custom.description = tool.description;
      if (tool.format !== undefined) custom.format = tool.format;
      Object.assign(custom, ext.marker(tool, 'function'));
      return { type: 'custom', custom, ...ext.bag(tool) };
    }
    case 'web_search':
      return undefined; // `web_search_options`, see web-search-options.ts
    case 'code_execution':
      reportLoss(context, { code: 'dropped-tool', path, message: 'openai-chat has no hosted code execution', protocol: P });
      return undefined;
    case 'mcp':
      reportMcpToolDropped(tool, path, P, context);
      return undefined;
    case 'provider':
      reportLoss(context, { code: 'dropped-tool', path, message: `provider tool ${tool.name} (${tool.protocol}) has no openai-chat form`, protocol: P });
      return undefined;
    default: {
      const unreachable: never = tool;
      return unreachable;
    }
  }
}

function named(name: string, tools: LlmTool[] | undefined): Wire {
  const custom = tools?.some((tool) => tool.type === 'custom' && tool.name === name);
  return custom ? { type: 'custom', custom: { name } } : { type: 'function', function: { name } };
}

function encodeToolChoice(choice: LlmToolChoice, tools: LlmTool[] | undefined): unknown {
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'tool':
      return named(choice.name, tools);
    case 'allowed':
      return { type: 'allowed_tools', allowed_tools: { mode: choice.mode, tools: choice.names.map((name) => named(name, tools)) } };
    default: {
      const unreachable: never = choice;
      return unreachable;
    }
  }
}

/**
 * `LlmRequest` -> Chat Completions request body.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function encodeRequest(request: LlmRequest, context?: CodecContext): OpenAIChatRequest {
  const out: Wire = {};
  const bag = ext.bag(request);
  if (bag) for (const key in bag) if (key.charCodeAt(0) !== 36) out[key] = bag[key];
  out.model = request.model;
  const messages: Wire[] = [];
  for (let i = 0; i < request.messages.length; i++) encodeMessage(request.messages[i]!, joinPath('messages', i), messages, context);
  out.messages = messages;
  if (request.maxOutputTokens !== undefined) {
    if (ext.marker(request, 'legacyMax')) out.max_tokens = request.maxOutputTokens;
    else {
      out.max_completion_tokens = request.maxOutputTokens;
      const legacy = ext.marker(request, 'maxTokens');
      if (legacy !== undefined) out.max_tokens = legacy;
    }
  }
  const sampling = request.sampling;
  if (sampling) {
    if (sampling.temperature !== undefined) out.temperature = sampling.temperature;
    if (sampling.topP !== undefined) out.top_p = sampling.topP;
    if (sampling.frequencyPenalty !== undefined) out.frequency_penalty = sampling.frequencyPenalty;
    if (sampling.presencePenalty !== undefined) out.presence_penalty = sampling.presencePenalty;
    if (sampling.seed !== undefined) out.seed = sampling.seed;
    if (sampling.logitBias !== undefined) out.logit_bias = sampling.logitBias;
    if (sampling.topK !== undefined) reportLoss(context, { code: 'dropped-field', path: 'sampling.topK', message: 'openai-chat has no top_k', protocol: P });
  }
  if (request.stop !== undefined) out.stop = ext.marker(request, 'stopString') && request.stop.length === 1 ? request.stop[0] : request.stop;
  if (request.candidateCount !== undefined) out.n = request.candidateCount;
  if (request.logprobs !== undefined) {
    out.logprobs = true;
    if (request.logprobs.top !== undefined) out.top_logprobs = request.logprobs.top;
  }
  if (request.tools !== undefined) {
    const tools: Wire[] = [];
    for (let i = 0; i < request.tools.length; i++) {
      const tool = encodeTool(request.tools[i]!, i, context);
      if (tool) tools.push(tool);
    }
    if (tools.length > 0 || keepsEmptyTools(request.tools)) out.tools = tools;
    const webSearch = encodeWebSearchOptions(request.tools, context);
    if (webSearch) out.web_search_options = webSearch;
  }
  const toolChoice = choiceWithoutHostedTools(request.toolChoice, request.tools, P, context);
  if (toolChoice !== undefined) out.tool_choice = encodeToolChoice(toolChoice, request.tools);
  if (request.parallelToolCalls !== undefined) out.parallel_tool_calls = request.parallelToolCalls;
  const format = request.responseFormat;
  if (format !== undefined) {
    if (format.type === 'text') out.response_format = { type: 'text' };
    else if (format.type === 'json') out.response_format = { type: 'json_object' };
    else {
      const schema: Wire = { name: format.name ?? 'response' };
      if (format.description !== undefined) schema.description = format.description;
      const withSchema = !ext.marker(request, 'noSchema');
      if (withSchema && isStrictResponseFormat(format, context)) {
        schema.schema = strictResponseSchema(format, context);
        schema.strict = true;
      } else {
        if (withSchema) schema.schema = format.schema;
        if (format.strict !== undefined) schema.strict = format.strict;
      }
      out.response_format = { type: 'json_schema', json_schema: schema };
    }
  }
  const reasoning = request.reasoning;
  if (reasoning) {
    const effort = reasoning.effort ?? (reasoning.enabled === false ? 'none' : undefined);
    if (effort === 'max') {
      out.reasoning_effort = 'xhigh';
      reportLoss(context, { code: 'lossy-conversion', path: 'reasoning.effort', message: 'effort max sent as xhigh', protocol: P });
    } else if (effort !== undefined) out.reasoning_effort = effort;
    else if (reasoning.budgetTokens !== undefined) {
      reportLoss(context, { code: 'dropped-field', path: 'reasoning.budgetTokens', message: 'openai-chat takes an effort level, not a budget', protocol: P });
    }
  }
  if (request.verbosity !== undefined) out.verbosity = request.verbosity;
  if (request.stream !== undefined) out.stream = request.stream;
  if (request.streamUsage !== undefined) {
    const options = out.stream_options;
    out.stream_options = { include_usage: request.streamUsage, ...(options && typeof options === 'object' ? options : {}) };
  }
  if (request.metadata !== undefined) out.metadata = request.metadata;
  if (request.store !== undefined) out.store = request.store;
  if (request.serviceTier !== undefined) out.service_tier = request.serviceTier;
  if (request.promptCacheKey !== undefined) out.prompt_cache_key = request.promptCacheKey;
  if (request.user !== undefined) {
    if (ext.marker(request, 'legacyUser')) out.user = request.user;
    else {
      out.safety_identifier = request.user;
      const user = ext.marker(request, 'user');
      if (user !== undefined) out.user = user;
    }
  }
  if (request.maxToolCalls !== undefined)
    reportLoss(context, { code: 'dropped-field', path: 'maxToolCalls', message: 'openai-chat has no max_tool_calls', protocol: P });
  if (request.previousResponseId !== undefined)
    reportLoss(context, { code: 'dropped-field', path: 'previousResponseId', message: 'openai-chat is stateless', protocol: P });
  return out as OpenAIChatRequest;
}
