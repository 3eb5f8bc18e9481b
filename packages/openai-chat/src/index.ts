// @llm/openai-chat: the OpenAI Chat Completions codec.
export { openaiChat } from './codec.js';
export { REFUSAL_FALLBACK_TEXT } from './finish-reason.js';
export { decodeChunk, createDecodeState, endInput, endStream } from './stream-decode-state.js';
export { encodeEvent, createEncodeState, endEncode } from './stream-encode-state.js';
export type { ChatDecodeState } from './stream-decode-state.js';
export type { ChatEncodeState } from './stream-encode-state.js';
export type {
  OpenAIChatAnnotation,
  OpenAIChatChunk,
  OpenAIChatContentPart,
  OpenAIChatError,
  OpenAIChatFinishReason,
  OpenAIChatLogprobs,
  OpenAIChatMessage,
  OpenAIChatRequest,
  OpenAIChatResponse,
  OpenAIChatResponseFormat,
  OpenAIChatResponseMessage,
  OpenAIChatTokenLogprob,
  OpenAIChatTool,
  OpenAIChatToolCall,
  OpenAIChatToolCallDelta,
  OpenAIChatToolChoice,
  OpenAIChatUsage,
  OpenAIChatWireTypes,
} from './wire-types.js';
