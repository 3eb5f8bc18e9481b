import type { CodecContext, LlmMessage, LlmReasoningConfig, LlmRequest, LlmSystemMessage, LlmTextPart, LlmToolChoice, LlmUserMessage } from '@llm/core';
import { cacheHintToWire, LlmError, anthropicThinking, reportLoss } from '@llm/core';
import { PartPath } from '@llm/core/kit';
import { encodePart, encodeParts, toolResultBlock, type EncodePartOptions } from './blocks-encode.js';
import { limitCacheBreakpoints } from './cache-breakpoints.js';
import { fitToClaudeBounds } from './sampling-bounds.js';
import { PROTOCOL, ext } from './protocol.js';
import { encodeMcpServer, type EncodedMcpServer } from './mcp-servers.js';
import { encodeTool, encodeToolChoice } from './tools-encode.js';
import type { ClaudeRequest } from './wire-types.js';

/**
 * `max_tokens` written when the source request has no output limit (Claude requires one).
 * With a thinking budget of this size or more, the default is `budget_tokens + DEFAULT_MAX_TOKENS`
 * so that the answer has room after the thinking.
 */
export const DEFAULT_MAX_TOKENS = 4096;

type Wire = Record<string, unknown>;

/** Canonical request -> request body. */
export function encodeRequest(request: LlmRequest, context?: CodecContext): ClaudeRequest {
  const out: Wire = { model: request.model };
  const own = ext.bag(request);
  const options: EncodePartOptions = { context, model: request.model };
  const messages = request.messages;

  let maxTokens = request.maxOutputTokens;
  if (maxTokens === undefined) {
    const budget = request.reasoning?.budgetTokens ?? 0;
    maxTokens = budget >= DEFAULT_MAX_TOKENS ? budget + DEFAULT_MAX_TOKENS : DEFAULT_MAX_TOKENS;
    reportLoss(context, {
      code: 'defaulted',
      path: 'max_tokens',
      message: `Claude requires max_tokens; ${maxTokens} was used`,
      protocol: PROTOCOL,
    });
  }
  out.max_tokens = maxTokens;

  let start = 0;
  while (start < messages.length && messages[start]!.role === 'system') start++;
  if (start > 0) out.system = encodeSystem(messages.slice(0, start) as LlmSystemMessage[], options);
  out.messages = encodeMessages(messages, start, options);

  if (request.stop !== undefined) out.stop_sequences = request.stop;
  if (request.stream !== undefined) out.stream = request.stream;
  const sampling = request.sampling;
  if (sampling) {
    if (sampling.temperature !== undefined) out.temperature = sampling.temperature;
    if (sampling.topP !== undefined) out.top_p = sampling.topP;
    if (sampling.topK !== undefined) out.top_k = sampling.topK;
    for (const key of ['frequencyPenalty', 'presencePenalty', 'seed', 'logitBias'] as const) {
      if (sampling[key] !== undefined) {
        reportLoss(context, { code: 'dropped-field', path: `sampling.${key}`, message: `Claude has no ${key}`, protocol: PROTOCOL });
      }
    }
  }

  const reasoning = request.reasoning;
  const outputConfig: Wire = {};
  if (reasoning) encodeReasoning(reasoning, out, outputConfig, maxTokens, own?.$budget, context);
  const format = request.responseFormat;
  if (format?.type === 'json-schema') {
    outputConfig.format = { type: 'json_schema', schema: format.schema };
    if (format.name !== undefined && own === undefined) {
      reportLoss(context, { code: 'dropped-field', path: 'responseFormat.name', message: 'Claude structured output has no schema name', protocol: PROTOCOL });
    }
  } else if (format?.type === 'json') {
    reportLoss(context, { code: 'dropped-field', path: 'responseFormat', message: 'Claude has no JSON mode without a schema', protocol: PROTOCOL });
  }
  const configExt = own?.$output_config as Wire | undefined;
  if (configExt) Object.assign(outputConfig, configExt);
  let hasConfig = configExt !== undefined;
  for (const _ in outputConfig) hasConfig = true;
  if (hasConfig) out.output_config = outputConfig;

  const { wire: toolChoice, only } = encodeToolChoice(mcpChoice(request, context), request.parallelToolCalls);
  if (request.tools) {
    const tools: Wire[] = [];
    const servers: EncodedMcpServer[] = [];
    for (let index = 0; index < request.tools.length; index++) {
      const tool = request.tools[index]!;
      if (only && !only.has(tool.name)) continue;
      if (tool.type === 'mcp') {
        const encoded = encodeMcpServer(tool, index, context);
        if (encoded.server) servers.push(encoded);
        if (encoded.toolset) tools.push(encoded.toolset);
        continue;
      }
      const encoded = encodeTool(tool, index, context);
      if (encoded) tools.push(encoded);
    }
    // Servers of the deprecated form have no toolset: a request of only those had no tools.
    if (tools.length > 0 || servers.length < request.tools.length) out.tools = tools;
    if (servers.length > 0) out.mcp_servers = servers.sort((a, b) => a.order - b.order).map((encoded) => encoded.server);
  }
  if (toolChoice) out.tool_choice = toolChoice;

  const metadataExt = own?.$metadata as Wire | undefined;
  if (request.user !== undefined || metadataExt) out.metadata = { ...metadataExt, ...(request.user !== undefined ? { user_id: request.user } : {}) };
  if (request.metadata) {
    reportLoss(context, { code: 'dropped-field', path: 'metadata', message: 'Claude metadata holds only user_id', protocol: PROTOCOL });
  }
  if (request.cache) out.cache_control = cacheHintToWire(request.cache);
  if (request.serviceTier !== undefined) out.service_tier = request.serviceTier;
  reportUnmapped(request, context);
  ext.writeRest(out, request);
  limitCacheBreakpoints(out, context);
  if (!own?.$asSent) fitToClaudeBounds(out, context);
  return out as ClaudeRequest;
}

