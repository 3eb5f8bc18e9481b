import {
  effortToBudget,
  reportLoss,
  toGeminiJsonSchema,
  type CodecContext,
  type JsonSchema,
  type LlmReasoningEffort,
  type LlmRequest,
} from '@llm/core';
import { PROTOCOL, read } from './protocol.js';
import { camel, field, unknownFields } from './read.js';
import { fromCheckedGeminiSchema } from './schema.js';

type Wire = Record<string, unknown>;

const KNOWN = new Set([
  'temperature',
  'topP',
  'topK',
  'candidateCount',
  'maxOutputTokens',
  'stopSequences',
  'presencePenalty',
  'frequencyPenalty',
  'seed',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'responseLogprobs',
  'logprobs',
  'thinkingConfig',
]);
const THINKING_KNOWN = new Set(['includeThoughts', 'thinkingBudget', 'thinkingLevel']);
const LEVELS: Readonly<Record<string, LlmReasoningEffort>> = { MINIMAL: 'minimal', LOW: 'low', MEDIUM: 'medium', HIGH: 'high' };

function number(config: Wire, name: string): number | undefined {
  const value = field(config, name);
  if (value === undefined) return undefined;
  // `null` is refused too (optionalNumber would read it as absent).
  return typeof value === 'number' && Number.isFinite(value) ? value : read.invalid(camel(config, name), name, 'generationConfig', 'a number');
}

/**
 * `generationConfig` -> the canonical request fields it sets. Returns the fields kept for the
 * round trip (responseModalities, mediaResolution, speechConfig, ... and spelling details).
 */
export function decodeGenerationConfig(body: Wire, request: LlmRequest): Wire | undefined {
  const config = read.object(camel(body, 'generationConfig'), 'generationConfig', '');
  let kept = unknownFields(config, KNOWN);
  const sampling: NonNullable<LlmRequest['sampling']> = {};
  const temperature = number(config, 'temperature');
  if (temperature !== undefined) sampling.temperature = temperature;
  const topP = number(config, 'topP');
  if (topP !== undefined) sampling.topP = topP;
  const topK = number(config, 'topK');
  if (topK !== undefined) sampling.topK = topK;
  const presence = number(config, 'presencePenalty');
  if (presence !== undefined) sampling.presencePenalty = presence;
  const frequency = number(config, 'frequencyPenalty');
  if (frequency !== undefined) sampling.frequencyPenalty = frequency;
  const seed = number(config, 'seed');
  if (seed !== undefined) sampling.seed = seed;
  if (Object.keys(sampling).length > 0) request.sampling = sampling;
  const candidates = number(config, 'candidateCount');
  if (candidates !== undefined) request.candidateCount = candidates;
  const maxOutput = number(config, 'maxOutputTokens');
  if (maxOutput !== undefined) request.maxOutputTokens = maxOutput;
  const stop = field(config, 'stopSequences');
  if (stop !== undefined) {
    if (!Array.isArray(stop) || !stop.every((item) => typeof item === 'string')) read.invalid(camel(config, 'stopSequences'), 'stopSequences', 'generationConfig', 'an array of strings');
    request.stop = stop as string[];
  }

  const mime = field(config, 'responseMimeType');
  const jsonSchema = field(config, 'responseJsonSchema');
  const openApi = field(config, 'responseSchema');
  if (jsonSchema !== undefined || openApi !== undefined) {
    const schema = jsonSchema !== undefined ? (read.object(camel(config, 'responseJsonSchema'), 'responseJsonSchema', 'generationConfig') as JsonSchema) : fromCheckedGeminiSchema(openApi);
    request.responseFormat = { type: 'json-schema', schema };
    kept = { ...kept, ...(jsonSchema !== undefined ? { $responseJsonSchema: true } : { $responseSchema: openApi }) };
    if (mime !== 'application/json') kept.$mime = mime ?? null;
  } else if (mime === 'application/json') request.responseFormat = { type: 'json' };
  else if (mime === 'text/plain') request.responseFormat = { type: 'text' };
  else if (mime !== undefined) kept = { ...kept, responseMimeType: mime };

  const responseLogprobs = field(config, 'responseLogprobs');
  const top = number(config, 'logprobs');
  if (responseLogprobs === true) request.logprobs = top !== undefined ? { top } : {};
  else if (responseLogprobs !== undefined || top !== undefined) kept = { ...kept, ...(responseLogprobs !== undefined ? { responseLogprobs } : {}), ...(top !== undefined ? { logprobs: top } : {}) };

  if (field(config, 'thinkingConfig') !== undefined) {
    const wire = read.object(camel(config, 'thinkingConfig'), 'thinkingConfig', 'generationConfig');
    const reasoning: NonNullable<LlmRequest['reasoning']> = {};
    const include = field(wire, 'includeThoughts');
    if (typeof include === 'boolean') reasoning.includeThoughts = include;
    const budget = field(wire, 'thinkingBudget');
    if (typeof budget === 'number') {
      if (budget === 0) Object.assign(reasoning, { enabled: false, budgetTokens: 0 });
      else if (budget === -1) Object.assign(reasoning, { enabled: true, adaptive: true });
      else Object.assign(reasoning, { enabled: true, budgetTokens: budget });
    }
    const level = field(wire, 'thinkingLevel');
    if (typeof level === 'string') {
      const effort = LEVELS[level.toUpperCase()];
      if (!effort) read.invalid(camel(wire, 'thinkingLevel'), 'thinkingLevel', 'generationConfig.thinkingConfig', 'MINIMAL, LOW, MEDIUM or HIGH');
      reasoning.enabled = true;
      reasoning.effort = effort;
      if (level !== level.toUpperCase()) kept = { ...kept, $level: level };
    }
    request.reasoning = reasoning;
    const rest = unknownFields(wire, THINKING_KNOWN);
    if (rest) kept = { ...kept, $thinking: rest };
    if (include === undefined) kept = { ...kept, $noInclude: true };
  }
  return kept;
}

