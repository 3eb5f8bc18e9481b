import type { LlmCacheHint } from './content.js';
import type { WithExtensions } from './extensions.js';
import type { JsonSchema } from './json.js';
import type { ProtocolId } from './protocol.js';

/** A client-side function the model may call, described by a JSON Schema. */
export interface LlmFunctionTool extends WithExtensions {
  type: 'function';
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. `undefined` when the wire had none (no arguments). */
  parameters?: JsonSchema;
  /** Ask the provider to enforce the schema exactly (OpenAI / Claude `strict`). */
  strict?: boolean;
  /** Cache breakpoint after this tool (Claude `cache_control`). */
  cache?: LlmCacheHint;
}

/**
 * A free-form tool whose input is plain text, optionally constrained by a grammar (OpenAI
 * `custom` tools). Targets with only JSON functions receive it as a function taking one string.
 */
export interface LlmCustomTool extends WithExtensions {
  type: 'custom';
  name: string;
  description?: string;
  /** The wire `format` (`{type:"text"}` or a grammar), kept as sent. */
  format?: unknown;
}

/**
 * A tool run by the provider itself (web search, code execution, MCP, file search, ...), kept in
 * its wire shape: meaningful only to `protocol`, reported as a loss elsewhere.
 */
export interface LlmProviderTool extends WithExtensions {
  type: 'provider';
  protocol: ProtocolId;
  /** The wire tool's name or type (`web_search_20250305`, `googleSearch`, `mcp`). */
  name: string;
  /** The whole wire tool definition. */
  value: unknown;
}

/** A tool definition. */
export type LlmTool = LlmFunctionTool | LlmCustomTool | LlmProviderTool;

/**
 * Which tools the model may or must call.
 * - `auto`: the model decides. `none`: no tool calls. `required`: at least one call.
 * - `tool`: exactly this tool.
 * - `allowed`: only these tools; `mode` says whether a call is optional (`auto`) or required.
 */
export type LlmToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  | { type: 'required' }
  | { type: 'tool'; name: string }
  | { type: 'allowed'; names: string[]; mode: 'auto' | 'required' };
