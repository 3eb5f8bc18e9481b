import type { LlmCacheHint } from './content.js';
import type { WithExtensions } from './extensions.js';
import type { JsonSchema } from './json.js';
import type { LlmMcpTool } from './mcp.js';
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

/** Approximate location of the user, to localise hosted web search results. */
export interface LlmUserLocation {
  city?: string;
  /** Region or state. */
  region?: string;
  /** Two-letter ISO country code. */
  country?: string;
  /** IANA time zone (`Europe/Paris`). */
  timezone?: string;
}

/**
 * Web search run by the provider (Claude `web_search_*`, Responses `web_search` /
 * `web_search_preview`, Gemini `googleSearch`, Chat `web_search_options`). Each setting is
 * written where the target has it and reported as a dropped field where it has not; wire fields
 * of one protocol alone stay in that codec's extension bag.
 */
export interface LlmWebSearchTool extends WithExtensions {
  type: 'web_search';
  /** The name the model calls it by: always `web_search` (Claude's fixed name). */
  name: string;
  /** Most searches in one request (Claude `max_uses`). */
  maxUses?: number;
  /** Search only these domains (Claude `allowed_domains`, Responses `filters.allowed_domains`). */
  allowedDomains?: string[];
  /** Never search these domains (Claude `blocked_domains`, Gemini `excludeDomains`). */
  blockedDomains?: string[];
  /** Where the user is (Claude, Responses and Chat `user_location`). */
  userLocation?: LlmUserLocation;
  /** How much retrieved context the model gets (Responses and Chat `search_context_size`). */
  contextSize?: 'low' | 'medium' | 'high';
}

/**
 * Code execution run by the provider in its sandbox (Claude `code_execution_*`, Responses
 * `code_interpreter`, Gemini `codeExecution`); Chat has none. Its settings are one protocol's
 * alone (a Responses container, Claude callers) and stay in that codec's extension bag.
 */
export interface LlmCodeExecutionTool extends WithExtensions {
  type: 'code_execution';
  /** The name the model calls it by: always `code_execution` (Claude's fixed name). */
  name: string;
}

/** A tool definition. */
export type LlmTool = LlmFunctionTool | LlmCustomTool | LlmWebSearchTool | LlmCodeExecutionTool | LlmMcpTool | LlmProviderTool;

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
