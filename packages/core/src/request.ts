import type { WithExtensions } from './extensions.js';
import type { JsonSchema } from './json.js';
import type { LlmMessage } from './messages.js';
import type { LlmReasoningConfig } from './reasoning.js';
import type { LlmTool, LlmToolChoice } from './tools.js';

/**
 * What the output must look like.
 * - `text`: free text (the default).
 * - `json`: any JSON object (OpenAI `json_object`, Gemini `responseMimeType: application/json`).
 * - `json-schema`: JSON matching `schema`.
 */
export type LlmResponseFormat =
  | { type: 'text' }
  | { type: 'json' }
  | { type: 'json-schema'; schema: JsonSchema; name?: string; description?: string; strict?: boolean };

/** Sampling controls. Each is `undefined` unless the client set it. */
export interface LlmSampling {
  temperature?: number;
  topP?: number;
  topK?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  seed?: number;
  /** Token id -> bias (OpenAI `logit_bias`). */
  logitBias?: Record<string, number>;
}

/** Log-probability output. */
export interface LlmLogprobsOptions {
  /** Number of most likely alternatives per token (0 = only the chosen token). */
  top?: number;
}

/** A request to generate, in canonical form. */
export interface LlmRequest extends WithExtensions {
  /** Model name as the client asked for it (the router may rewrite it). */
  model: string;
  /** The conversation, system instructions included (see {@link LlmSystemMessage}). */
  messages: LlmMessage[];
  tools?: LlmTool[];
  toolChoice?: LlmToolChoice;
  /** `false` asks for at most one tool call per turn (Claude `disable_parallel_tool_use`). */
  parallelToolCalls?: boolean;
  /** Upper bound on generated tokens (reasoning included where the provider counts it so). */
  maxOutputTokens?: number;
  /** Upper bound on built-in tool calls (OpenAI Responses `max_tool_calls`). */
  maxToolCalls?: number;
  sampling?: LlmSampling;
  /** Stop sequences. */
  stop?: string[];
  /** Number of alternative answers (OpenAI `n`, Gemini `candidateCount`). */
  candidateCount?: number;
  /** Ask for log-probabilities of the output tokens. */
  logprobs?: LlmLogprobsOptions;
  responseFormat?: LlmResponseFormat;
  reasoning?: LlmReasoningConfig;
  /** Answer length hint (OpenAI `verbosity`). */
  verbosity?: 'low' | 'medium' | 'high';
  /** Stream the answer. */
  stream?: boolean;
  /** Include usage in the stream (OpenAI `stream_options.include_usage`). */
  streamUsage?: boolean;
  /** Key that groups requests sharing a prompt prefix (OpenAI `prompt_cache_key`). */
  promptCacheKey?: string;
  /** Request-wide cache breakpoint (Claude top-level `cache_control`). */
  cache?: { ttl?: '5m' | '1h' };
  /** Stable end-user id for abuse detection (OpenAI `safety_identifier` / `user`, Claude `metadata.user_id`). */
  user?: string;
  /** Free-form key/value metadata (OpenAI `metadata`, Gemini `labels`). */
  metadata?: Record<string, string>;
  /** Processing tier (`auto`, `default`, `flex`, `priority`, `standard_only`, ...), as the client wrote it. */
  serviceTier?: string;
  /** Let the provider store the request / response (OpenAI `store`). */
  store?: boolean;
  /** Continue a stored OpenAI Responses conversation. */
  previousResponseId?: string;
}
