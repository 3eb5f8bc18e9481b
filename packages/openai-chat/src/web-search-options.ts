import {
  WEB_SEARCH_TOOL_NAME,
  reportLoss,
  reportWebSearchSettings,
  userLocationFromWire,
  userLocationToWire,
  type CodecContext,
  type LlmTool,
  type LlmWebSearchTool,
} from '@llm/core';
import { PROTOCOL, ext } from './protocol.js';

type Wire = Record<string, unknown>;

const KNOWN = new Set(['search_context_size', 'user_location']);
const CONTEXT_SIZES = new Set(['low', 'medium', 'high']);

/**
 * `web_search_options` (the search-preview models' hosted search) -> the canonical hosted web
 * search tool, or `undefined` when the value is not an object (kept in the request bag then).
 * `hadTools` records whether the request also had a `tools` array, so that an exact round trip
 * writes one back only then.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-web_search_options
 */
export function decodeWebSearchOptions(value: unknown, hadTools: boolean): LlmWebSearchTool | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const wire = value as Wire;
  const tool: LlmWebSearchTool = { type: 'web_search', name: WEB_SEARCH_TOOL_NAME };
  const bag: Wire = ext.rest(wire, KNOWN) ?? {};
  const size = wire.search_context_size;
  if (typeof size === 'string' && CONTEXT_SIZES.has(size)) tool.contextSize = size as NonNullable<LlmWebSearchTool['contextSize']>;
  else if (size != null) bag.search_context_size = size;
  const location = wire.user_location as Wire | null | undefined;
  if (location != null) {
    // `{type: "approximate", approximate: {city, country, region, timezone}}`
    const outerExact = typeof location === 'object' && location.type === 'approximate' && Object.keys(location).length === 2;
    const { location: decoded, exact } = userLocationFromWire(typeof location === 'object' ? location.approximate : undefined);
    if (decoded) tool.userLocation = decoded;
    if (!decoded || !exact || !outerExact) bag.user_location = location;
  }
  ext.keep(tool, bag);
  if (hadTools) ext.mark(tool, 'tools', true);
  return tool;
}

/**
 * The request's web search tools -> `web_search_options` (the first one; Chat has one search
 * per request, further ones are reported as dropped tools). What Chat cannot express (domain
 * filters, a search budget) is reported at the tool's path.
 */
export function encodeWebSearchOptions(tools: readonly LlmTool[], context: CodecContext | undefined): Wire | undefined {
  let out: Wire | undefined;
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index]!;
    if (tool.type !== 'web_search') continue;
    const path = `tools[${index}]`;
    if (out) {
      reportLoss(context, { code: 'dropped-tool', path, message: 'openai-chat takes one web search per request', protocol: PROTOCOL });
      continue;
    }
    reportWebSearchSettings(tool, path, ['userLocation', 'contextSize'], PROTOCOL, context);
    out = {};
    if (tool.contextSize !== undefined) out.search_context_size = tool.contextSize;
    if (tool.userLocation !== undefined) out.user_location = { type: 'approximate', approximate: userLocationToWire(tool.userLocation) };
    ext.writeRest(out, tool);
  }
  return out;
}

/**
 * Whether an empty `tools` array goes out when no tool is left for it: only when the request had
 * an empty one of its own (a Chat client's `tools: []`, next to `web_search_options` or not).
 * When every tool went elsewhere (web search) or was dropped (code execution, another
 * protocol's built-ins) there is none: OpenAI rejects an empty `tools` array.
 */
export function keepsEmptyTools(tools: readonly LlmTool[]): boolean {
  if (tools.length === 0) return true;
  const search = tools.find((tool) => tool.type === 'web_search');
  return search !== undefined && ext.marker(search, 'tools') === true;
}
