/**
 * The Converse wire shapes, as JSON on the HTTP API (`POST /model/{modelId}/converse`). They
 * follow `@aws-sdk/client-bedrock-runtime` (checked in `test/wire-types.test-d.ts`) with the
 * JSON forms of its members: blob fields (`bytes`, `redactedContent`) are base64 text, and the
 * model id lives in the URL, not the body.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 */
import type { JsonValue } from '@llm/core';

/** Free-form JSON (the SDK's `DocumentType`): tool inputs, schemas, model-specific fields. */
export type ConverseDocument = JsonValue;

/** A prompt-cache checkpoint: the content before it is cached. */
export interface ConverseCachePoint {
  type: 'default';
  ttl?: '5m' | '1h';
}

/** Image bytes (base64 in JSON) or an S3 object. */
export interface ConverseImageBlock {
  format: 'png' | 'jpeg' | 'gif' | 'webp';
  source: { bytes: string } | { s3Location: { uri: string; bucketOwner?: string } };
}

/** A document: bytes (base64 in JSON), plain text, or an S3 object. */
export interface ConverseDocumentBlock {
  format?: 'pdf' | 'csv' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'html' | 'txt' | 'md';
  name: string;
  source: { bytes: string } | { text: string } | { s3Location: { uri: string; bucketOwner?: string } };
  context?: string;
  citations?: { enabled: boolean };
}

/** A tool call of the assistant. */
export interface ConverseToolUseBlock {
  toolUseId: string;
  name: string;
  input: ConverseDocument;
}

/** One item of a tool result. */
export type ConverseToolResultContent = { json: ConverseDocument } | { text: string } | { image: ConverseImageBlock } | { document: ConverseDocumentBlock };

/** The result of a tool call, sent back in a user turn. */
export interface ConverseToolResultBlock {
  toolUseId: string;
  content: ConverseToolResultContent[];
  status?: 'success' | 'error';
}

/** Model reasoning: the visible text and its signature, or redacted bytes (base64 in JSON). */
export type ConverseReasoningContent = { reasoningText: { text: string; signature?: string } } | { redactedContent: string };

/** One content block of a message (a union: exactly one member is set). */
export type ConverseContentBlock =
  | { text: string }
  | { image: ConverseImageBlock }
  | { document: ConverseDocumentBlock }
  | { toolUse: ConverseToolUseBlock }
  | { toolResult: ConverseToolResultBlock }
  | { reasoningContent: ConverseReasoningContent }
  | { cachePoint: ConverseCachePoint };

/** One turn. */
export interface ConverseMessage {
  role: 'user' | 'assistant';
  content: ConverseContentBlock[];
}

/** A system block: text or a cache checkpoint. */
export type ConverseSystemBlock = { text: string } | { cachePoint: ConverseCachePoint };

/** A tool definition or a cache checkpoint after the tools. */
export type ConverseTool =
  | { toolSpec: { name: string; description?: string; inputSchema: { json: ConverseDocument }; strict?: boolean } }
  | { cachePoint: ConverseCachePoint };

/** Which tool the model must use. */
export type ConverseToolChoice = { auto: Record<string, never> } | { any: Record<string, never> } | { tool: { name: string } };

/** The request body (the model id is in the URL). */
export interface ConverseRequest {
  messages: ConverseMessage[];
  system?: ConverseSystemBlock[];
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
  toolConfig?: { tools: ConverseTool[]; toolChoice?: ConverseToolChoice };
  additionalModelRequestFields?: ConverseDocument;
  additionalModelResponseFieldPaths?: string[];
  requestMetadata?: Record<string, string>;
  serviceTier?: { type: 'default' | 'flex' | 'priority' | 'reserved' };
  outputConfig?: {
    textFormat?: { type: 'json_schema'; structure: { jsonSchema: { schema: string; name?: string; description?: string } } };
    effort?: string;
  };
}

/** Why the model stopped. */
export type ConverseStopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'guardrail_intervened'
  | 'content_filtered'
  | 'malformed_model_output'
  | 'malformed_tool_use'
  | 'model_context_window_exceeded';

/** Token counts: `inputTokens` excludes cache reads and writes. */
export interface ConverseUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

/** The answer body. */
export interface ConverseResponse {
  output: { message: ConverseMessage };
  stopReason: ConverseStopReason;
  usage: ConverseUsage;
  metrics: { latencyMs: number };
  additionalModelResponseFields?: ConverseDocument;
}

/**
 * One ConverseStream event's payload, named by its `:event-type` (the SSE event name here):
 * `messageStart`, `contentBlockStart`, `contentBlockDelta`, `contentBlockStop`, `messageStop`,
 * `metadata`, or an exception (`throttlingException`, ...).
 */
export type ConverseStreamEvent =
  | { role: 'assistant' }
  | { contentBlockIndex: number; start: { toolUse: { toolUseId: string; name: string } } }
  | {
      contentBlockIndex: number;
      delta: { text: string } | { toolUse: { input: string } } | { reasoningContent: { text: string } | { signature: string } | { redactedContent: string } };
    }
  | { contentBlockIndex: number }
  | { stopReason: ConverseStopReason; additionalModelResponseFields?: ConverseDocument }
  | { usage: ConverseUsage; metrics: { latencyMs: number } }
  | ConverseError;

/** An error body (the error's name travels in the `x-amzn-errortype` header, or `__type`). */
export interface ConverseError {
  message: string;
}

/** The wire types of the Converse codec. */
export interface ConverseWireTypes {
  request: ConverseRequest;
  response: ConverseResponse;
  streamEvent: ConverseStreamEvent;
  error: ConverseError;
}
