import {
  WEB_SEARCH_TOOL_NAME,
  domainList,
  reportWebSearchSettings,
  userLocationFromWire,
  userLocationToWire,
  type CodecContext,
  type LlmWebSearchTool,
} from '@llm/core';
import { PROTOCOL, ext } from './protocol.js';

type Wire = Record<string, unknown>;

/** The version written for a web search from another protocol (every model with search has it). */
const DEFAULT_TYPE = 'web_search_20250305';
const KNOWN = new Set(['type', 'name', 'max_uses', 'allowed_domains', 'blocked_domains', 'user_location']);

/** A `web_search_<date>` server tool (any version the API has or will add). */
export function isWebSearchTool(tool: Wire): boolean {
  return typeof tool.type === 'string' && tool.type.startsWith('web_search_');
}

/**
 * `web_search_<date>` -> the canonical hosted tool. The version (when not the default), nulls
 * and fields with no canonical meaning (`allowed_callers`, `cache_control`, ...) stay in the bag.
 */
export function decodeWebSearchTool(wire: Wire): LlmWebSearchTool {
  const tool: LlmWebSearchTool = { type: 'web_search', name: typeof wire.name === 'string' ? wire.name : WEB_SEARCH_TOOL_NAME };
  const bag: Wire = ext.rest(wire, KNOWN) ?? {};
  if (wire.type !== DEFAULT_TYPE) bag.$type = wire.type;
  if (typeof wire.name !== 'string') bag.$noName = true;
  if (typeof wire.max_uses === 'number') tool.maxUses = wire.max_uses;
  else if (wire.max_uses != null) bag.max_uses = wire.max_uses;
  const allowed = domainList(wire.allowed_domains);
  if (allowed) tool.allowedDomains = allowed;
  else if (wire.allowed_domains != null) bag.allowed_domains = wire.allowed_domains;
  const blocked = domainList(wire.blocked_domains);
  if (blocked) tool.blockedDomains = blocked;
  else if (wire.blocked_domains != null) bag.blocked_domains = wire.blocked_domains;
  if (wire.user_location != null) {
    const { location, exact } = userLocationFromWire(wire.user_location);
    if (location) tool.userLocation = location;
    if (!exact || !location) bag.user_location = wire.user_location;
  }
  return ext.keep(tool, bag);
}

/** The canonical hosted tool -> `web_search_<date>`; `contextSize` and foreign fields reported. */
export function encodeWebSearchTool(tool: LlmWebSearchTool, path: string, context: CodecContext | undefined): Wire {
  reportWebSearchSettings(tool, path, ['maxUses', 'allowedDomains', 'blockedDomains', 'userLocation'], PROTOCOL, context);
  const type = ext.marker(tool, 'type');
  const out: Wire = { type: typeof type === 'string' ? type : DEFAULT_TYPE };
  if (!ext.marker(tool, 'noName')) out.name = tool.name;
  if (tool.maxUses !== undefined) out.max_uses = tool.maxUses;
  if (tool.allowedDomains !== undefined) out.allowed_domains = tool.allowedDomains;
  if (tool.blockedDomains !== undefined) out.blocked_domains = tool.blockedDomains;
  if (tool.userLocation !== undefined) out.user_location = { type: 'approximate', ...userLocationToWire(tool.userLocation) };
  ext.writeRest(out, tool);
  return out;
}
