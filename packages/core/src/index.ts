// @llm/core: the canonical model every codec decodes into and encodes from, the Codec contract,
// errors and warnings, SSE byte edges, the opaque-state carrier and shared helpers.

export { PROTOCOL_IDS, PROTOCOL_NAMES, isProtocolId } from './protocol.js';
export type { LlmOrigin, ProtocolId } from './protocol.js';

export { isJsonObject } from './json.js';
export { MAX_JSON_DEPTH, checkParsedDepth, checkJsonDepth, parseJson } from './json-depth.js';
export type { JsonDepthOptions } from './json-depth.js';
export type { JsonObject, JsonSchema, JsonValue } from './json.js';

export { collectUnknown, getExtensions, reportForeignExtensions, setExtensions } from './extensions.js';
export type { Extensions, WithExtensions } from './extensions.js';

export { CALL_ARGUMENTS_LOSS, type CallArgumentsLoss, objectCallArguments, textOf, toolArgumentsObject, toolArgumentsText } from './content.js';
export type {
  LlmAssistantContent,
  LlmAudioPart,
  LlmCacheHint,
  LlmCitation,
  LlmFilePart,
  LlmImagePart,
  LlmJsonPart,
  LlmMediaSource,
  LlmPart,
  LlmPartBase,
  LlmProviderPart,
  LlmReasoningPart,
  LlmRefusalPart,
  LlmTextPart,
  LlmToolCallPart,
  LlmToolResultContent,
  LlmToolResultPart,
  LlmUserContent,
} from './content.js';

export type {
  LlmAssistantMessage,
  LlmMessage,
  LlmRole,
  LlmSystemMessage,
  LlmToolMessage,
  LlmUserMessage,
} from './messages.js';

export type {
  LlmCodeExecutionTool,
  LlmCustomTool,
  LlmFunctionTool,
  LlmProviderTool,
  LlmTool,
  LlmToolChoice,
  LlmUserLocation,
  LlmWebSearchTool,
} from './tools.js';
export type {
  LlmMcpApproval,
  LlmMcpApprovalRequestPart,
  LlmMcpApprovalResponsePart,
  LlmMcpAssistantPart,
  LlmMcpCallPart,
  LlmMcpListToolsPart,
  LlmMcpPart,
  LlmMcpResultPart,
  LlmMcpTool,
  LlmMcpToolDescription,
} from './mcp.js';
export { isMcpPart, reportMcpPartDropped, reportMcpToolDropped } from './mcp-loss.js';
export {
  CodeExecutionPairs,
  codeExecutionOutput,
  codeExecutionText,
  isCodeExecutionPart,
  codeExecutionAsText,
  answersCode,
  reportCodeExecutionDropped,
  reportCodeResultFields,
} from './code-execution.js';
export type { LlmCodeExecutionPart, LlmCodeExecutionPartKind, LlmCodeExecutionResultPart, LlmCodeOutcome } from './code-execution.js';
export { citationSpan, utf16Index, utf8Offset } from './citation-span.js';
export {
  CODE_EXECUTION_TOOL_NAME,
  WEB_SEARCH_TOOL_NAME,
  choiceWithoutHostedTools,
  domainList,
  reportForeignToolFields,
  reportWebSearchSettings,
  userLocationFromWire,
  userLocationToWire,
} from './hosted-tools.js';
export type { WebSearchSetting } from './hosted-tools.js';

export {
  ANTHROPIC_MIN_THINKING_BUDGET,
  REASONING_EFFORTS,
  anthropicThinkingBudget,
  budgetToEffort,
  effortToBudget,
  fitAnthropicThinkingBudget,
} from './reasoning.js';
export { anthropicThinking } from './anthropic-thinking.js';
export { type AnthropicSamplingFix, type AnthropicSamplingSettings, anthropicSamplingFixes } from './anthropic-sampling.js';
export type { LlmReasoningConfig, LlmReasoningEffort } from './reasoning.js';

export type { LlmLogprobsOptions, LlmRequest, LlmResponseFormat, LlmSampling } from './request.js';

export { FINISH_REASONS, REFUSAL_FALLBACK_TEXT } from './finish-reason.js';
export type { LlmFinishReason } from './finish-reason.js';

export { USAGE_SUB_COUNTS, emptyUsage, sumUsage, totalTokensOf } from './usage.js';
export type { LlmUsage } from './usage.js';

