import { effortToBudget, reportLoss, toGeminiJsonSchema, type CodecContext, type LlmRequest } from '@llm/core';
import { PROTOCOL } from './protocol.js';
import { fitThinkingBudget } from './thinking-budget-range.js';

type Wire = Record<string, unknown>;

/** Gemini 3 and later take a thinking level; earlier models a token budget. */
function usesLevels(model: string): boolean {
  return /gemini-([3-9]|\d\d)/.test(model);
}

/** Canonical request -> `generationConfig` (`undefined` when empty). */
export function encodeGenerationConfig(request: LlmRequest, kept: Wire | undefined, context?: CodecContext): Wire | undefined {
  const { $responseJsonSchema, $responseSchema, $mime, $level, $thinking, $noInclude, $budget, ...rest } = kept ?? {};
  const config: Wire = {};
  const sampling = request.sampling;
  if (sampling?.temperature !== undefined) config.temperature = sampling.temperature;
  if (sampling?.topP !== undefined) config.topP = sampling.topP;
  if (sampling?.topK !== undefined) config.topK = sampling.topK;
  if (request.candidateCount !== undefined) config.candidateCount = request.candidateCount;
  if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
  if (request.stop !== undefined) config.stopSequences = request.stop;
  if (sampling?.presencePenalty !== undefined) config.presencePenalty = sampling.presencePenalty;
  if (sampling?.frequencyPenalty !== undefined) config.frequencyPenalty = sampling.frequencyPenalty;
  if (sampling?.seed !== undefined) config.seed = sampling.seed;
  if (sampling?.logitBias !== undefined)
    reportLoss(context, { code: 'dropped-field', path: 'sampling.logitBias', message: 'Gemini has no logit bias', protocol: PROTOCOL });

  const format = request.responseFormat;
  if (format?.type === 'json-schema') {
    if ($mime !== null) config.responseMimeType = typeof $mime === 'string' ? $mime : 'application/json';
    if ($responseSchema !== undefined) config.responseSchema = $responseSchema;
    else config.responseJsonSchema = $responseJsonSchema ? format.schema : toGeminiJsonSchema(format.schema, context, 'responseFormat.schema');
    if (format.name !== undefined)
      reportLoss(context, { code: 'dropped-field', path: 'responseFormat.name', message: 'Gemini takes no schema name', protocol: PROTOCOL });
    if (format.description !== undefined)
      reportLoss(context, { code: 'dropped-field', path: 'responseFormat.description', message: 'Gemini takes no schema description', protocol: PROTOCOL });
  } else if (format?.type === 'json') config.responseMimeType = 'application/json';
  else if (format?.type === 'text') config.responseMimeType = 'text/plain';

  if (request.logprobs) {
    config.responseLogprobs = true;
    if (request.logprobs.top !== undefined) config.logprobs = request.logprobs.top;
  }

  const reasoning = request.reasoning;
  if (reasoning) {
    const thinking: Wire = {};
    if (reasoning.includeThoughts !== undefined) thinking.includeThoughts = reasoning.includeThoughts;
    else if (reasoning.enabled !== false && !$noInclude) thinking.includeThoughts = true;
    if (reasoning.effort !== undefined && (usesLevels(request.model) || $level !== undefined || reasoning.budgetTokens === undefined)) {
      if (usesLevels(request.model) || $level !== undefined) {
        const level =
          reasoning.effort === 'none' ? 'MINIMAL' : reasoning.effort === 'xhigh' || reasoning.effort === 'max' ? 'HIGH' : reasoning.effort.toUpperCase();
        if (reasoning.effort === 'none') {
          reportLoss(context, {
            code: 'lossy-conversion',
            path: 'reasoning.effort',
            message: 'Gemini 3 cannot turn thinking off; the lowest level (MINIMAL) was used',
            protocol: PROTOCOL,
          });
        }
        thinking.thinkingLevel = typeof $level === 'string' ? $level : level;
      } else thinking.thinkingBudget = fitThinkingBudget(request.model, effortToBudget(reasoning.effort), false, context);
    } else if (reasoning.budgetTokens !== undefined) {
      // Gemini 3 still accepts a budget (the server maps it to a level); a Gemini client's own goes back as sent.
      const own = $budget === reasoning.budgetTokens;
      thinking.thinkingBudget = own ? reasoning.budgetTokens : fitThinkingBudget(request.model, reasoning.budgetTokens, true, context);
    } else if (reasoning.enabled === false) thinking.thinkingBudget = fitThinkingBudget(request.model, 0, true, context);
    else if (reasoning.adaptive) thinking.thinkingBudget = -1;
    if ($thinking) Object.assign(thinking, $thinking);
    if (Object.keys(thinking).length > 0) config.thinkingConfig = thinking;
  }
  Object.assign(config, rest);
  // A request that sent an empty generationConfig gets one back.
  return Object.keys(config).length > 0 || kept !== undefined ? config : undefined;
}
