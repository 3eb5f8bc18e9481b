/**
 * Wire shapes of the OpenAI Responses API (`POST /v1/responses`), as far as this codec reads
 * them. Field names are the wire's own. Fields not listed here are kept by the codec in the
 * extensions bag and written back on same-protocol encodes. The shapes name fields only (no index
 * signature), so every value typed with the `openai` SDK's interfaces is assignable to them
 * (checked in test/wire-types.test-d.ts).
 *
 * @see https://platform.openai.com/docs/api-reference/responses
 */

/** Any JSON object on the wire (items and parts carry many optional fields). */
export type OpenAIResponsesObject = { [key: string]: unknown };

/** One item of `input` / `output`: a message, a tool call or output, reasoning, a built-in item. */
export interface OpenAIResponsesItem {
  /** Item type; may be omitted (or null on `item_reference`) for input items. */
  type?: string | null;
  id?: string | null;
}

/** A content part of a message item (`input_text`, `input_image`, `output_text`, `refusal`, ...). */
export interface OpenAIResponsesContentPart {
  type: string;
}

/** A tool definition (`function` flat shape, `custom`, or a built-in tool). */
export interface OpenAIResponsesTool {
  type: string;
}

/**
 * The request body of `POST /v1/responses`.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export interface OpenAIResponsesRequest {
  model?: string;
  input?: string | OpenAIResponsesItem[];
  instructions?: string | null;
  tools?: OpenAIResponsesTool[];
  tool_choice?: string | { type: string };
  parallel_tool_calls?: boolean | null;
  max_output_tokens?: number | null;
  max_tool_calls?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  top_logprobs?: number | null;
  reasoning?: { effort?: string | null; summary?: string | null } | null;
  text?: { format?: { type: string }; verbosity?: string | null };
  store?: boolean | null;
  previous_response_id?: string | null;
  metadata?: Record<string, string> | null;
  safety_identifier?: string | null;
  prompt_cache_key?: string | null;
  service_tier?: string | null;
  stream?: boolean | null;
}

/** Token usage of a response. @see https://platform.openai.com/docs/api-reference/responses/object */
export interface OpenAIResponsesUsage {
  input_tokens: number;
  input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  output_tokens: number;
  output_tokens_details?: { reasoning_tokens?: number };
  total_tokens?: number;
}

/** The response object. @see https://platform.openai.com/docs/api-reference/responses/object */
export interface OpenAIResponsesResponse {
  id: string;
  object: 'response';
  created_at: number;
  status?: string;
  model: string;
  output: OpenAIResponsesItem[];
  usage?: OpenAIResponsesUsage | null;
  incomplete_details?: { reason?: string } | null;
  error?: { code?: string; message?: string } | null;
}

/** The data payload of one SSE event (`type`, `sequence_number` and the event's fields). */
export interface OpenAIResponsesStreamEvent {
  type: string;
  sequence_number?: number;
}

/** The HTTP error body. @see https://platform.openai.com/docs/guides/error-codes */
export interface OpenAIResponsesErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** The wire types of this codec, for `Codec<OpenAIResponsesWireTypes>`. */
export interface OpenAIResponsesWireTypes {
  request: OpenAIResponsesRequest;
  response: OpenAIResponsesResponse;
  streamEvent: OpenAIResponsesStreamEvent;
  error: OpenAIResponsesErrorBody;
}
