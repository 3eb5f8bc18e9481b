import type { ModelPrice } from './model-price.js';

/**
 * The shipped price table: list prices of the providers' public pricing pages (standard tier,
 * no batch or priority, USD per million tokens), as read on {@link PRICE_TABLE_DATE}. A model
 * whose price could not be confirmed from a source is left out: it is then unpriced (flagged in
 * the ledger, never $0), and the config's `prices:` can add it.
 *
 * Keys are the providers' alias ids: dated ids (`claude-sonnet-4-5-20250929`,
 * `gpt-4o-2024-08-06`) and the Claude ids of Bedrock (`us.anthropic.claude-haiku-4-5-20251001-v1:0`)
 * and Vertex AI (`claude-haiku-4-5@20251001`) match them (model-id.ts): Anthropic bills the same
 * list prices there, and regional endpoints' surcharges are not modelled.
 */
export const PRICE_TABLE_DATE = '2026-11-25';

/** Where the table's prices come from. */
export const PRICE_TABLE_SOURCES: readonly string[] = [
  'https://platform.claude.com/docs/en/about-claude/pricing',
  'https://platform.claude.com/docs/en/about-claude/models/overview',
  'https://developers.openai.com/api/docs/pricing',
  'https://ai.google.dev/gemini-api/docs/pricing',
];

/**
 * Claude's cache rates are the multiples of the input rate Anthropic's pricing page lists for
 * every model (5-minute write 1.25x, 1-hour write 2x, read 0.1x); the page's table gives the same
 * figures (Opus 4.5: $6.25 / $10 / $0.50).
 */
function claude(input: number, output: number, cachedInput = input / 10): ModelPrice {
  return { input, output, cachedInput, cacheWrite5m: input * 1.25, cacheWrite1h: input * 2 };
}

/** The table, by alias id. */
export const PRICE_TABLE: Readonly<Record<string, ModelPrice>> = {
  // Anthropic (Claude API, Bedrock and Vertex AI ids alike).
  'claude-fable-5': claude(10, 50, 1),
  'claude-mythos-5': claude(10, 50, 1),
  'claude-opus-5': claude(5, 25),
  'claude-sonnet-5': claude(2, 10),
  'claude-opus-4-8': claude(5, 25),
  'claude-opus-4-7': claude(5, 25),
  'claude-opus-4-6': claude(5, 25),
  'claude-sonnet-4-6': claude(3, 15),
  'claude-opus-4-5': claude(5, 25),
  'claude-sonnet-4-5': claude(3, 15),
  'claude-haiku-4-5': claude(1, 5),
  'claude-opus-4-1': claude(15, 75),
  'claude-opus-4-0': claude(15, 75),
  'claude-opus-4': claude(15, 75),
  // OpenAI: reasoning tokens are part of output_tokens and billed as output. GPT-5.5 / 5.4's
  // rates for prompts over 272k tokens are not carried (such requests are under-counted).
  'gpt-5.5': { input: 5, cachedInput: 0.5, output: 30 },
  'gpt-5.5-pro': { input: 30, output: 180 },
  'gpt-5.4': { input: 2.5, cachedInput: 0.25, output: 15 },
  'gpt-5.4-pro': { input: 30, output: 180 },
  'gpt-5.4-mini': { input: 0.75, cachedInput: 0.075, output: 4.5 },
  'gpt-5.4-nano': { input: 0.2, cachedInput: 0.02, output: 1.25 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  // Google Gemini: the text / image / video input rate (audio input costs more: not modelled),
  // output "including thinking tokens", cached input at the context-caching rate (10% of input);
  // the Pro models bill a prompt over 200k tokens at a higher tier, carried as `longContext`.
  'gemini-3.1-pro-preview': {
    input: 2,
    cachedInput: 0.2,
    output: 12,
    longContext: { aboveInputTokens: 200_000, input: 4, cachedInput: 0.4, output: 18 },
  },
  'gemini-3-flash-preview': { input: 0.5, cachedInput: 0.05, output: 3 },
  'gemini-2.5-pro': {
    input: 1.25,
    cachedInput: 0.125,
    output: 10,
    longContext: { aboveInputTokens: 200_000, input: 2.5, cachedInput: 0.25, output: 15 },
  },
  'gemini-2.5-flash': { input: 0.3, cachedInput: 0.03, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, cachedInput: 0.01, output: 0.4 },
};
