import { isJsonObject, type CodecContext, type LlmAssistantContent, type LlmChoice, type LlmResponse } from '@llm/core';
import { CallIds } from './call-ids.js';
import { PROTOCOL, ext, read } from './protocol.js';
import { decodeFinishReason } from './finish-reason.js';
import { citeGrounding } from './grounding.js';
import { asAssistantContent, decodePart, type PartDecodeContext } from './parts-decode.js';
import { unknownFields } from './read.js';
import { decodeUsage } from './usage.js';
import { decodeLogprobs } from './logprobs.js';

type Wire = Record<string, unknown>;

const KNOWN = new Set(['candidates', 'usageMetadata', 'modelVersion', 'responseId']);
const CANDIDATE_KNOWN = new Set(['content', 'finishReason', 'index']);
const CONTENT_KNOWN = new Set(['parts', 'role']);

/** A fresh prefix for the ids of calls Gemini sent without one. */
export function callIdPrefix(responseId: string | undefined): string {
  return `call_${responseId ?? crypto.randomUUID().replace(/-/g, '').slice(0, 16)}_`;
}

/** One candidate -> a canonical choice. */
export function decodeCandidate(candidates: readonly unknown[], position: number, context: PartDecodeContext): LlmChoice {
  const candidate = read.object(candidates, position, 'candidates');
  const path = `candidates[${position}]`;
  const bag: Wire = { ...unknownFields(candidate, CANDIDATE_KNOWN) };
  const index = read.optionalInteger(candidate, 'index', path);
  const choice: LlmChoice = { index: index ?? position, content: [] };
  if (index === undefined) bag.$noIndex = true;
  if (candidate.content === undefined) bag.$noContent = true;
  else {
    const content = read.object(candidate, 'content', path);
    const rest = unknownFields(content, CONTENT_KNOWN);
    if (rest) bag.$content = rest;
    if (content.role === undefined) bag.$noRole = true;
    if (content.parts === undefined) bag.$noParts = true;
    else {
      const parts = read.array(content, 'parts', `${path}.content`);
      const partsPath = `${path}.content.parts`;
      choice.content = parts.map((_, at): LlmAssistantContent => asAssistantContent(decodePart(parts, at, partsPath, context), partsPath, at));
    }
  }
  const finishReason = read.optionalString(candidate, 'finishReason', path);
  if (finishReason !== undefined) {
    choice.rawFinishReason = finishReason;
    choice.finishReason = decodeFinishReason(
      finishReason,
      choice.content.some((part) => part.type === 'tool-call'),
    );
  }
  const logprobs = decodeLogprobs(candidate.logprobsResult, `${path}.logprobsResult`);
  if (logprobs) choice.logprobs = logprobs;
  if (candidate.groundingMetadata !== undefined) citeGrounding(candidate.groundingMetadata, choice.content);
  return ext.keep(choice, bag);
}

/**
 * `Codec.response.answerFault`: a Gemini answer is an object with a non-empty `candidates` array
 * or, for a blocked prompt only, no candidates and a `promptFeedback.blockReason`
 * (https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse);
 * the path of what is not, else `undefined`. `decodeResponse` holds the same rule.
 */
export function answerFault(wire: unknown): string | undefined {
  if (!isJsonObject(wire)) return '$';
  const candidates = wire.candidates;
  if (Array.isArray(candidates)) return candidates.length > 0 ? undefined : 'candidates';
  const feedback = wire.promptFeedback;
  return candidates === undefined && isJsonObject(feedback) && typeof feedback.blockReason === 'string' ? undefined : 'candidates';
}

/**
 * Response body -> canonical response. A blocked prompt (no candidates, `promptFeedback.
 * blockReason`) is one empty choice finished by `content_filter`; a body with neither candidates
 * nor a block reason is not an answer and throws (as `upstream` through the codec).
 */

export function decodeResponse(body: unknown, context?: CodecContext): LlmResponse {
  const wire = read.body(body);
  // A body is validated whole (streams, whose chunks carry partial usage, are read leniently).
  const id = read.optionalString(wire, 'responseId', '');
  const modelVersion = read.optionalString(wire, 'modelVersion', '');
  const model = modelVersion ?? context?.model ?? '';
  checkUsageMetadata(wire);
  const feedback = wire.promptFeedback === undefined ? undefined : read.object(wire, 'promptFeedback', '');
  const block = feedback ? read.optionalString(feedback, 'blockReason', 'promptFeedback') : undefined;
  const ids = new CallIds(callIdPrefix(id));
  const partContext: PartDecodeContext = { origin: model ? { protocol: PROTOCOL, model } : { protocol: PROTOCOL }, callId: (name) => ids.call(name) };
  const bag: Wire = { ...unknownFields(wire, KNOWN) };
  if (id === undefined) bag.$noId = true;
  if (modelVersion === undefined) bag.$noModel = true;
  let choices: LlmChoice[];
  const candidates = wire.candidates === undefined ? undefined : read.array(wire, 'candidates', '');
  if (candidates === undefined && block !== undefined) {
    bag.$noCandidates = true;
    choices = [{ index: 0, content: [], finishReason: 'content_filter', rawFinishReason: block }];
  } else if (candidates === undefined || candidates.length === 0) {
    // Only a blocked prompt answers without candidates (see GenerateContentResponse above); anything
    // else (`{}`, an error shape with status 200) is not an answer and must not reach a client as an
    // empty one.
    return read.invalid(wire, 'candidates', '', 'at least one candidate, or promptFeedback.blockReason');
  } else choices = candidates.map((_, position) => decodeCandidate(candidates, position, partContext));
  const response: LlmResponse = { id: id ?? '', model, choices };
  const usage = decodeUsage(wire.usageMetadata);
  if (usage) response.usage = usage;
  return ext.keep(response, bag);
}

/** Counts of a response body's `usageMetadata` are numbers (the usage itself is read by decodeUsage). */
function checkUsageMetadata(body: Wire): void {
  if (body.usageMetadata === undefined) return;
  const usage = read.object(body, 'usageMetadata', '');
  for (const key in usage) if (key.endsWith('Count')) read.optionalNumber(usage, key, 'usageMetadata');
}