export type { LlmChoice, LlmResponse, LlmTokenLogprob } from './response.js';

export type { LlmBlockStart, LlmStreamEvent, LlmStreamEventType } from './stream-event.js';
export { LlmStreamAccumulator, accumulateEvents, accumulateStream } from './accumulator.js';
export { responseToEvents } from './response-events.js';

export { ERROR_KINDS, INTERNAL_ERROR_MESSAGE, LlmError, errorKindForStatus, parseRetryAfter, retryAfterFromHeaders } from './errors.js';
export { MAX_ERROR_DESCRIPTION_LENGTH, describeError } from './describe-error.js';
export {
  MAX_UPSTREAM_ERROR_TEXT,
  invalidUpstream,
  streamEndedEarly,
  unfinishedStreamError,
  unrecognizedAnswer,
  upstreamDecodeFailure,
  upstreamErrorMessage,
} from './upstream-errors.js';
export { answerDecoder, requestDecoder } from './decoders.js';
export type { LlmErrorKind, LlmErrorOptions } from './errors.js';

export { reportLoss } from './warnings.js';
export { cacheHintFromWire, cacheHintToWire, reportCacheHints } from './cache-hint.js';
export type { CodecContext, LlmWarning, LlmWarningCode } from './warnings.js';

export {
  contentPartPath,
  describe,
  invalid,
  joinPath,
  parseJsonAt,
  readArray,
  readEnum,
  readObject,
  readOptionalBoolean,
  readOptionalInteger,
  readOptionalNumber,
  readOptionalString,
  readString,
} from './validate.js';
export type { PathKey } from './validate.js';

export { streamTranscoders } from './codec.js';
export type { Codec, ResponseTranscoder, StreamOptions, Transcoder, WireTypes } from './codec.js';
export type { CodecEndpoints, CodecTraits, MediaByUrl, ToolNameRule } from './codec-traits.js';

export { CancelSource } from './cancel.js';
export type { CancelSignal } from './cancel.js';
export { applyAuth, decodeUrlComponent, joinUrl, positiveTokenCount, readCredential } from './http.js';
export type {
  AuthScheme,
  HeaderReader,
  HttpBinding,
  HttpOperation,
  HttpRequestMatch,
  HttpTarget,
  HttpTargetOptions,
} from './http.js';

export type { SseEvent } from './sse/types.js';
export { DEFAULT_MAX_SSE_EVENT_SIZE, collectSse, decodeSse, parseSseText, sseDecoder } from './sse/decode.js';
export type { SseDecodeOptions } from './sse/decode.js';
export { SSE_HEADERS, encodeSse, formatSseEvent, sseEncoder } from './sse/encode.js';
export { JsonSseEvent } from './sse/json-event.js';

export { joinTextStep, passThroughStep, pipeSteps, stepStream, textStepStream } from './stream-step.js';
export type { StepOutput, StreamStep } from './stream-step.js';
export { chunksOf, isReadableStream, readableFrom, stepIterable } from './step-iterator.js';
export type { StepIterableOptions } from './step-iterator.js';

export { base64ToBytes, bytesToBase64, bytesToBase64Url, sameBase64 } from './base64.js';

export {
  OPAQUE_STATE_PREFIX,
  OPAQUE_STATE_SEPARATOR,
  embedOpaqueState,
  extractOpaqueState,
  opaqueStateWarning,
  originMatches,
  packOpaqueState,
  reportForeignPartState,
  reportOpaqueState,
  unpackOpaqueState,
} from './opaque-state.js';
export type { ExtractedState, OpaqueState, OpaqueStateProblem, UnpackedState } from './opaque-state.js';

export { toOpenAIStrictSchema } from './json-schema/openai-strict.js';
export { isStrictResponseFormat, isStrictTool, strictResponseSchema, strictToolParameters } from './json-schema/openai-strict-request.js';
export { checkJsonSchema, findSchemaProblem } from './json-schema/check.js';
export type { SchemaProblem } from './json-schema/check.js';
export { checkRequestSchemas, checkResponseFormatSchema, checkToolSchema } from './request-schemas.js';
export { toGeminiSchema } from './json-schema/gemini.js';
export { toGeminiJsonSchema } from './json-schema/gemini-json-schema.js';
export { MAX_INLINED_DEPTH, MAX_INLINED_NODES } from './json-schema/inline-refs.js';
export type { SchemaContext } from './json-schema/walk.js';
