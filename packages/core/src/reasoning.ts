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
 * A thinking budget fitted to Anthropic's bounds, on any wire that carries Anthropic's `thinking`
 * (the Messages API, Bedrock Converse): at least 1024 and below `maxTokens`
 * (https://platform.claude.com/docs/en/build-with-claude/extended-thinking). Undefined when
 * `maxTokens` leaves no room (1024 or less): such a request can only go without thinking.
 */
export function fitAnthropicThinkingBudget(budget: number, maxTokens: number | undefined): number | undefined {
  if (maxTokens !== undefined && maxTokens <= ANTHROPIC_MIN_THINKING_BUDGET) return undefined;
  const raised = Math.max(ANTHROPIC_MIN_THINKING_BUDGET, Math.round(budget));
  return maxTokens === undefined ? raised : Math.min(raised, maxTokens - 1);
}

/**
 * A Claude thinking budget for an effort level: the effort's budget fitted to Anthropic's bounds
 * ({@link fitAnthropicThinkingBudget}); undefined when `maxTokens` leaves no room.
 */
export function anthropicThinkingBudget(effort: LlmReasoningEffort, maxTokens: number | undefined): number | undefined {
  return fitAnthropicThinkingBudget(effortToBudget(effort, maxTokens), maxTokens);
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
