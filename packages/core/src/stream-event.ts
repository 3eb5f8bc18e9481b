import type { LlmCodeExecutionPart, LlmCodeExecutionResultPart } from './code-execution.js';
import type { LlmAudioPart, LlmCitation, LlmFilePart, LlmImagePart, LlmProviderPart } from './content.js';
import type { LlmError } from './errors.js';
import type { LlmMcpAssistantPart } from './mcp.js';
import type { Extensions } from './extensions.js';
import type { LlmFinishReason } from './finish-reason.js';
import type { LlmOrigin } from './protocol.js';
import type { LlmTokenLogprob } from './response.js';
import type { LlmUsage } from './usage.js';

/**
 * What a block holds, announced by `block-start`.
 * - `text`, `refusal`: filled by `text-delta`.
 * - `reasoning`: filled by `reasoning-delta`; opaque state by `reasoning-signature`. A redacted
 *   block (Claude `redacted_thinking`) carries its data in `signature` from the start.
 * - `tool_call`: filled by `tool-args-delta` (JSON text fragments, or raw text when `freeform`).
 * - `part`: a part that does not stream (generated media, a provider-specific item such as a
 *   server tool call, an MCP list / call / result / approval request, a code run or its result),
 *   complete at start.
 */
export type LlmBlockStart =
  | { kind: 'text' }
  | { kind: 'refusal' }
  | {
      kind: 'reasoning';
      format?: 'full' | 'summary';
      id?: string;
      redacted?: boolean;
      signature?: string;
      origin?: LlmOrigin;
    }
  | { kind: 'tool_call'; id: string; name: string; freeform?: boolean; signature?: string; origin?: LlmOrigin }
  | {
      kind: 'part';
      part: LlmImagePart | LlmAudioPart | LlmFilePart | LlmProviderPart | LlmMcpAssistantPart | LlmCodeExecutionPart | LlmCodeExecutionResultPart;
    };

/**
 * One canonical stream event. A stream is
 * `start` → (`block-start` → deltas → `block-end`)* → `finish`, with `usage` anywhere after
 * `start` and `error` ending it at any point.
 *
 * Rules every decoder keeps and every encoder may rely on:
 * - `index` numbers blocks from 0 in the order they start, across all choices; every delta names
 *   an open block; every block that starts also ends (before `finish`).
 * - `choice` (default 0) says which answer a block belongs to when a response has several.
 * - Exactly one `finish` per choice, after that choice's blocks. `finish.usage`, when set, is
 *   the final cumulative usage; decoders hold `finish` back until they know it.
 * - `error` is terminal: nothing follows it.
 */
export type LlmStreamEvent =
  | {
      type: 'start';
      /** Response id. */
      id?: string;
      model?: string;
      /** Unix seconds. */
      created?: number;
      /** Processing tier used. */
      serviceTier?: string;
      /** Response-level wire fields for same-protocol round trips. */
      extensions?: Extensions;
    }
  | { type: 'block-start'; index: number; block: LlmBlockStart; choice?: number }
  | { type: 'text-delta'; index: number; text: string }
  | { type: 'reasoning-delta'; index: number; text: string }
  /**
   * Opaque state for a block: a Claude thinking signature, a Responses `encrypted_content`, or a
   * Gemini `thoughtSignature` (Gemini signs any part, so this may target text and tool_call
   * blocks too). The last one for a block wins.
   */
  | { type: 'reasoning-signature'; index: number; signature: string; origin?: LlmOrigin }
  | { type: 'tool-args-delta'; index: number; json: string }
  /** A citation for a text block (Claude `citations_delta`, OpenAI annotations). */
  | { type: 'citation'; index: number; citation: LlmCitation }
  /** Log-probabilities of tokens of a text block, appended to its choice's `logprobs`. */
  | { type: 'logprobs'; index: number; logprobs: LlmTokenLogprob[] }
  /** Ends a block; `extensions` are merged into the finished part. */
  | { type: 'block-end'; index: number; extensions?: Extensions }
  | { type: 'usage'; usage: LlmUsage }
  | {
      type: 'finish';
      reason: LlmFinishReason;
      /** The wire's own value. */
      rawReason?: string;
      /** Final cumulative usage. */
      usage?: LlmUsage;
      choice?: number;
      stopSequence?: string;
      extensions?: Extensions;
    }
  | { type: 'error'; error: LlmError };

/** The `type` of a stream event. */
export type LlmStreamEventType = LlmStreamEvent['type'];
