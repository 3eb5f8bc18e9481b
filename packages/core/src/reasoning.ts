/**
 * Reasoning effort levels, the union of what the protocols name (OpenAI `reasoning_effort` /
 * `reasoning.effort`, Claude `output_config.effort`, Gemini `thinkingLevel`).
 */
export type LlmReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/** Every {@link LlmReasoningEffort}, from least to most. */
export const REASONING_EFFORTS: readonly LlmReasoningEffort[] = Object.freeze(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);

/**
 * How much the model should think. Protocols express this as a level (OpenAI, Gemini 3, Claude
 * effort) or a token budget (Claude `budget_tokens`, Gemini 2.5 `thinkingBudget`); a request
 * carries whichever the client sent, and encoders convert with {@link effortToBudget} /
 * {@link budgetToEffort} when the target speaks the other.
 */
export interface LlmReasoningConfig {
  /**
   * Explicitly on or off: Claude `thinking.type` enabled / disabled, Gemini budget 0, OpenAI
   * effort `none`. `undefined` leaves the provider default.
   */
  enabled?: boolean;
  /** The model chooses how much to think (Claude `thinking.type: "adaptive"`, Gemini budget -1). */
  adaptive?: boolean;
  effort?: LlmReasoningEffort;
  /** Token budget for thinking. */
  budgetTokens?: number;
  /**
   * Whether reasoning text is returned: Gemini `includeThoughts`, Claude `display`
   * (`omitted` = false).
   */
  includeThoughts?: boolean;
  /** Summary style (OpenAI Responses `reasoning.summary`). */
  summary?: 'auto' | 'concise' | 'detailed' | 'none';
}

/**
 * Effort -> budget table (our convention; no provider defines one): minimal 1024, low 2048, medium 8192,
 * high 16384, xhigh 32768. `max` uses the caller's model maximum, `none` is 0.
 */
const EFFORT_BUDGETS: Readonly<Record<Exclude<LlmReasoningEffort, 'max'>, number>> = {
  none: 0,
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 32768,
};

/**
 * The thinking budget for an effort level. `max` returns `modelMaxTokens` when given, else the
 * `xhigh` budget doubled (65536).
 */
export function effortToBudget(effort: LlmReasoningEffort, modelMaxTokens?: number): number {
  if (effort === 'max') return modelMaxTokens ?? EFFORT_BUDGETS.xhigh * 2;
  return EFFORT_BUDGETS[effort];
}

/** Anthropic's least thinking budget. */
export const ANTHROPIC_MIN_THINKING_BUDGET = 1024;

/**
 * A Claude thinking budget for an effort level, on any wire that carries Anthropic's `thinking`
 * (the Messages API, Bedrock Converse): the effort's budget, at least 1024 and below `maxTokens`
 * as Anthropic requires (https://platform.claude.com/docs/en/build-with-claude/extended-thinking).
 */
export function anthropicThinkingBudget(effort: LlmReasoningEffort, maxTokens: number | undefined): number {
  const budget = effortToBudget(effort, maxTokens);
  return Math.max(ANTHROPIC_MIN_THINKING_BUDGET, maxTokens === undefined ? budget : Math.min(budget, maxTokens - 1));
}

/**
 * The effort level nearest to a token budget (by ratio, so 3000 is nearer 2048 than 8192).
 * `0` is `none`; above 49152 (1.5 x the `xhigh` budget) is `max`; a negative budget (Gemini's -1,
 * "dynamic") has no level and returns `undefined`.
 */
export function budgetToEffort(budget: number): LlmReasoningEffort | undefined {
  if (budget < 0) return undefined;
  if (budget === 0) return 'none';
  let best: LlmReasoningEffort = 'minimal';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const effort of ['minimal', 'low', 'medium', 'high', 'xhigh'] as const) {
    const distance = Math.abs(Math.log(budget / EFFORT_BUDGETS[effort]));
    if (distance < bestDistance) {
      best = effort;
      bestDistance = distance;
    }
  }
  if (budget > EFFORT_BUDGETS.xhigh * 1.5) return 'max';
  return best;
}
