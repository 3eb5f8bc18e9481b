import type { ProtocolId } from './protocol.js';

/**
 * Token usage with one meaning across protocols, so that nothing is counted twice or lost:
 * - `inputTokens` counts every prompt token, cached ones included. Anthropic reports cache reads
 *   and writes outside `input_tokens`; its codec adds them in.
 * - `outputTokens` counts every generated token, reasoning included. Gemini reports thoughts
 *   outside `candidatesTokenCount`; its codec adds them in.
 * - The other counts are sub-counts of those two, never to be added again.
 */
export interface LlmUsage {
  /** Prompt tokens, cache reads and writes included. */
  inputTokens: number;
  /** Generated tokens, reasoning included. */
  outputTokens: number;
  /** As reported, else input + output. */
  totalTokens?: number;
  /** Of `inputTokens`: read from the prompt cache. */
  cacheReadTokens?: number;
  /** Of `inputTokens`: written to the prompt cache. */
  cacheWriteTokens?: number;
  /** Of `cacheWriteTokens`: by cache lifetime (Anthropic `cache_creation`). */
  cacheWriteByTtl?: { '5m'?: number; '1h'?: number };
  /** Of `outputTokens`: spent on reasoning. */
  reasoningTokens?: number;
  /** Of `inputTokens` / `outputTokens`: audio tokens. */
  audioInputTokens?: number;
  audioOutputTokens?: number;
  /** Of `inputTokens`: prompt tokens of built-in tool results (Gemini `toolUsePromptTokenCount`). */
  toolUseInputTokens?: number;
  /** OpenAI predicted outputs: accepted / rejected prediction tokens. */
  acceptedPredictionTokens?: number;
  rejectedPredictionTokens?: number;
  /** Built-in tool requests billed per call (Anthropic `server_tool_use`), e.g. `{ web_search_requests: 2 }`. */
  serverToolRequests?: Record<string, number>;
  /** The provider's own usage object, untouched, for same-protocol round trips and audits. */
  raw?: { protocol: ProtocolId; usage: unknown };
}

/** Zero usage. */
export function emptyUsage(): LlmUsage {
  return { inputTokens: 0, outputTokens: 0 };
}

/** `usage.totalTokens`, or input + output when the provider gave no total. */
export function totalTokensOf(usage: LlmUsage): number {
  return usage.totalTokens ?? usage.inputTokens + usage.outputTokens;
}

/** The counts of {@link LlmUsage} that are numbers and sub-counts of the two totals, for code that walks every one. */
export const USAGE_SUB_COUNTS = [
  'cacheReadTokens',
  'cacheWriteTokens',
  'reasoningTokens',
  'audioInputTokens',
  'audioOutputTokens',
  'toolUseInputTokens',
  'acceptedPredictionTokens',
  'rejectedPredictionTokens',
] as const satisfies readonly (keyof LlmUsage)[];

/**
 * The usage of several upstream calls as one (a loop's answer is billed for all its turns): every
 * count added; `raw` (one provider's own object) is dropped, it describes one call.
 */
export function sumUsage(total: LlmUsage | undefined, turn: LlmUsage | undefined): LlmUsage | undefined {
  if (!turn) return total;
  if (!total) {
    const { raw: _raw, ...rest } = turn;
    return { ...rest, totalTokens: totalTokensOf(turn) };
  }
  const out: LlmUsage = {
    ...total,
    inputTokens: total.inputTokens + turn.inputTokens,
    outputTokens: total.outputTokens + turn.outputTokens,
    totalTokens: (total.totalTokens ?? 0) + totalTokensOf(turn),
  };
  for (const key of USAGE_SUB_COUNTS) {
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
