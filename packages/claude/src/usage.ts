import type { CodecContext, LlmUsage } from '@llm/core';
import { PROTOCOL } from './protocol.js';
import type { ClaudeUsage } from './wire-types.js';

type Wire = Record<string, unknown>;

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * Wire usage -> canonical. Claude's `input_tokens` excludes cache reads and writes, so the
 * canonical input is their sum; `output_tokens` already includes thinking.
 */
export function decodeUsage(value: unknown): LlmUsage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const wire = value as Wire;
  const uncached = count(wire.input_tokens) ?? 0;
  const cacheRead = count(wire.cache_read_input_tokens);
  const cacheWrite = count(wire.cache_creation_input_tokens);
  const output = count(wire.output_tokens) ?? 0;
  const input = uncached + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const usage: LlmUsage = { inputTokens: input, outputTokens: output, totalTokens: input + output };
  if (cacheRead !== undefined) usage.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
  const split = wire.cache_creation as Wire | null | undefined;
  if (split && typeof split === 'object') {
    const byTtl: NonNullable<LlmUsage['cacheWriteByTtl']> = {};
    const fiveMinutes = count(split.ephemeral_5m_input_tokens);
    const oneHour = count(split.ephemeral_1h_input_tokens);
    if (fiveMinutes !== undefined) byTtl['5m'] = fiveMinutes;
    if (oneHour !== undefined) byTtl['1h'] = oneHour;
    usage.cacheWriteByTtl = byTtl;
  }
  const details = wire.output_tokens_details as Wire | null | undefined;
  const thinking = details && typeof details === 'object' ? count(details.thinking_tokens) : undefined;
  if (thinking !== undefined) usage.reasoningTokens = thinking;
  const server = wire.server_tool_use as Wire | null | undefined;
  if (server && typeof server === 'object') {
    const requests: Record<string, number> = {};
    for (const key in server) {
      const n = count(server[key]);
      if (n !== undefined) requests[key.replace(/_requests$/, '')] = n;
    }
    usage.serverToolRequests = requests;
  }
  usage.raw = { protocol: PROTOCOL, usage: value };
  return usage;
}

/**
 * Canonical usage -> wire usage. Claude's own usage comes back exactly (from `raw`); other
 * protocols' counts are rewritten so that `input_tokens` excludes the cached part.
 */
export function encodeUsage(usage: LlmUsage | undefined, _context?: CodecContext): ClaudeUsage {
  if (!usage) return { input_tokens: 0, output_tokens: 0 };
  if (usage.raw?.protocol === PROTOCOL && typeof usage.raw.usage === 'object' && usage.raw.usage !== null) {
    return usage.raw.usage as ClaudeUsage;
  }
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const out: ClaudeUsage = {
    input_tokens: Math.max(0, usage.inputTokens - cacheRead - cacheWrite),
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
  };
  if (usage.cacheWriteByTtl) {
    out.cache_creation = {
      ephemeral_5m_input_tokens: usage.cacheWriteByTtl['5m'] ?? 0,
      ephemeral_1h_input_tokens: usage.cacheWriteByTtl['1h'] ?? 0,
    };
  }
  if (usage.reasoningTokens !== undefined) out.output_tokens_details = { thinking_tokens: usage.reasoningTokens };
  if (usage.serverToolRequests) {
    const server: Record<string, number> = {};
    for (const key in usage.serverToolRequests) server[`${key}_requests`] = usage.serverToolRequests[key]!;
    out.server_tool_use = server as unknown as NonNullable<ClaudeUsage['server_tool_use']>;
  }
  return out;
}
