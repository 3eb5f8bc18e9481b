// @llm/openai-chat: the OpenAI Chat Completions codec.
export { openaiChat } from './codec.js';
export { REFUSAL_FALLBACK_TEXT } from './finish-reason.js';
export { createDecodeState, decodeEnd, decodeStep } from './stream-decode.js';
export { createEncodeState, encodeEnd, encodeStep } from './stream-encode.js';
export type { ChatDecodeState } from './stream-decode.js';
export type { ChatEncodeState } from './stream-encode.js';
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
