import type { LlmTokenLogprob } from '@llm/core';
import { read } from './protocol.js';

type Wire = Record<string, unknown>;

/** `logprobsResult` -> canonical token logprobs. */
export function decodeLogprobs(value: unknown, path: string): LlmTokenLogprob[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const result = value as { chosenCandidates?: unknown[]; topCandidates?: unknown[] };
  if (!Array.isArray(result.chosenCandidates)) return undefined;
  const tokenOf = (list: readonly unknown[], at: number, parent: string): LlmTokenLogprob => {
    const entry = read.object(list, at, parent);
    const itemPath = `${parent}[${at}]`;
    return { token: read.optionalString(entry, 'token', itemPath) ?? '', logprob: read.optionalNumber(entry, 'logProbability', itemPath) ?? 0 };
  };
  const tops = Array.isArray(result.topCandidates) ? result.topCandidates : [];
  return result.chosenCandidates.map((_, at, chosen) => {
    const token = tokenOf(chosen, at, `${path}.chosenCandidates`);
    const top = tops[at];
    const list = typeof top === 'object' && top !== null ? (top as Wire).candidates : undefined;
    if (Array.isArray(list)) token.top = list.map((_item, rank) => tokenOf(list, rank, `${path}.topCandidates[${at}].candidates`));
    return token;
  });
}

/** Canonical token logprobs -> `logprobsResult` (chosen tokens, and the alternatives at each step when known). */
export function encodeLogprobs(logprobs: readonly LlmTokenLogprob[]): Wire {
  const chosenCandidates = logprobs.map((token) => ({ token: token.token, logProbability: token.logprob }));
  if (!logprobs.some((token) => token.top)) return { chosenCandidates };
  const topCandidates = logprobs.map((token) => ({ candidates: (token.top ?? []).map((top) => ({ token: top.token, logProbability: top.logprob })) }));
  return { topCandidates, chosenCandidates };
}
