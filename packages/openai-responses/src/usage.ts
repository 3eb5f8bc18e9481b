import { joinPath, type LlmUsage } from '@llm/core';
import { PROTOCOL, read } from './protocol.js';

/**
 * Responses usage -> canonical. `input_tokens` already includes cached tokens and
 * `output_tokens` reasoning tokens, so the counts map one to one. The wire
 * object is kept in `raw` when re-deriving it would not give it back exactly.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
 */
export function decodeUsage(holder: Record<string, unknown>, parent: string): LlmUsage {
  const usage = read.object(holder, 'usage', parent);
  const path = joinPath(parent, 'usage');
  const out: LlmUsage = {
    inputTokens: read.optionalInteger(usage, 'input_tokens', path) ?? 0,
    outputTokens: read.optionalInteger(usage, 'output_tokens', path) ?? 0,
  };
  const total = read.optionalInteger(usage, 'total_tokens', path);
  if (total !== undefined) out.totalTokens = total;
  const input = usage.input_tokens_details;
  if (input !== undefined && input !== null) {
    const details = read.object(usage, 'input_tokens_details', path);
    const cached = read.optionalInteger(details, 'cached_tokens', `${path}.input_tokens_details`);
    if (cached !== undefined) out.cacheReadTokens = cached;
    const written = read.optionalInteger(details, 'cache_write_tokens', `${path}.input_tokens_details`);
    if (written !== undefined) out.cacheWriteTokens = written;
  }
  const output = usage.output_tokens_details;
  if (output !== undefined && output !== null) {
    const details = read.object(usage, 'output_tokens_details', path);
    const reasoning = read.optionalInteger(details, 'reasoning_tokens', `${path}.output_tokens_details`);
    if (reasoning !== undefined) out.reasoningTokens = reasoning;
  }
  if (!sameJson(encodeDerived(out), usage)) out.raw = { protocol: PROTOCOL, usage };
  return out;
}

/** Canonical usage -> Responses usage (the kept wire object when it came from Responses). */
export function encodeUsage(usage: LlmUsage): Record<string, unknown> {
  if (usage.raw?.protocol === PROTOCOL) return usage.raw.usage as Record<string, unknown>;
  return encodeDerived(usage);
}

function encodeDerived(usage: LlmUsage): Record<string, unknown> {
  const input: Record<string, number> = { cached_tokens: usage.cacheReadTokens ?? 0 };
  if (usage.cacheWriteTokens !== undefined) input.cache_write_tokens = usage.cacheWriteTokens;
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: input,
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
  };
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    count++;
    if (!sameJson(left[key], right[key])) return false;
  }
  for (const _ in right) count--;
  return count === 0;
}
