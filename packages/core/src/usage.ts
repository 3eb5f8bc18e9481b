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