function encodeReasoning(
  reasoning: LlmReasoningConfig,
  out: Wire,
  outputConfig: Wire,
  maxTokens: number,
  clientBudget: unknown,
  context: CodecContext | undefined,
): void {
  let thinking: Wire | undefined;
  if (reasoning.adaptive) thinking = { type: 'adaptive' };
  else if (reasoning.enabled === false || reasoning.effort === 'none') thinking = { type: 'disabled' };
  else if (reasoning.budgetTokens !== undefined || reasoning.enabled) {
    const budget = anthropicThinking(reasoning, maxTokens, clientBudget, context, PROTOCOL);
    if (budget !== undefined) thinking = { type: 'enabled', budget_tokens: budget };
  }
  if (thinking && thinking.type !== 'disabled' && reasoning.includeThoughts !== undefined) {
    thinking.display = reasoning.includeThoughts ? 'summarized' : 'omitted';
  }
  if (thinking) out.thinking = thinking;
  const effort = reasoning.effort;
  if (effort !== undefined && effort !== 'none') {
    if (effort === 'minimal') {
      reportLoss(context, { code: 'lossy-conversion', path: 'reasoning.effort', message: 'effort "minimal" was sent as "low"', protocol: PROTOCOL });
      outputConfig.effort = 'low';
    } else outputConfig.effort = effort;
  }
  if (reasoning.summary !== undefined && reasoning.summary !== 'none' && reasoning.includeThoughts === undefined) {
    reportLoss(context, { code: 'dropped-field', path: 'reasoning.summary', message: 'Claude has no reasoning summary style', protocol: PROTOCOL });
  }
}

function reportUnmapped(request: LlmRequest, context: CodecContext | undefined): void {
  if (!context) return;
  const fields: Array<[keyof LlmRequest, boolean]> = [
    ['candidateCount', request.candidateCount !== undefined && request.candidateCount !== 1],
    ['logprobs', request.logprobs !== undefined],
    ['verbosity', request.verbosity !== undefined],
    ['promptCacheKey', request.promptCacheKey !== undefined],
    ['store', request.store !== undefined],
    ['previousResponseId', request.previousResponseId !== undefined],
    ['maxToolCalls', request.maxToolCalls !== undefined],
  ];
  for (const [field, present] of fields) {
    if (present) reportLoss(context, { code: 'dropped-field', path: field, message: `Claude has no ${field}`, protocol: PROTOCOL });
  }
}

function encodeSystem(messages: LlmSystemMessage[], options: EncodePartOptions): string | Wire[] {
  const first = messages[0]!;
  if (messages.length === 1 && first.content.length === 1 && !ext.marker(first, 'blocks')) {
    const part = first.content[0]!;
    if (!part.cache && !part.citations && !part.extensions && part.signature === undefined) return part.text;
  }
  const blocks: Wire[] = [];
  const path = new PartPath();
  for (let index = 0; index < messages.length; index++) {
    path.message = index;
    blocks.push(...encodeParts(messages[index]!.content, path, options));
  }
  return blocks;
}

