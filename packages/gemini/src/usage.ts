import type { LlmUsage } from '@llm/core';
import { PROTOCOL } from './protocol.js';
import type { GeminiModalityTokenCount, GeminiUsageMetadata } from './wire-types.js';

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function modality(details: unknown, name: string): number | undefined {
  if (!Array.isArray(details)) return undefined;
  const entry = (details as GeminiModalityTokenCount[]).find((item) => item?.modality === name);
  return entry ? count(entry.tokenCount) : undefined;
}

/**
 * `usageMetadata` -> canonical usage. `promptTokenCount` already includes cached tokens;
 * `candidatesTokenCount` excludes thoughts, so output is candidates + thoughts; tokens of
 * server-side tool results (`toolUsePromptTokenCount`) are input too.
 */
export function decodeUsage(value: unknown): LlmUsage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const wire = value as GeminiUsageMetadata;
  const prompt = count(wire.promptTokenCount) ?? 0;
  const toolUse = count(wire.toolUsePromptTokenCount);
  const thoughts = count(wire.thoughtsTokenCount);
  const input = prompt + (toolUse ?? 0);
  const output = (count(wire.candidatesTokenCount) ?? 0) + (thoughts ?? 0);
  const usage: LlmUsage = { inputTokens: input, outputTokens: output, totalTokens: count(wire.totalTokenCount) ?? input + output };
  const cached = count(wire.cachedContentTokenCount);
  if (cached !== undefined) usage.cacheReadTokens = cached;
  if (thoughts !== undefined) usage.reasoningTokens = thoughts;
  if (toolUse !== undefined) usage.toolUseInputTokens = toolUse;
  const audioIn = modality(wire.promptTokensDetails, 'AUDIO');
  if (audioIn !== undefined) usage.audioInputTokens = audioIn;
  const audioOut = modality(wire.candidatesTokensDetails, 'AUDIO');
  if (audioOut !== undefined) usage.audioOutputTokens = audioOut;
  usage.raw = { protocol: PROTOCOL, usage: value };
  return usage;
}

/** Canonical usage -> `usageMetadata` (Gemini's own comes back exactly). */
export function encodeUsage(usage: LlmUsage): GeminiUsageMetadata {
  if (usage.raw?.protocol === PROTOCOL && typeof usage.raw.usage === 'object' && usage.raw.usage !== null) return usage.raw.usage as GeminiUsageMetadata;
  const reasoning = usage.reasoningTokens ?? 0;
  const toolUse = usage.toolUseInputTokens ?? 0;
  const out: GeminiUsageMetadata = {
    promptTokenCount: usage.inputTokens - toolUse,
    candidatesTokenCount: Math.max(0, usage.outputTokens - reasoning),
    totalTokenCount: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
  };
  if (usage.cacheReadTokens !== undefined) out.cachedContentTokenCount = usage.cacheReadTokens;
  if (usage.reasoningTokens !== undefined) out.thoughtsTokenCount = usage.reasoningTokens;
  if (usage.toolUseInputTokens !== undefined) out.toolUsePromptTokenCount = usage.toolUseInputTokens;
  return out;
}
