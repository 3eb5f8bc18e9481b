import { WEB_SEARCH_TOOL_NAME, domainList, reportWebSearchSettings, type CodecContext, type LlmWebSearchTool } from '@llm/core';
import { PROTOCOL, ext, read } from './protocol.js';
import { field, unknownFields } from './read.js';

type Wire = Record<string, unknown>;

const KNOWN = new Set(['excludeDomains']);

/** A Tool member that is Google Search grounding (either spelling proto3 JSON accepts). */
export function isGoogleSearchKey(key: string): boolean {
  return key === 'googleSearch' || key === 'google_search';
}

/**
 * `googleSearch` -> the canonical hosted tool. `excludeDomains` are its blocked domains; the
 * rest (`timeRangeFilter`, `blockingConfidence`, `searchTypes`, ...) stays in the bag with the
 * wire Tool's index and key spelling.
 * @see https://ai.google.dev/api/caching#GoogleSearch
 */
export function decodeGoogleSearch(holder: Wire, key: string, path: string, toolIndex: number): LlmWebSearchTool {
  const wire = read.object(holder, key, path);
  const tool: LlmWebSearchTool = { type: 'web_search', name: WEB_SEARCH_TOOL_NAME };
  const bag: Wire = { $tool: toolIndex, ...unknownFields(wire, KNOWN) };
  if (key !== 'googleSearch') bag.$key = key;
  const excluded = field(wire, 'excludeDomains');
  const blocked = domainList(excluded);
  if (blocked) {
    tool.blockedDomains = blocked;
    if (wire.excludeDomains === undefined) bag.$snakeExclude = true;
  } else if (excluded !== undefined) bag[wire.excludeDomains === undefined ? 'exclude_domains' : 'excludeDomains'] = excluded;
  return ext.keep(tool, bag);
}

/** The canonical hosted tool -> `[key, googleSearch value]` for its Tool object; what it lacks is reported. */
export function encodeGoogleSearch(tool: LlmWebSearchTool, path: string, context: CodecContext | undefined): [string, Wire] {
  reportWebSearchSettings(tool, path, ['blockedDomains'], PROTOCOL, context);
  const bag = ext.bag(tool);
  const out: Wire = {};
  if (tool.blockedDomains !== undefined) out[bag?.$snakeExclude ? 'exclude_domains' : 'excludeDomains'] = tool.blockedDomains;
  ext.writeRest(out, tool);
  return [typeof bag?.$key === 'string' ? bag.$key : 'googleSearch', out];
}
