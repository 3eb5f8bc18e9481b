/**
 * Wire shapes of the OpenAI Responses API (`POST /v1/responses`), as far as this codec reads
 * them. Field names are the wire's own. Fields not listed here are kept by the codec in the
 * extensions bag and written back on same-protocol encodes.
 *
 * @see https://platform.openai.com/docs/api-reference/responses
 */

/** Any JSON object on the wire (items and parts carry many optional fields). */
export type OpenAIResponsesObject = { [key: string]: unknown };

/** One item of `input` / `output`: a message, a tool call or output, reasoning, a built-in item. */
export interface OpenAIResponsesItem extends OpenAIResponsesObject {
  /** Item type; may be omitted for `message` items on input. */
  type?: string;
  id?: string;
}

/** A content part of a message item (`input_text`, `input_image`, `output_text`, `refusal`, ...). */
export interface OpenAIResponsesContentPart extends OpenAIResponsesObject {
  type: string;
}

/** A tool definition (`function` flat shape, `custom`, or a built-in tool). */
export interface OpenAIResponsesTool extends OpenAIResponsesObject {
  type: string;
}

/**
 * The request body of `POST /v1/responses`.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export interface OpenAIResponsesRequest extends OpenAIResponsesObject {
  model?: string;
  input?: string | OpenAIResponsesItem[];
  instructions?: string | null;
  tools?: OpenAIResponsesTool[];
  tool_choice?: string | OpenAIResponsesObject;
  parallel_tool_calls?: boolean | null;
  max_output_tokens?: number | null;
  max_tool_calls?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  top_logprobs?: number | null;
  reasoning?: { effort?: string | null; summary?: string | null } & OpenAIResponsesObject;
  text?: { format?: OpenAIResponsesObject; verbosity?: string | null } & OpenAIResponsesObject;
  store?: boolean | null;
  previous_response_id?: string | null;
  metadata?: Record<string, string> | null;
  safety_identifier?: string;
  prompt_cache_key?: string;
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
export interface OpenAIResponsesResponse extends OpenAIResponsesObject {
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
export interface OpenAIResponsesStreamEvent extends OpenAIResponsesObject {
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