/** Gemini 3 and later take a thinking level; earlier models a token budget. */
function usesLevels(model: string): boolean {
  return /gemini-([3-9]|\d\d)/.test(model);
}

/** Canonical request -> `generationConfig` (`undefined` when empty). */
export function encodeGenerationConfig(request: LlmRequest, kept: Wire | undefined, context?: CodecContext): Wire | undefined {
  const { $responseJsonSchema, $responseSchema, $mime, $level, $thinking, $noInclude, ...rest } = kept ?? {};
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
  if (sampling?.logitBias !== undefined) reportLoss(context, { code: 'dropped-field', path: 'sampling.logitBias', message: 'Gemini has no logit bias', protocol: PROTOCOL });

  const format = request.responseFormat;
  if (format?.type === 'json-schema') {
    if ($mime !== null) config.responseMimeType = typeof $mime === 'string' ? $mime : 'application/json';
    if ($responseSchema !== undefined) config.responseSchema = $responseSchema;
    else config.responseJsonSchema = $responseJsonSchema ? format.schema : toGeminiJsonSchema(format.schema, context, 'responseFormat.schema');
    if (format.name !== undefined) reportLoss(context, { code: 'dropped-field', path: 'responseFormat.name', message: 'Gemini takes no schema name', protocol: PROTOCOL });
    if (format.description !== undefined) reportLoss(context, { code: 'dropped-field', path: 'responseFormat.description', message: 'Gemini takes no schema description', protocol: PROTOCOL });
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
        const level = reasoning.effort === 'none' ? 'MINIMAL' : reasoning.effort === 'xhigh' || reasoning.effort === 'max' ? 'HIGH' : reasoning.effort.toUpperCase();
        if (reasoning.effort === 'none') {
          reportLoss(context, { code: 'lossy-conversion', path: 'reasoning.effort', message: 'Gemini 3 cannot turn thinking off; the lowest level (MINIMAL) was used', protocol: PROTOCOL });
        }
        thinking.thinkingLevel = typeof $level === 'string' ? $level : level;
      } else thinking.thinkingBudget = effortToBudget(reasoning.effort);
    } else if (reasoning.budgetTokens !== undefined) {
      // Gemini 3 still accepts a budget (the server maps it to a level).
      thinking.thinkingBudget = reasoning.budgetTokens;
    } else if (reasoning.enabled === false) thinking.thinkingBudget = 0;
    else if (reasoning.adaptive) thinking.thinkingBudget = -1;
    if ($thinking) Object.assign(thinking, $thinking);
    if (Object.keys(thinking).length > 0) config.thinkingConfig = thinking;
  }
  Object.assign(config, rest);
  // A request that sent an empty generationConfig gets one back.
  return Object.keys(config).length > 0 || kept !== undefined ? config : undefined;
}
