import type { CodecContext, LlmUsage } from '@llm/core';
import { USAGE_SUB_COUNTS, joinPath, reportLoss } from '@llm/core';
import { PROTOCOL, read } from './protocol.js';
import type { ConverseUsage } from './wire-types.js';

/**
 * Wire `usage` -> canonical. Converse's `inputTokens` excludes cache reads and writes (as
 * Anthropic's does), so the canonical input is their sum; the wire object is kept whole for
 * Converse clients. Reads `holder[key]` at `parent` strictly (a count that is not a number is the
 * upstream's error).
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html
 */
export function decodeUsage(holder: Record<string, unknown>, key: string, parent: string): LlmUsage {
  const wire = read.object(holder, key, parent);
  const path = joinPath(parent, key);
  const uncached = read.optionalInteger(wire, 'inputTokens', path) ?? 0;
  const output = read.optionalInteger(wire, 'outputTokens', path) ?? 0;
  const cacheRead = read.optionalInteger(wire, 'cacheReadInputTokens', path);
  const cacheWrite = read.optionalInteger(wire, 'cacheWriteInputTokens', path);
  const input = uncached + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const usage: LlmUsage = { inputTokens: input, outputTokens: output, totalTokens: read.optionalInteger(wire, 'totalTokens', path) ?? input + output };
  if (cacheRead !== undefined) usage.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
  usage.raw = { protocol: PROTOCOL, usage: wire };
  return usage;
}

/** Canonical usage -> wire: Converse's own comes back exactly; others are rewritten without the cached part in `inputTokens`. */
export function encodeUsage(usage: LlmUsage | undefined): ConverseUsage {
  if (!usage) return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  if (usage.raw?.protocol === PROTOCOL && typeof usage.raw.usage === 'object' && usage.raw.usage !== null) return usage.raw.usage as ConverseUsage;
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const out: ConverseUsage = {
    inputTokens: Math.max(0, usage.inputTokens - cacheRead - cacheWrite),
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
  };
  if (usage.cacheReadTokens !== undefined) out.cacheReadInputTokens = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) out.cacheWriteInputTokens = usage.cacheWriteTokens;
  return out;
}

/** Canonical sub-counts a Converse `usage` has no field for: all but the cache counts. */
const UNWRITTEN = [...USAGE_SUB_COUNTS.filter((count) => count !== 'cacheReadTokens' && count !== 'cacheWriteTokens'), 'serverToolRequests'] as const;

/**
 * Reports (`dropped-field@usage.<count>`) each sub-count of another protocol's usage that
 * {@link encodeUsage} cannot write: Converse counts only input, output and cache tokens.
 */
export function reportUnwrittenUsage(usage: LlmUsage | undefined, context: CodecContext | undefined): void {
  if (!usage || usage.raw?.protocol === PROTOCOL) return;
  for (const field of UNWRITTEN) {
    // A zero count loses nothing (Responses always states its reasoning tokens).
    if (!usage[field]) continue;
    reportLoss(context, { code: 'dropped-field', path: `usage.${field}`, message: `Converse usage has no ${field}`, protocol: PROTOCOL });
  }
}
