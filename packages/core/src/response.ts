import type { LlmAssistantContent } from './content.js';
import type { WithExtensions } from './extensions.js';
import type { LlmFinishReason } from './finish-reason.js';
import type { LlmUsage } from './usage.js';

/** Log-probability of one output token. */
export interface LlmTokenLogprob {
  token: string;
  logprob: number;
  /** UTF-8 bytes of the token, when the provider gives them. */
  bytes?: number[];
  /** The most likely alternatives at this position. */
  top?: Array<{ token: string; logprob: number; bytes?: number[] }>;
}

/** One generated answer. Most responses have exactly one; OpenAI `n` and Gemini candidates more. */
export interface LlmChoice extends WithExtensions {
  /** Position in the response (OpenAI `index`, Gemini candidate `index`). */
  index: number;
  /** What the assistant produced, in order. */
  content: LlmAssistantContent[];
  /** Canonical finish reason; `undefined` only while a stream is still open. */
  finishReason?: LlmFinishReason;
  /** The wire's own finish value (`end_turn`, `STOP`, `incomplete:max_output_tokens`, ...). */
  rawFinishReason?: string;
  /** The stop sequence that ended the turn, when the wire says (Claude `stop_sequence`). */
  stopSequence?: string;
  /** Per-token log-probabilities of the content. */
  logprobs?: LlmTokenLogprob[];
}

/** A complete answer, in canonical form. */
export interface LlmResponse extends WithExtensions {
  /** Provider response id (`chatcmpl-…`, `resp_…`, `msg_…`, Gemini `responseId`). */
  id: string;
  /** Model that answered. */
  model: string;
  /** Unix time in seconds, when the wire gives it. */
  created?: number;
  choices: LlmChoice[];
  usage?: LlmUsage;
  /** Processing tier actually used. */
  serviceTier?: string;
}
