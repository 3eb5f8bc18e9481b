/**
 * Wire shapes of the Anthropic Messages API (`POST /v1/messages`) as this codec reads and writes
 * them. Names are the wire's own; fields not modelled here are kept by the codec in the
 * extensions bag and written back on same-protocol encodes. test/wire-types.test-d.ts checks them
 * against `@anthropic-ai/sdk`.
 *
 * @see https://docs.anthropic.com/en/api/messages
 */

/** Any JSON object on the wire. */
export type ClaudeObject = { [key: string]: unknown };

/** `cache_control` on a block, a tool or the whole request. */
export interface ClaudeCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

/** A citation on a text block (`char_location`, `page_location`, `web_search_result_location`, ...). */
export interface ClaudeCitation extends ClaudeObject {
  type: string;
  cited_text?: string;
}

/** `text` block. */
export interface ClaudeTextBlock {
  type: 'text';
  text: string;
  citations?: ClaudeCitation[] | null;
  cache_control?: ClaudeCacheControl | null;
}

/** Source of an `image` / `document` block. */
export type ClaudeSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'file'; file_id: string }
  | { type: 'text'; media_type: 'text/plain'; data: string }
  | { type: 'content'; content: unknown };

/** `image` block. */
export interface ClaudeImageBlock {
  type: 'image';
  source: ClaudeSource;
  cache_control?: ClaudeCacheControl | null;
}

/** `document` block. */
export interface ClaudeDocumentBlock {
  type: 'document';
  source: ClaudeSource;
  title?: string | null;
  context?: string | null;
  citations?: { enabled?: boolean } | null;
  cache_control?: ClaudeCacheControl | null;
}

/** `thinking` block. */
export interface ClaudeThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/** `redacted_thinking` block. */
export interface ClaudeRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/** `tool_use` block: a call to a client tool. */
export interface ClaudeToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  cache_control?: ClaudeCacheControl | null;
}

/** `tool_result` block, first in a user message. */
export interface ClaudeToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<ClaudeTextBlock | ClaudeImageBlock | ClaudeDocumentBlock | ClaudeOtherBlock>;
  is_error?: boolean;
  cache_control?: ClaudeCacheControl | null;
}

/**
 * Any other block (`server_tool_use`, `web_search_tool_result`, `search_result`,
 * `mcp_tool_use`, `container_upload`, `compaction`, ...): kept whole.
 */
export interface ClaudeOtherBlock extends ClaudeObject {
  type: string;
}

/** A content block of a request message. */
export type ClaudeContentBlock =
  | ClaudeTextBlock
  | ClaudeImageBlock
  | ClaudeDocumentBlock
  | ClaudeThinkingBlock
  | ClaudeRedactedThinkingBlock
  | ClaudeToolUseBlock
  | ClaudeToolResultBlock;

/** A message of `messages`. */
export interface ClaudeMessage {
  role: 'user' | 'assistant' | 'system';
  content: string | Array<ClaudeContentBlock | ClaudeOtherBlock>;
}

/** A client tool (`input_schema`) or an Anthropic-defined / server tool (versioned `type`). */
export interface ClaudeTool extends ClaudeObject {
  name: string;
  type?: string;
  description?: string;
  input_schema?: ClaudeObject;
  strict?: boolean;
  cache_control?: ClaudeCacheControl | null;
}

/** `tool_choice`. */
export type ClaudeToolChoice =
  | { type: 'auto'; disable_parallel_tool_use?: boolean }
  | { type: 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

/** `thinking`. */
export type ClaudeThinkingConfig =
  | { type: 'enabled'; budget_tokens: number; display?: 'summarized' | 'omitted' | null }
  | { type: 'adaptive'; display?: 'summarized' | 'omitted' | null }
  | { type: 'disabled' };

/** The request body of `POST /v1/messages`. */
export interface ClaudeRequest extends ClaudeObject {
  model: string;
  max_tokens: number;
  messages: ClaudeMessage[];
  system?: string | ClaudeTextBlock[];
  stop_sequences?: string[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  thinking?: ClaudeThinkingConfig;
  output_config?: { effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max' | null; format?: { type: 'json_schema'; schema: ClaudeObject } | null };
  tools?: ClaudeTool[];
  tool_choice?: ClaudeToolChoice;
  metadata?: { user_id?: string | null };
  cache_control?: ClaudeCacheControl | null;
  service_tier?: 'auto' | 'standard_only';
}

/** `usage` of a response (and, cumulative, of `message_delta`). */
export interface ClaudeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number } | null;
  server_tool_use?: { web_search_requests: number; web_fetch_requests?: number } | null;
  output_tokens_details?: { thinking_tokens: number } | null;
  service_tier?: 'standard' | 'priority' | 'batch' | null;
  inference_geo?: string | null;
}

/** Why generation stopped. */
export type ClaudeStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded';

/** A content block of a response. */
export type ClaudeResponseBlock = ClaudeTextBlock | ClaudeThinkingBlock | ClaudeRedactedThinkingBlock | ClaudeToolUseBlock | ClaudeOtherBlock;

/** The response body of `POST /v1/messages`. */
export interface ClaudeResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ClaudeResponseBlock[];
  stop_reason: ClaudeStopReason | null;
  stop_sequence: string | null;
  usage: ClaudeUsage;
  [key: string]: unknown;
}

/** `delta` of a `content_block_delta` event. */
export type ClaudeDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'citations_delta'; citation: ClaudeCitation };

/** One SSE event's data (its `type` is also the SSE `event:` name). */
export type ClaudeStreamEvent =
  | { type: 'message_start'; message: ClaudeResponse }
  | { type: 'content_block_start'; index: number; content_block: ClaudeResponseBlock }
  | { type: 'content_block_delta'; index: number; delta: ClaudeDelta }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason: ClaudeStopReason | null; stop_sequence: string | null; [key: string]: unknown };
      usage: Partial<ClaudeUsage> & { output_tokens: number };
    }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error: { type: string; message: string } };

/** Error body: `{type:"error", error:{type, message}, request_id?}`. */
export interface ClaudeErrorBody {
  type: 'error';
  error: { type: string; message: string; details?: unknown };
  request_id?: string;
}

/** The wire types of this codec (for `Codec<ClaudeWireTypes>`). */
export interface ClaudeWireTypes {
  request: ClaudeRequest;
  response: ClaudeResponse;
  streamEvent: ClaudeStreamEvent;
  error: ClaudeErrorBody;
}
