import type { LlmUsage } from '@llm/core';

/** Sub-counts summed with the two totals; `raw` (one provider's own object) is dropped: it describes one turn. */
const COUNTS = [
  'cacheReadTokens',
  'cacheWriteTokens',
  'reasoningTokens',
  'audioInputTokens',
  'audioOutputTokens',
  'toolUseInputTokens',
  'acceptedPredictionTokens',
  'rejectedPredictionTokens',
] as const;

/** The usage of several upstream calls as one: every count added (the loop's answer is billed for all its turns). */
export function sumUsage(total: LlmUsage | undefined, turn: LlmUsage | undefined): LlmUsage | undefined {
  if (!turn) return total;
  if (!total) {
    const { raw: _raw, ...rest } = turn;
    return { ...rest, totalTokens: turn.totalTokens ?? turn.inputTokens + turn.outputTokens };
  }
  const out: LlmUsage = {
    ...total,
    inputTokens: total.inputTokens + turn.inputTokens,
    outputTokens: total.outputTokens + turn.outputTokens,
    totalTokens: (total.totalTokens ?? 0) + (turn.totalTokens ?? turn.inputTokens + turn.outputTokens),
  };
  for (const key of COUNTS) {
    const value = turn[key];
    if (value !== undefined) out[key] = (out[key] ?? 0) + value;
  }
  if (turn.cacheWriteByTtl) {
    const ttl = { ...out.cacheWriteByTtl };
    for (const key of ['5m', '1h'] as const) {
      const value = turn.cacheWriteByTtl[key];
      if (value !== undefined) ttl[key] = (ttl[key] ?? 0) + value;
    }
    out.cacheWriteByTtl = ttl;
  }
  if (turn.serverToolRequests) {
    const requests = { ...out.serverToolRequests };
    for (const [name, count] of Object.entries(turn.serverToolRequests)) requests[name] = (requests[name] ?? 0) + count;
    out.serverToolRequests = requests;
  }
  return out;
}
