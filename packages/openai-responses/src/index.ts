// @llm/openai-responses: the OpenAI Responses API codec.
export { openaiResponses } from './codec.js';
export type {
  OpenAIResponsesContentPart,
  OpenAIResponsesErrorBody,
  OpenAIResponsesItem,
  OpenAIResponsesObject,
  OpenAIResponsesRequest,
  OpenAIResponsesResponse,
  OpenAIResponsesStreamEvent,
  OpenAIResponsesTool,
  OpenAIResponsesUsage,
  OpenAIResponsesWireTypes,
} from './wire-types.js';