interface OpenWire {
  role: string;
  content: string | Wire[];
  /** True while the wire message holds only tool results (user text may still join it). */
  toolsOnly: boolean;
}

function encodeMessages(messages: readonly LlmMessage[], start: number, options: EncodePartOptions): Wire[] {
  const out: Wire[] = [];
  let current: OpenWire | undefined;
  // Where a part's loss is reported, joined only then: one cursor moved along every part.
  const path = new PartPath();
  for (let index = start; index < messages.length; index++) {
    const message = messages[index]!;
    path.message = index;
    const joins = current?.toolsOnly && !ext.marker(message, 'separate');
    switch (message.role) {
      case 'tool': {
        const blocks: Wire[] = [];
        for (let at = 0; at < message.content.length; at++) {
          const part = message.content[at]!;
          path.part = at;
          const block = part.type === 'tool-result' ? toolResultBlock(part, path, options) : encodePart(part, path, options);
          if (block) blocks.push(block);
        }
        if (joins) (current!.content as Wire[]).push(...blocks);
        else current = open(out, 'user', blocks, message, true);
        break;
      }
      case 'user': {
        warnName(message, index, options);
        // A turn of MCP approvals only (each reported): Claude has no approval step, and refuses an empty turn.
        if (message.content.length > 0 && message.content.every((part) => part.type === 'mcp-approval-response')) {
          encodeParts(message.content, path, options);
          break;
        }
        if (joins) {
          (current!.content as Wire[]).push(...encodeParts(message.content, path, options));
          current!.toolsOnly = false;
        } else current = open(out, 'user', userContent(message, path, options), message, false);
        break;
      }
      case 'assistant': {
        warnName(message, index, options);
        current = open(out, 'assistant', plainString(message.content, message.stringContent) ?? encodeParts(message.content, path, options), message, false);
        break;
      }
      case 'system': {
        const content =
          ext.marker(message, 'string') && message.content.length === 1 && !message.content[0]!.extensions
            ? message.content[0]!.text
            : encodeParts(message.content, path, options);
        current = open(out, 'system', content, message, false);
        break;
      }
      default: {
        const unreachable: never = message;
        throw new LlmError({ kind: 'invalid_request', message: `unknown role ${JSON.stringify(unreachable)}`, protocol: PROTOCOL });
      }
    }
  }
  return out;
}

function open(out: Wire[], role: string, content: string | Wire[], message: LlmMessage, toolsOnly: boolean): OpenWire {
  const wire: Wire = { role, content };
  ext.writeRest(wire, message);
  out.push(wire);
  return { role, content, toolsOnly };
}

function userContent(message: LlmUserMessage, path: PartPath, options: EncodePartOptions): string | Wire[] {
  return plainString(message.content, message.stringContent) ?? encodeParts(message.content, path, options);
}

/** The text of a `stringContent` message that is still one plain text part. */
function plainString(content: readonly { type: string }[], stringContent: boolean | undefined): string | undefined {
  if (!stringContent || content.length !== 1) return undefined;
  const part = content[0] as LlmTextPart;
  if (part.type !== 'text' || part.cache || part.citations || part.extensions || part.signature !== undefined) return undefined;
  return part.text;
}

function warnName(message: { name?: string }, index: number, options: EncodePartOptions): void {
  if (message.name !== undefined) {
    reportLoss(options.context, {
      code: 'dropped-field',
      path: `messages[${index}].name`,
      message: 'Claude messages have no participant name',
      protocol: PROTOCOL,
    });
  }
}

/** A choice forcing an MCP server (Responses `{type: "mcp"}`): Claude names no server in `tool_choice`, so some call is required instead. */
function mcpChoice(request: LlmRequest, context: CodecContext | undefined): LlmToolChoice | undefined {
  const choice = request.toolChoice;
  if (choice?.type !== 'tool' || !request.tools?.some((tool) => tool.type === 'mcp' && tool.name === choice.name)) return choice;
  reportLoss(context, {
    code: 'lossy-conversion',
    path: 'tool_choice',
    message: 'Claude cannot force one MCP server: a tool call is required instead',
    protocol: PROTOCOL,
  });
  return { type: 'required' };
}
