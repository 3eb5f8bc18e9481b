import type { JsonSchema, LlmReasoningEffort, LlmRequest } from '@llm/core';
import { read } from './protocol.js';
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
    if (!Array.isArray(stop) || !stop.every((item) => typeof item === 'string'))
      read.invalid(camel(config, 'stopSequences'), 'stopSequences', 'generationConfig', 'an array of strings');
    request.stop = stop as string[];
  }

  const mime = field(config, 'responseMimeType');
  const jsonSchema = field(config, 'responseJsonSchema');
  const openApi = field(config, 'responseSchema');
  if (jsonSchema !== undefined || openApi !== undefined) {
    const schema =
      jsonSchema !== undefined
        ? (read.object(camel(config, 'responseJsonSchema'), 'responseJsonSchema', 'generationConfig') as JsonSchema)
        : fromCheckedGeminiSchema(openApi);
    request.responseFormat = { type: 'json-schema', schema };
    kept = { ...kept, ...(jsonSchema !== undefined ? { $responseJsonSchema: true } : { $responseSchema: openApi }) };
    if (mime !== 'application/json') kept.$mime = mime ?? null;
  } else if (mime === 'application/json') request.responseFormat = { type: 'json' };
  else if (mime === 'text/plain') request.responseFormat = { type: 'text' };
  else if (mime !== undefined) kept = { ...kept, responseMimeType: mime };

  const responseLogprobs = field(config, 'responseLogprobs');
  const top = number(config, 'logprobs');
  if (responseLogprobs === true) request.logprobs = top !== undefined ? { top } : {};
  else if (responseLogprobs !== undefined || top !== undefined)
    kept = { ...kept, ...(responseLogprobs !== undefined ? { responseLogprobs } : {}), ...(top !== undefined ? { logprobs: top } : {}) };

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
      // A Gemini client's own budget goes back as sent; another protocol's is fitted to the model's range.
      if (budget !== -1) kept = { ...kept, $budget: budget };
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
