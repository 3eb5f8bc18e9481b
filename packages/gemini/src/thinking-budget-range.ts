import { type CodecContext, reportLoss } from '@llm/core';
import { PROTOCOL } from './protocol.js';

/** A Gemini 2.5 model's thinking budgets: positive ones in `min`..`max`, 0 (off) where it can stop thinking, -1 (dynamic) always. */
interface BudgetRange {
  pattern: RegExp;
  name: string;
  min: number;
  max: number;
  canTurnOff: boolean;
}

/**
 * The budgets Gemini 2.5 models take (the API refuses others: "The thinking budget (52428) is
 * invalid."); Flash-Lite before Flash, which its name contains.
 * @see https://ai.google.dev/gemini-api/docs/thinking#set-budget
 */
const RANGES: readonly BudgetRange[] = [
  { pattern: /gemini-2\.5-pro/, name: 'Gemini 2.5 Pro', min: 128, max: 32768, canTurnOff: false },
  { pattern: /gemini-2\.5-flash-lite/, name: 'Gemini 2.5 Flash-Lite', min: 512, max: 24576, canTurnOff: true },
  { pattern: /gemini-2\.5-flash/, name: 'Gemini 2.5 Flash', min: 1, max: 24576, canTurnOff: true },
];

/**
 * `budget` fitted to what `model` takes (unknown models: as it is). `asked` says the budget was a
 * request's own number (reported when moved), not one this codec derived from an effort level.
 */
export function fitThinkingBudget(model: string, budget: number, asked: boolean, context: CodecContext | undefined): number {
  const range = RANGES.find(({ pattern }) => pattern.test(model));
  if (!range || budget === -1) return budget;
  let fitted = budget;
  if (budget === 0) fitted = range.canTurnOff ? 0 : range.min;
  else fitted = Math.min(range.max, Math.max(range.min, Math.round(budget)));
  if (fitted === budget || (!asked && budget !== 0)) return fitted;
  const message =
    budget === 0
      ? `${range.name} cannot turn thinking off; its lowest budget (${range.min}) was used`
      : `thinking budget ${budget} sent as ${fitted} (${range.name} takes ${range.min} to ${range.max})`;
  reportLoss(context, { code: 'lossy-conversion', path: budget === 0 ? 'reasoning.enabled' : 'reasoning.budgetTokens', message, protocol: PROTOCOL });
  return fitted;
}
