import type { LlmUsage } from '@llm/core';
import { isJsonObject, joinPath } from '@llm/core';
import { PROTOCOL, read } from './protocol.js';

const P = PROTOCOL;
const KNOWN = new Set(['prompt_tokens', 'completion_tokens', 'total_tokens', 'prompt_tokens_details', 'completion_tokens_details']);

/**
 * Wire usage `holder[key]` -> canonical (`prompt_tokens` already includes cached tokens, `completion_tokens`
 * reasoning tokens: https://platform.openai.com/docs/api-reference/chat/object). Zero sub-counts
 * are kept so they are written back.
 */
export function decodeUsage(holder: Record<string, unknown>, key: string, parent: string): LlmUsage {
  const wire = read.object(holder, key, parent);
  const path = joinPath(parent, key);
  const usage: LlmUsage = {
    inputTokens: read.optionalInteger(wire, 'prompt_tokens', path) ?? 0,
    outputTokens: read.optionalInteger(wire, 'completion_tokens', path) ?? 0,
  };
  const total = read.optionalInteger(wire, 'total_tokens', path);
  if (total !== undefined) usage.totalTokens = total;
  const prompt = wire.prompt_tokens_details;
  if (prompt !== undefined && prompt !== null) {
    const details = read.object(wire, 'prompt_tokens_details', path);
    const inner = `${path}.prompt_tokens_details`;
    const cached = read.optionalInteger(details, 'cached_tokens', inner);
    if (cached !== undefined) usage.cacheReadTokens = cached;
    const audio = read.optionalInteger(details, 'audio_tokens', inner);
    if (audio !== undefined) usage.audioInputTokens = audio;
    const write = read.optionalInteger(details, 'cache_write_tokens', inner);
    if (write !== undefined) usage.cacheWriteTokens = write;
  }
  const completion = wire.completion_tokens_details;
  if (completion !== undefined && completion !== null) {
    const details = read.object(wire, 'completion_tokens_details', path);
    const inner = `${path}.completion_tokens_details`;
    const reasoning = read.optionalInteger(details, 'reasoning_tokens', inner);
    if (reasoning !== undefined) usage.reasoningTokens = reasoning;
    const audio = read.optionalInteger(details, 'audio_tokens', inner);
    if (audio !== undefined) usage.audioOutputTokens = audio;
    const accepted = read.optionalInteger(details, 'accepted_prediction_tokens', inner);
    if (accepted !== undefined) usage.acceptedPredictionTokens = accepted;
    const rejected = read.optionalInteger(details, 'rejected_prediction_tokens', inner);
    if (rejected !== undefined) usage.rejectedPredictionTokens = rejected;
  }
  // Keep the wire object when it holds more than we model (xAI `num_sources_used`, null details).
  const extra = (details: unknown, known: readonly string[]): boolean => {
    if (!isJsonObject(details)) return false;
    for (const key in details) if (!known.includes(key) || details[key] === null) return true;
    return false;
  };
  if (
    extra(wire.prompt_tokens_details, ['cached_tokens', 'audio_tokens', 'cache_write_tokens']) ||
    extra(wire.completion_tokens_details, ['reasoning_tokens', 'audio_tokens', 'accepted_prediction_tokens', 'rejected_prediction_tokens'])
  ) {
    usage.raw = { protocol: P, usage: wire };
  }
  for (const key in wire) {
    if (!KNOWN.has(key) || wire[key] === null) {
      usage.raw = { protocol: P, usage: wire };
      break;
    }
  }
  return usage;
}

/** Canonical usage -> wire usage. */
export function encodeUsage(usage: LlmUsage): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const raw = usage.raw?.protocol === P && isJsonObject(usage.raw.usage) ? usage.raw.usage : undefined;
  if (raw) Object.assign(out, raw);
  out.prompt_tokens = usage.inputTokens;
  out.completion_tokens = usage.outputTokens;
  out.total_tokens = usage.totalTokens ?? usage.inputTokens + usage.outputTokens;
  if (usage.cacheReadTokens !== undefined || usage.audioInputTokens !== undefined || usage.cacheWriteTokens !== undefined) {
    const details: Record<string, unknown> = isJsonObject(raw?.prompt_tokens_details) ? { ...raw.prompt_tokens_details } : {};
    if (usage.cacheReadTokens !== undefined) details.cached_tokens = usage.cacheReadTokens;
    if (usage.audioInputTokens !== undefined) details.audio_tokens = usage.audioInputTokens;
    if (usage.cacheWriteTokens !== undefined) details.cache_write_tokens = usage.cacheWriteTokens;
    out.prompt_tokens_details = details;
  }
  if (
    usage.reasoningTokens !== undefined ||
    usage.audioOutputTokens !== undefined ||
    usage.acceptedPredictionTokens !== undefined ||
    usage.rejectedPredictionTokens !== undefined
  ) {
    const details: Record<string, unknown> = isJsonObject(raw?.completion_tokens_details) ? { ...raw.completion_tokens_details } : {};
    if (usage.reasoningTokens !== undefined) details.reasoning_tokens = usage.reasoningTokens;
    if (usage.audioOutputTokens !== undefined) details.audio_tokens = usage.audioOutputTokens;
    if (usage.acceptedPredictionTokens !== undefined) details.accepted_prediction_tokens = usage.acceptedPredictionTokens;
    if (usage.rejectedPredictionTokens !== undefined) details.rejected_prediction_tokens = usage.rejectedPredictionTokens;
    out.completion_tokens_details = details;
  }
  return out;
}
