import type {
  LlmAssistantContent,
  LlmMessage,
  LlmReasoningConfig,
  LlmRequest,
  LlmSampling,
  LlmTextPart,
  LlmTool,
  LlmToolMessage,
  LlmUserContent,
} from '@llm/core';
import { cacheHintFromWire } from '@llm/core';
import { ChildPath } from '@llm/core/kit';
import { type ClaudeDecodedPart, decodeBlock, decodeBlockAt } from './blocks-decode.js';
import { PROTOCOL, ext, read } from './protocol.js';
import { isOutsideClaudeBounds } from './sampling-bounds.js';
import { decodeMcpServers } from './mcp-servers.js';
import { decodeTool, decodeToolChoice } from './tools-decode.js';

const KNOWN = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'stop_sequences',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'thinking',
  'output_config',
  'tools',
  'tool_choice',
  'metadata',
  'cache_control',
  'service_tier',
]);
const MESSAGE_KNOWN = new Set(['role', 'content']);
const OUTPUT_CONFIG_KNOWN = new Set(['effort', 'format']);
const METADATA_KNOWN = new Set(['user_id']);
const EFFORTS = new Set(['low', 'medium', 'high', 'xhigh', 'max']);
type Wire = Record<string, unknown>;

/** Request body -> canonical request. */
export function decodeRequest(body: unknown): LlmRequest {
  const wire = read.body(body);
  const request: LlmRequest = { model: read.string(wire, 'model', ''), messages: [] };
  const rest = ext.rest(wire, KNOWN) ?? {};
  const maxTokens = read.optionalInteger(wire, 'max_tokens', '');
  if (maxTokens !== undefined) request.maxOutputTokens = maxTokens;

  if (wire.system != null) decodeSystem(wire, request.messages);
  decodeMessages(read.array(wire, 'messages', ''), request.messages);

  const stops = read.optionalArray(wire, 'stop_sequences', '');
  if (stops) {
    for (let index = 0; index < stops.length; index++) read.string(stops, index, 'stop_sequences');
    request.stop = stops as string[];
  }
  const stream = read.optionalBoolean(wire, 'stream', '');
  if (stream !== undefined) request.stream = stream;

  const temperature = read.optionalNumber(wire, 'temperature', '');
  const topP = read.optionalNumber(wire, 'top_p', '');
  const topK = read.optionalNumber(wire, 'top_k', '');
  if (temperature !== undefined || topP !== undefined || topK !== undefined) {
    const sampling: LlmSampling = {};
    if (temperature !== undefined) sampling.temperature = temperature;
    if (topP !== undefined) sampling.topP = topP;
    if (topK !== undefined) sampling.topK = topK;
    request.sampling = sampling;
  }

  const reasoning: LlmReasoningConfig = {};
  if (wire.thinking != null && !decodeThinking(wire, reasoning)) rest.thinking = wire.thinking;
  // A Claude client's own budget and sampling go back as sent; another protocol's are fitted to Claude's bounds.
  if (reasoning.budgetTokens !== undefined) rest.$budget = reasoning.budgetTokens;
  if (isOutsideClaudeBounds(wire)) rest.$asSent = true;
  const config = read.optionalObject(wire, 'output_config', '');
  if (config) {
    const configRest = ext.rest(config, OUTPUT_CONFIG_KNOWN) ?? {};
    let decoded = false;
    if (typeof config.effort === 'string' && EFFORTS.has(config.effort)) {
      reasoning.effort = config.effort as LlmReasoningConfig['effort'];
      decoded = true;
    } else if (config.effort != null) configRest.effort = config.effort;
    const format = config.format;
    if (format != null) {
      const object = read.object(config, 'format', 'output_config');
      let keys = 0;
      for (const _ in object) keys++;
      if (object.type === 'json_schema' && keys === 2 && typeof object.schema === 'object' && object.schema !== null) {
        request.responseFormat = { type: 'json-schema', schema: object.schema as Wire };
        decoded = true;
      } else configRest.format = format;
    }
    let configKeys = 0;
    for (const _ in configRest) configKeys++;
    if (configKeys > 0 || !decoded) rest.$output_config = configRest;
  }
  for (const _ in reasoning) {
    request.reasoning = reasoning;
    break;
  }

  const tools = read.optionalArray(wire, 'tools', '');
  if (tools) {
    const out: LlmTool[] = new Array(tools.length);
    for (let index = 0; index < tools.length; index++) out[index] = decodeTool(tools, index);
    request.tools = out;
  }
  if (wire.mcp_servers !== undefined) decodeMcpServers(wire, request, rest);
  if (wire.tool_choice != null) {
    const { choice, parallel, raw } = decodeToolChoice(wire);
    if (raw !== undefined) rest.tool_choice = raw;
    if (choice) request.toolChoice = choice;
    if (parallel !== undefined) request.parallelToolCalls = parallel;
  }
  const metadata = read.optionalObject(wire, 'metadata', '');
  if (metadata) {
    const userId = read.optionalString(metadata, 'user_id', 'metadata');
    if (userId !== undefined) request.user = userId;
    const metadataRest = ext.rest(metadata, METADATA_KNOWN);
    if (metadataRest || userId === undefined) rest.$metadata = metadataRest ?? {};
  }
  if (wire.cache_control != null) {
    const cache = cacheHintFromWire(wire.cache_control);
    if (cache) request.cache = cache;
    else rest.cache_control = wire.cache_control;
  }
  const tier = read.optionalString(wire, 'service_tier', '');
  if (tier !== undefined) request.serviceTier = tier;
  for (const _ in rest) {
    request.extensions = { [PROTOCOL]: rest };
    break;
  }
  return request;
}

