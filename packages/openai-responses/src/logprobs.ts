import type { LlmAssistantContent, LlmChoice, LlmRequest, LlmTokenLogprob } from '@llm/core';
import { PROTOCOL, ext } from './protocol.js';

type Wire = Record<string, unknown>;

/** The `include` entry that asks for the answer's token logprobs. */
export const LOGPROBS_INCLUDE = 'message.output_text.logprobs';

/**
 * Request `include` -> canonical logprobs: the logprobs entry turns them on (with
 * `top_logprobs`, read by the caller, as the alternatives); the other entries stay in the bag,
 * with the entry's position, so a Responses round trip is exact.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-include
 */
export function decodeLogprobsInclude(request: LlmRequest, bag: Wire): void {
  const include = bag.include;
  if (!Array.isArray(include)) return;
  const at = include.indexOf(LOGPROBS_INCLUDE);
  if (at < 0) return;
  request.logprobs ??= {};
  const rest = include.filter((_, index) => index !== at);
  if (rest.length > 0) bag.include = rest;
  else delete bag.include;
  bag.$logprobsAt = at;
}

/** Canonical logprobs -> the `include` entry, where the request had it (else last). */
export function encodeLogprobsInclude(request: LlmRequest, body: Wire): void {
  if (request.logprobs === undefined) return;
  const include = Array.isArray(body.include) ? [...(body.include as unknown[])] : [];
  if (include.includes(LOGPROBS_INCLUDE)) return;
  const at = ext.bag(request)?.$logprobsAt;
  include.splice(typeof at === 'number' ? at : include.length, 0, LOGPROBS_INCLUDE);
  body.include = include;
}

/**
 * The token logprobs of an answer's `output_text` parts (kept whole in each part's bag for a
 * Responses round trip) as the choice's canonical logprobs, marked so that encode writes them
 * only once. Empty lists are none.
 */
export function decodeAnswerLogprobs(content: readonly LlmAssistantContent[], choice: LlmChoice): void {
  let tokens: LlmTokenLogprob[] | undefined;
  for (const part of content) {
    const list = part.type === 'text' ? ext.bag(part)?.logprobs : undefined;
    if (!Array.isArray(list)) continue;
    (tokens ??= []).push(...logprobsFromWire(list as Wire[]));
  }
  // The API writes `logprobs: []` on every part when none were asked for: no logprobs, nothing a target could lose.
  if (!tokens?.length) return;
  choice.logprobs = tokens;
  (((choice.extensions ??= {})[PROTOCOL] ??= {}) as Wire).$partLogprobs = true;
}

/** Canonical logprobs of an answer from elsewhere -> `logprobs` on its first `output_text` part. */
export function encodeAnswerLogprobs(choice: LlmChoice, output: readonly unknown[]): void {
  if (!choice.logprobs || ext.bag(choice)?.$partLogprobs) return;
  for (const item of output as Wire[]) {
    if (item.type !== 'message' || !Array.isArray(item.content)) continue;
    const part = (item.content as Wire[]).find((entry) => entry.type === 'output_text');
    if (!part) continue;
    part.logprobs = logprobsToWire(choice.logprobs);
    return;
  }
}

/** Canonical token logprobs -> `output_text.logprobs` (Responses always says `bytes`). */
export function logprobsToWire(tokens: readonly LlmTokenLogprob[]): Wire[] {
  return tokens.map((token) => ({
    token: token.token,
    bytes: token.bytes ?? [],
    logprob: token.logprob,
    top_logprobs: (token.top ?? []).map((top) => ({ token: top.token, bytes: top.bytes ?? [], logprob: top.logprob })),
  }));
}

/** `output_text.logprobs` -> canonical token logprobs. */
export function logprobsFromWire(list: readonly Wire[]): LlmTokenLogprob[] {
  return list.map((entry) => tokenOf(entry, true));
}

function tokenOf(entry: Wire, withTop: boolean): LlmTokenLogprob {
  const token: LlmTokenLogprob = { token: typeof entry.token === 'string' ? entry.token : '', logprob: typeof entry.logprob === 'number' ? entry.logprob : 0 };
  if (Array.isArray(entry.bytes)) token.bytes = entry.bytes as number[];
  if (withTop && Array.isArray(entry.top_logprobs))
    token.top = (entry.top_logprobs as Wire[]).map((top) => tokenOf(top, false) as { token: string; logprob: number; bytes?: number[] });
  return token;
}
