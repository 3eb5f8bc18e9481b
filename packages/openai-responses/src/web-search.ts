import {
  WEB_SEARCH_TOOL_NAME,
  collectUnknown,
  domainList,
  reportWebSearchSettings,
  userLocationFromWire,
  userLocationToWire,
  type CodecContext,
  type LlmWebSearchTool,
  type WebSearchSetting,
} from '@llm/core';
import { PROTOCOL, ext } from './protocol.js';

type Wire = Record<string, unknown>;

const TYPES = new Set(['web_search', 'web_search_2025_08_26', 'web_search_preview', 'web_search_preview_2025_03_11']);
const KNOWN = new Set(['type', 'filters', 'search_context_size', 'user_location']);
const CONTEXT_SIZES = new Set(['low', 'medium', 'high']);
/** `web_search_preview` has no domain filter. */
const PREVIEW_SETTINGS: readonly WebSearchSetting[] = ['userLocation', 'contextSize'];
const SETTINGS: readonly WebSearchSetting[] = ['allowedDomains', 'userLocation', 'contextSize'];

/** A hosted web search tool type (`web_search`, `web_search_preview` and their dated versions). */
export function isWebSearchType(type: string): boolean {
  return TYPES.has(type);
}

/**
 * `web_search` / `web_search_preview` -> the canonical hosted tool. The type (when not
 * `web_search`), nulls and shapes with no canonical meaning stay in the bag.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
 */
export function decodeWebSearchTool(wire: Wire): LlmWebSearchTool {
  const tool: LlmWebSearchTool = { type: 'web_search', name: WEB_SEARCH_TOOL_NAME };
  const bag: Wire = collectUnknown(wire, KNOWN) ?? {};
  if (wire.type !== 'web_search') bag.$type = wire.type;
  const filters = wire.filters as Wire | null | undefined;
  const allowed = filters && typeof filters === 'object' && Object.keys(filters).length === 1 ? domainList(filters.allowed_domains) : undefined;
  if (allowed) tool.allowedDomains = allowed;
  else if (filters !== undefined) bag.filters = filters;
  const size = wire.search_context_size;
  if (typeof size === 'string' && CONTEXT_SIZES.has(size)) tool.contextSize = size as NonNullable<LlmWebSearchTool['contextSize']>;
  else if (size !== undefined) bag.search_context_size = size;
  if (wire.user_location !== undefined) {
    const { location, exact } = userLocationFromWire(wire.user_location);
    if (location) tool.userLocation = location;
    if (!exact || !location) bag.user_location = wire.user_location;
  }
  ext.keep(tool, bag);
  return tool;
}

/** The canonical hosted tool -> `web_search` (or the type it came as); what it lacks is reported. */
export function encodeWebSearchTool(tool: LlmWebSearchTool, path: string, context: CodecContext | undefined): Wire {
  const bag = ext.bag(tool);
  const type = typeof bag?.$type === 'string' ? bag.$type : 'web_search';
  const preview = type.startsWith('web_search_preview');
  reportWebSearchSettings(tool, path, preview ? PREVIEW_SETTINGS : SETTINGS, PROTOCOL, context);
  const out: Wire = { type };
  if (tool.allowedDomains !== undefined && !preview) out.filters = { allowed_domains: tool.allowedDomains };
  if (tool.contextSize !== undefined) out.search_context_size = tool.contextSize;
  if (tool.userLocation !== undefined) out.user_location = { type: 'approximate', ...userLocationToWire(tool.userLocation) };
  ext.writeRest(out, tool);
  return out;
}
