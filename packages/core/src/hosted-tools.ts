import type { ProtocolId } from './protocol.js';
import type { LlmTool, LlmToolChoice, LlmUserLocation, LlmWebSearchTool } from './tools.js';
import { reportLoss, type CodecContext } from './warnings.js';

/** The name of the canonical hosted web search tool (Claude's fixed `name`). */
export const WEB_SEARCH_TOOL_NAME = 'web_search';

/** The name of the canonical hosted code execution tool (Claude's fixed `name`). */
export const CODE_EXECUTION_TOOL_NAME = 'code_execution';

/** A setting of {@link LlmWebSearchTool} a target may lack. */
export type WebSearchSetting = 'maxUses' | 'allowedDomains' | 'blockedDomains' | 'userLocation' | 'contextSize';

const SETTINGS: readonly WebSearchSetting[] = ['maxUses', 'allowedDomains', 'blockedDomains', 'userLocation', 'contextSize'];
const LOCATION_KEYS = ['city', 'region', 'country', 'timezone'] as const;

/**
 * Reports, as `dropped-field` warnings at `path.<setting>`, every setting of `tool` the
 * `target` cannot express (those not in `supported`), and every wire field another protocol's
 * codec kept in the tool's extension bag (`path.<wire field>`), which no other codec writes.
 */
export function reportWebSearchSettings(
  tool: LlmWebSearchTool,
  path: string,
  supported: readonly WebSearchSetting[],
  target: ProtocolId,
  context: CodecContext | undefined,
): void {
  if (!context) return;
  for (const setting of SETTINGS) {
    if (tool[setting] === undefined || supported.includes(setting)) continue;
    reportLoss(context, { code: 'dropped-field', path: `${path}.${setting}`, message: `web search ${setting} has no ${target} equivalent`, protocol: target });
  }
  reportForeignToolFields(tool, path, target, context);
}

/**
 * Reports, as `dropped-field` warnings at `path.<wire field>`, the wire fields other protocols'
 * codecs kept in a hosted tool's extension bags (settings no other codec writes).
 */
export function reportForeignToolFields(tool: LlmTool, path: string, target: ProtocolId, context: CodecContext | undefined): void {
  const bags = tool.extensions;
  if (!bags || !context) return;
  for (const protocol in bags) {
    if (protocol === target) continue;
    const bag = bags[protocol as ProtocolId]!;
    for (const key in bag) {
      if (key.charCodeAt(0) === 36) continue; // `$` bookkeeping, not a wire field
      reportLoss(context, {
        code: 'dropped-field',
        path: `${path}.${key}`,
        message: `${protocol} ${tool.type} field ${key} has no ${target} equivalent`,
        protocol: target,
      });
    }
  }
}

/**
 * A wire `user_location` (the `{city, region, country, timezone}` members every protocol shares)
 * -> canonical. `exact` is false when the wire held anything else than those strings and
 * `type: "approximate"` (nulls, unknown keys): the codec then keeps the wire object whole for its
 * own round trip.
 */
export function userLocationFromWire(wire: unknown): { location?: LlmUserLocation; exact: boolean } {
  if (typeof wire !== 'object' || wire === null || Array.isArray(wire)) return { exact: false };
  const value = wire as Record<string, unknown>;
  const location: LlmUserLocation = {};
  let exact = true;
  let any = false;
  for (const key in value) {
    const member = value[key];
    if (key === 'type' && member === 'approximate') continue;
    if ((LOCATION_KEYS as readonly string[]).includes(key) && typeof member === 'string') {
      location[key as (typeof LOCATION_KEYS)[number]] = member;
      any = true;
    } else exact = false;
  }
  return any ? { location, exact } : { exact };
}

/** Canonical location -> the shared wire members, in a fixed order. */
export function userLocationToWire(location: LlmUserLocation): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of LOCATION_KEYS) if (location[key] !== undefined) out[key] = location[key]!;
  return out;
}

/** A wire domain list (an array of strings) as canonical, or `undefined` for anything else. */
export function domainList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
}

/** Tools the provider runs itself, which Chat and Gemini cannot name in a tool choice. */
function isHosted(tool: LlmTool): boolean {
  return tool.type === 'web_search' || tool.type === 'code_execution' || tool.type === 'mcp';
}

/**
 * The tool choice for a target where hosted tools (web search, code execution) are no callable
 * functions (Chat, Gemini): a choice naming one cannot force it there, so it is left out of the
 * choice (`dropped-field` at `tool_choice`; MCP servers count as hosted tools); what remains names other tools, or is `auto` when
 * some are left, or nothing when none are (a choice without tools is an error upstream).
 */
export function choiceWithoutHostedTools(
  choice: LlmToolChoice | undefined,
  tools: readonly LlmTool[] | undefined,
  target: ProtocolId,
  context: CodecContext | undefined,
): LlmToolChoice | undefined {
  if (!choice || (choice.type !== 'tool' && choice.type !== 'allowed')) return choice;
  const hosted = new Set(tools?.filter(isHosted).map((tool) => tool.name));
  if (hosted.size === 0) return choice;
  const names = choice.type === 'tool' ? [choice.name] : choice.names;
  const kept = names.filter((name) => !hosted.has(name));
  if (kept.length === names.length) return choice;
  reportLoss(context, {
    code: 'dropped-field',
    path: 'tool_choice',
    message: `${target} cannot force a hosted tool; left out of tool_choice`,
    protocol: target,
  });
  if (kept.length > 0) return { type: 'allowed', names: kept, mode: choice.type === 'allowed' ? choice.mode : 'required' };
  return tools?.some((tool) => !isHosted(tool)) ? { type: 'auto' } : undefined;
}
