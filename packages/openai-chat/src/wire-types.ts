/**
 * OpenAI Chat Completions wire types, with the wire's own field names.
 * @see https://platform.openai.com/docs/api-reference/chat
 */

/** A content part of a user, system, developer, tool or assistant message. @see https://platform.openai.com/docs/api-reference/chat/create */
export type OpenAIChatContentPart =
  | { type: 'text'; text: string; [key: string]: unknown }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' }; [key: string]: unknown }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' }; [key: string]: unknown }
  | { type: 'file'; file: { file_id?: string; file_data?: string; filename?: string }; [key: string]: unknown }
  | { type: 'refusal'; refusal: string; [key: string]: unknown };

/** An assistant tool call. @see https://platform.openai.com/docs/api-reference/chat/create */
export type OpenAIChatToolCall =
  | { id: string; type: 'function'; function: { name: string; arguments: string } }
  | { id: string; type: 'custom'; custom: { name: string; input: string } };

/** One message of a request. @see https://platform.openai.com/docs/api-reference/chat/create */
export type OpenAIChatMessage =
  | { role: 'system' | 'developer'; content: string | OpenAIChatContentPart[]; name?: string }
  | { role: 'user'; content: string | OpenAIChatContentPart[]; name?: string }
  | {
      role: 'assistant';
      content?: string | OpenAIChatContentPart[] | null;
      refusal?: string | null;
      tool_calls?: OpenAIChatToolCall[];
      function_call?: { name: string; arguments: string } | null;
      name?: string;
      audio?: { id: string } | null;
      /** DeepSeek / xAI / vLLM reasoning text (not an OpenAI field). */
      reasoning_content?: string | null;
      /** OpenRouter reasoning text (not an OpenAI field). */
      reasoning?: string | null;
    }
  | { role: 'tool'; tool_call_id: string; content: string | OpenAIChatContentPart[] }
  | { role: 'function'; name: string; content: string | null };

/** A tool definition. @see https://platform.openai.com/docs/api-reference/chat/create */
export type OpenAIChatTool =
  | {
      type: 'function';
      function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean | null };
    }
  | { type: 'custom'; custom: { name: string; description?: string; format?: unknown } };

/** `tool_choice`. @see https://platform.openai.com/docs/api-reference/chat/create */
export type OpenAIChatToolChoice =
  | 'none'
  | 'auto'
  | 'required'
  | { type: 'function'; function: { name: string } }
  | { type: 'custom'; custom: { name: string } }
  | {
      type: 'allowed_tools';
      allowed_tools: { mode: 'auto' | 'required'; tools: Array<Record<string, unknown>> };
    };

/** `response_format`. @see https://platform.openai.com/docs/api-reference/chat/create */
export type OpenAIChatResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: { name: string; description?: string; schema?: Record<string, unknown>; strict?: boolean | null };
    };

/** The request body of `POST /v1/chat/completions`. @see https://platform.openai.com/docs/api-reference/chat/create */
export interface OpenAIChatRequest {
  model: string;
  messages: OpenAIChatMessage[];
  max_completion_tokens?: number | null;
  max_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  frequency_penalty?: number | null;
  presence_penalty?: number | null;
  logit_bias?: Record<string, number> | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
  n?: number | null;
  seed?: number | null;
  stop?: string | string[] | null;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean; include_obfuscation?: boolean } | null;
  tools?: OpenAIChatTool[];
  tool_choice?: OpenAIChatToolChoice;
  parallel_tool_calls?: boolean;
  functions?: Array<{ name: string; description?: string; parameters?: Record<string, unknown> }>;
  function_call?: 'none' | 'auto' | { name: string };
  response_format?: OpenAIChatResponseFormat;
  reasoning_effort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | null;
  verbosity?: 'low' | 'medium' | 'high' | null;
  modalities?: Array<'text' | 'audio'> | null;
  audio?: unknown;
  prediction?: unknown;
  web_search_options?: unknown;
  metadata?: Record<string, string> | null;
  store?: boolean | null;
  service_tier?: string | null;
  prompt_cache_key?: string;
  safety_identifier?: string;
  user?: string;
  [key: string]: unknown;
}

/** Log-probability of one token. @see https://platform.openai.com/docs/api-reference/chat/object */
export interface OpenAIChatTokenLogprob {
  token: string;
  logprob: number;
  bytes: number[] | null;
  top_logprobs: Array<{ token: string; logprob: number; bytes: number[] | null }>;
}

/** Choice `logprobs`. */
export interface OpenAIChatLogprobs {
  content: OpenAIChatTokenLogprob[] | null;
  refusal: OpenAIChatTokenLogprob[] | null;
}

/** Usage. @see https://platform.openai.com/docs/api-reference/chat/object */
export interface OpenAIChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; audio_tokens?: number; cache_write_tokens?: number };
  completion_tokens_details?: {
    reasoning_tokens?: number;
    audio_tokens?: number;
    accepted_prediction_tokens?: number;
    rejected_prediction_tokens?: number;
  };
}

/** A URL citation on a response message. */
export interface OpenAIChatAnnotation {
  type: 'url_citation';
  url_citation: { start_index: number; end_index: number; title: string; url: string };
}

/** The assistant message of a response choice. @see https://platform.openai.com/docs/api-reference/chat/object */
export interface OpenAIChatResponseMessage {
  role: 'assistant';
  content: string | null;
  refusal: string | null;
  tool_calls?: OpenAIChatToolCall[];
  annotations?: OpenAIChatAnnotation[];
  function_call?: { name: string; arguments: string } | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  [key: string]: unknown;
}

/** `finish_reason` values. */
export type OpenAIChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

/** A non-streaming response body. @see https://platform.openai.com/docs/api-reference/chat/object */
export interface OpenAIChatResponse {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: OpenAIChatResponseMessage;
    finish_reason: OpenAIChatFinishReason;
    logprobs: OpenAIChatLogprobs | null;
  }>;
  usage?: OpenAIChatUsage;
  service_tier?: string | null;
  system_fingerprint?: string | null;
  [key: string]: unknown;
}

/** A tool-call fragment in a stream delta. @see https://platform.openai.com/docs/api-reference/chat/streaming */
export interface OpenAIChatToolCallDelta {
  index: number;
  id?: string;
  type?: 'function' | 'custom';
  function?: { name?: string; arguments?: string };
  custom?: { name?: string; input?: string };
}

/** One `chat.completion.chunk`, or a mid-stream error payload. @see https://platform.openai.com/docs/api-reference/chat/streaming */
export interface OpenAIChatChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    delta: {
      role?: 'assistant';
      content?: string | null;
      refusal?: string | null;
      tool_calls?: OpenAIChatToolCallDelta[];
      reasoning_content?: string | null;
      reasoning?: string | null;
    };
    finish_reason: OpenAIChatFinishReason | null;
    logprobs?: OpenAIChatLogprobs | null;
  }>;
  usage?: OpenAIChatUsage | null;
  service_tier?: string | null;
  system_fingerprint?: string | null;
}

/** Error body. @see https://platform.openai.com/docs/guides/error-codes#api-errors */
export interface OpenAIChatError {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** The wire types of this codec. */
export interface OpenAIChatWireTypes {
  request: OpenAIChatRequest;
  response: OpenAIChatResponse;
  streamEvent: OpenAIChatChunk | OpenAIChatError;
  error: OpenAIChatError;
}
