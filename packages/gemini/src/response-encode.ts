import type { CodecContext, LlmChoice, LlmResponse } from '@llm/core';
import { ext } from './protocol.js';
import { encodeFinishReason } from './finish-reason.js';
import { groundingMetadataOf, type CitedText } from './grounding.js';
import { encodePart } from './parts-encode.js';
import type { GeminiCandidate, GeminiResponse } from './wire-types.js';
import { encodeUsage } from './usage.js';
import { encodeLogprobs } from './logprobs.js';

type Wire = Record<string, unknown>;

/** A canonical choice -> a candidate. */
export function encodeCandidate(choice: LlmChoice, position: number, context: CodecContext | undefined, model: string, responseId?: string): GeminiCandidate {
  const bag = ext.bag(choice);
  const out: Wire = {};
  if (!bag?.$noContent) {
    const parts: Wire[] = [];
    const options = { context, model, callNames: new Map<string, string>(), response: true, responseId };
    // Citations of an answer from elsewhere become grounding (Gemini's own comes back from the bag).
    const cited: CitedText[] | undefined = bag?.groundingMetadata === undefined ? [] : undefined;
    choice.content.forEach((part, at) => {
      const path = `choices[${position}].content[${at}]`;
      const encoded = encodePart(part, path, options);
      if (!encoded) return;
      if (cited && part.type === 'text' && part.citations?.length) cited.push({ text: part.text, citations: part.citations, partIndex: parts.length, path });
      parts.push(encoded);
    });
    const grounding = cited?.length ? groundingMetadataOf(cited, context) : undefined;
    if (grounding) out.groundingMetadata = grounding;
    out.content = {
      ...(bag?.$noParts && parts.length === 0 ? {} : { parts }),
      ...(bag?.$noRole ? {} : { role: 'model' }),
      ...(bag?.$content as Wire | undefined),
    };
  }
  if (choice.finishReason !== undefined)
    out.finishReason = encodeFinishReason(
      choice.finishReason,
      choice.rawFinishReason,
      choice.content.some((part) => part.type === 'refusal'),
    );
  if (!bag?.$noIndex) out.index = choice.index;
  // Gemini's own logprobsResult comes back from the bag.
  if (choice.logprobs && bag?.logprobsResult === undefined) out.logprobsResult = encodeLogprobs(choice.logprobs);
  ext.writeRest(out, choice);
  return out as GeminiCandidate;
}

/** Canonical response -> response body. */
export function encodeResponse(response: LlmResponse, context?: CodecContext): GeminiResponse {
  const bag = ext.bag(response);
  const out: Wire = {};
  const blocked = bag?.$noCandidates && response.choices.length === 1 && response.choices[0]!.content.length === 0;
  if (!blocked) out.candidates = response.choices.map((choice, position) => encodeCandidate(choice, position, context, response.model, response.id));
  if (response.usage) out.usageMetadata = encodeUsage(response.usage);
  if (!bag?.$noModel) out.modelVersion = response.model;
  if (!bag?.$noId) out.responseId = response.id;
  ext.writeRest(out, response);
  return out as GeminiResponse;
}
