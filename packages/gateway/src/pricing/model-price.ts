/** The rates of one model, USD per million tokens. */
export interface TokenRates {
  /** Prompt tokens neither read from nor written to a cache. */
  input: number;
  /** Generated tokens (reasoning included, unless `reasoning` prices it apart). */
  output: number;
  /** Prompt tokens read from a cache (default: `input`). */
  cachedInput?: number;
  /** Prompt tokens written to a 5-minute cache (default: `input`; only Claude bills writes). */
  cacheWrite5m?: number;
  /** Prompt tokens written to a 1-hour cache (default: `cacheWrite5m`). */
  cacheWrite1h?: number;
  /** Reasoning tokens, where a provider prices them apart from output (default: `output`). */
  reasoning?: number;
}

/** USD per million tokens, with a long-prompt tier where the provider prices one. */
export interface ModelPrice extends TokenRates {
  /**
   * Rates of every token of a request whose prompt (cache reads and writes included) is longer
   * than `aboveInputTokens` (Gemini's Pro models above 200k): the whole request, output included,
   * is billed at these.
   */
  longContext?: TokenRates & { aboveInputTokens: number };
}
