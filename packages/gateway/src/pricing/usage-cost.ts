import type { LlmUsage } from '@llm/core';
import type { ModelPrice, TokenRates } from './model-price.js';

/** Rounds away floating-point dust (a millionth of a millionth of a dollar). */
function roundUsd(value: number): number {
  return Math.round(value * 1e12) / 1e12;
}

/**
 * The rates a request is billed at: the long-context tier's when the prompt is past its
 * threshold (the prompt being `inputTokens`: cache reads and writes included, as the providers count it).
 */
export function ratesFor(price: ModelPrice, usage: LlmUsage): TokenRates {
  const long = price.longContext;
  return long && usage.inputTokens > long.aboveInputTokens ? long : price;
}

/**
 * The USD cost of one request's usage at `price`. The canonical usage counts cache reads and
 * writes inside `inputTokens` and reasoning inside `outputTokens` (each codec maps its wire form
 * so: Gemini's `thoughtsTokenCount` is added to output), so each part is taken out and priced at
 * its own rate:
 * - input minus cache reads and writes, at `input`;
 * - cache reads at `cachedInput`;
 * - cache writes: the 1-hour part (Claude's `cache_creation.ephemeral_1h_input_tokens`) at
 *   `cacheWrite1h`, the rest (5-minute, or a total with no split, as Bedrock reports) at `cacheWrite5m`;
 * - output, and reasoning at `reasoning` only where the price lists it apart.
 */
export function usageCost(price: ModelPrice, usage: LlmUsage): number {
  const rates = ratesFor(price, usage);
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const oneHour = Math.min(cacheWrite, usage.cacheWriteByTtl?.['1h'] ?? 0);
  const uncached = Math.max(0, usage.inputTokens - cacheRead - cacheWrite);
  const reasoning = rates.reasoning === undefined ? 0 : Math.min(usage.outputTokens, usage.reasoningTokens ?? 0);
  const write5m = rates.cacheWrite5m ?? rates.input;
  const perMillion =
    uncached * rates.input +
    cacheRead * (rates.cachedInput ?? rates.input) +
    (cacheWrite - oneHour) * write5m +
    oneHour * (rates.cacheWrite1h ?? write5m) +
    (usage.outputTokens - reasoning) * rates.output +
    reasoning * (rates.reasoning ?? rates.output);
  return roundUsd(perMillion / 1_000_000);
}