/** `thinking` -> reasoning; `false` when it has a shape we keep raw. */
function decodeThinking(request: Wire, reasoning: LlmReasoningConfig): boolean {
  const thinking = read.object(request, 'thinking', '');
  let keys = 0;
  for (const _ in thinking) keys++;
  const display = thinking.display;
  if (display !== undefined) {
    if (display !== 'summarized' && display !== 'omitted') return false;
    keys--;
  }
  switch (thinking.type) {
    case 'enabled': {
      const budget = read.optionalInteger(thinking, 'budget_tokens', 'thinking');
      if (budget === undefined || keys !== 2) return false;
      reasoning.enabled = true;
      reasoning.budgetTokens = budget;
      break;
    }
    case 'adaptive':
      if (keys !== 1) return false;
      reasoning.adaptive = true;
      break;
    case 'disabled':
      if (keys !== 1 || display !== undefined) return false;
      reasoning.enabled = false;
      break;
    default:
      return false;
  }
  if (display !== undefined) reasoning.includeThoughts = display === 'summarized';
  return true;
}

function decodeSystem(request: Wire, messages: LlmMessage[]): void {
  const value = request.system;
  if (typeof value === 'string') {
    messages.push({ role: 'system', content: [{ type: 'text', text: value }] });
    return;
  }
  const blocks = read.array(request, 'system', '');
  const content: LlmTextPart[] = new Array(blocks.length);
  for (let index = 0; index < blocks.length; index++) {
    const part = decodeBlock(blocks, index, 'system');
    if (part.type !== 'text') read.invalid(blocks[index] as Wire, 'type', `system[${index}]`, '"text"');
    content[index] = part;
  }
  messages.push({ role: 'system', content, extensions: { [PROTOCOL]: { $blocks: true } } });
}

