import type { LlmUsage } from '@llm/core';
import { isJsonObject, readObject, readOptionalInteger } from '@llm/core';
import { PROTOCOL } from './internal.js';

const P = PROTOCOL;
const KNOWN = new Set(['prompt_tokens', 'completion_tokens', 'total_tokens', 'prompt_tokens_details', 'completion_tokens_details']);

/**
 * Wire usage -> canonical (`prompt_tokens` already includes cached tokens, `completion_tokens`
 * reasoning tokens: https://platform.openai.com/docs/api-reference/chat/object). Zero sub-counts
 * are kept so they are written back.
 */
export function decodeUsage(value: unknown, path: string): LlmUsage {
  const wire = readObject(value, path, undefined, P);
  const usage: LlmUsage = {
    inputTokens: readOptionalInteger(wire, 'prompt_tokens', path, P) ?? 0,
    outputTokens: readOptionalInteger(wire, 'completion_tokens', path, P) ?? 0,
  };
  const total = readOptionalInteger(wire, 'total_tokens', path, P);
  if (total !== undefined) usage.totalTokens = total;
  const prompt = wire.prompt_tokens_details;
  if (prompt !== undefined && prompt !== null) {
    const details = readObject(prompt, path, 'prompt_tokens_details', P);
    const inner = `${path}.prompt_tokens_details`;
    const cached = readOptionalInteger(details, 'cached_tokens', inner, P);
    if (cached !== undefined) usage.cacheReadTokens = cached;
    const audio = readOptionalInteger(details, 'audio_tokens', inner, P);
    if (audio !== undefined) usage.audioInputTokens = audio;
    const write = readOptionalInteger(details, 'cache_write_tokens', inner, P);
    if (write !== undefined) usage.cacheWriteTokens = write;
  }
  const completion = wire.completion_tokens_details;
  if (completion !== undefined && completion !== null) {
    const details = readObject(completion, path, 'completion_tokens_details', P);
    const inner = `${path}.completion_tokens_details`;
    const reasoning = readOptionalInteger(details, 'reasoning_tokens', inner, P);
    if (reasoning !== undefined) usage.reasoningTokens = reasoning;
    const audio = readOptionalInteger(details, 'audio_tokens', inner, P);
    if (audio !== undefined) usage.audioOutputTokens = audio;
    const accepted = readOptionalInteger(details, 'accepted_prediction_tokens', inner, P);
    if (accepted !== undefined) usage.acceptedPredictionTokens = accepted;
    const rejected = readOptionalInteger(details, 'rejected_prediction_tokens', inner, P);
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
