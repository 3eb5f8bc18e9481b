import type { ProtocolId } from './protocol.js';
import { ANTHROPIC_MIN_THINKING_BUDGET, type LlmReasoningConfig, anthropicThinkingBudget, fitAnthropicThinkingBudget } from './reasoning.js';
import { type CodecContext, reportLoss } from './warnings.js';

/**
 * The `budget_tokens` of an enabled thinking request on a wire that carries Anthropic's
 * `thinking` (Claude, Converse): the request's budget, or its effort's, fitted to Anthropic's
 * bounds (at least 1024, below `max_tokens`), which the API otherwise refuses with a 400. A budget
 * the fit moved is reported; where `max_tokens` leaves no room (1024 or less) thinking is left out,
 * reported, and the result is undefined. `clientBudget` is the budget as the codec's own client
 * sent it (its bookkeeping mark): that one goes back unfitted (with interleaved thinking a budget
 * may exceed `max_tokens`).
 */
export function anthropicThinking(
  reasoning: LlmReasoningConfig,
  maxTokens: number | undefined,
  clientBudget: unknown,
  context: CodecContext | undefined,
  protocol: ProtocolId,
): number | undefined {
  const asked = reasoning.budgetTokens;
  if (asked !== undefined && asked === clientBudget) return asked;
  const budget = asked === undefined ? anthropicThinkingBudget(reasoning.effort ?? 'medium', maxTokens) : fitAnthropicThinkingBudget(asked, maxTokens);
  if (budget === undefined) {
    reportLoss(context, {
      code: 'dropped-field',
      path: 'reasoning',
      message: `thinking needs max_tokens above ${ANTHROPIC_MIN_THINKING_BUDGET} (it is ${maxTokens}): sent without thinking`,
      protocol,
    });
  } else if (asked !== undefined && budget !== asked) {
    reportLoss(context, {
      code: 'lossy-conversion',
      path: 'reasoning.budgetTokens',
      message: `thinking budget ${asked} sent as ${budget} (Anthropic takes ${ANTHROPIC_MIN_THINKING_BUDGET} up to max_tokens - 1)`,
      protocol,
    });
  }
  return budget;
}