function decodeMessages(list: unknown[], messages: LlmMessage[]): void {
  // True when the previous wire message held only tool results (the encoder merges into such a message).
  let previousToolsOnly = false;
  // `messages[i]`, `messages[i].content` and a block's path, joined only for an error: one chain moved along.
  const path = new ChildPath('messages', 0);
  const contentPath = new ChildPath(path, 'content');
  const blockPath = new ChildPath(contentPath, 0);
  const paths: BlockPaths = { content: contentPath, block: blockPath };
  for (let index = 0; index < list.length; index++) {
    const wire = read.object(list, index, 'messages');
    path.key = index;
    const role = wire.role;
    const rest = ext.rest(wire, MESSAGE_KNOWN);
    const first = messages.length;
    let toolsOnly = false;
    if (role === 'user') {
      toolsOnly = decodeUser(wire, path, paths, messages);
      if (previousToolsOnly) ext.mark(messages[first]!, 'separate', true);
    } else if (role === 'assistant') {
      const content = wire.content;
      if (typeof content === 'string') {
        messages.push({ role: 'assistant', content: [{ type: 'text', text: content }], stringContent: true });
      } else {
        const blocks = read.array(wire, 'content', path);
        const parts: LlmAssistantContent[] = new Array(blocks.length);
        for (let at = 0; at < blocks.length; at++) {
          const part = decodeBlockIn(blocks, at, paths);
          parts[at] = part.type === 'tool-result' || part.type === 'json' ? { type: 'provider', protocol: PROTOCOL, value: blocks[at] } : part;
        }
        messages.push({ role: 'assistant', content: parts });
      }
    } else if (role === 'system') {
      // Mid-conversation instructions (newest models).
      const content = wire.content;
      if (typeof content === 'string') {
        messages.push({ role: 'system', content: [{ type: 'text', text: content }], extensions: { [PROTOCOL]: { $string: true } } });
      } else {
        const blocks = read.array(wire, 'content', path);
        const parts: LlmTextPart[] = new Array(blocks.length);
        for (let at = 0; at < blocks.length; at++) {
          const part = decodeBlockIn(blocks, at, paths);
          if (part.type !== 'text') read.invalid(blocks[at] as Wire, 'type', blockPath, '"text"');
          parts[at] = part;
        }
        messages.push({ role: 'system', content: parts });
      }
    } else {
      read.invalid(wire, 'role', path, '"user" or "assistant" or "system"');
    }
    ext.keep(messages[first]!, rest);
    previousToolsOnly = toolsOnly;
  }
}

/** The paths of a message's content and of its block being read (`block.key` moved along). */
interface BlockPaths {
  content: ChildPath;
  block: ChildPath;
}

/** Block `at` of a message's `blocks`, its paths joined only for an error. */
function decodeBlockIn(blocks: unknown[], at: number, paths: BlockPaths): ClaudeDecodedPart {
  paths.block.key = at;
  return decodeBlockAt(read.object(blocks, at, paths.content), paths.block);
}

/** Decodes a user message; returns true when it held only tool results. */
function decodeUser(wire: Wire, path: ChildPath, paths: BlockPaths, messages: LlmMessage[]): boolean {
  const content = wire.content;
  if (typeof content === 'string') {
    messages.push({ role: 'user', content: [{ type: 'text', text: content }], stringContent: true });
    return false;
  }
  const blocks = read.array(wire, 'content', path);
  let at = 0;
  // Leading tool results become tool messages, one result each.
  for (; at < blocks.length; at++) {
    const block = blocks[at];
    if (typeof block !== 'object' || block === null || (block as Wire).type !== 'tool_result') break;
    const part = decodeBlockIn(blocks, at, paths);
    messages.push({ role: 'tool', content: [part as LlmToolMessage['content'][number]] });
  }
  if (at > 0 && at === blocks.length) return true;
  const parts: LlmUserContent[] = new Array(blocks.length - at);
  for (let from = at; at < blocks.length; at++) {
    const part = decodeBlockIn(blocks, at, paths);
    parts[at - from] =
      part.type === 'text' || part.type === 'image' || part.type === 'file' || part.type === 'provider' || part.type === 'audio'
        ? part
        : { type: 'provider', protocol: PROTOCOL, value: blocks[at] };
  }
  messages.push({ role: 'user', content: parts });
  return false;
}
