import { answerDecoder, requestDecoder, streamTranscoders, type Codec, type CodecEndpoints, type CodecTraits } from '@llm/core';
import { decodeError, encodeError } from './errors.js';
import { conversePath, http } from './http.js';
import { PROTOCOL } from './protocol.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';
import { answerFault, decodeResponse } from './response-decode.js';
import { encodeResponse } from './response-encode.js';
import { streamDecoder } from './stream-decode.js';
import { streamEncoder } from './stream-encode.js';
import type { ConverseWireTypes } from './wire-types.js';

/**
 * Converse's rules for the router (see `CodecTraits`).
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InferenceConfiguration.html (2500 stop sequences)
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html (names `[a-zA-Z0-9_-]+`, 1-64)
 */
const traits: CodecTraits = {
  maxStopSequences: 2500,
  multipleCandidates: false,
  freeformTools: false,
  toolNames: { invalidCharacter: /[^A-Za-z0-9_-]/g, maxLength: 64 },
  // Converse refuses a toolUse the next turn does not answer; toolResult has `status: "error"`.
  everyCallAnswered: { errorFlag: true },
  alternatingTurns: true,
  mediaInToolResults: true,
  // No `none` choice and no parallel switch at all.
  parallelFlagWithNoneChoice: false,
  // Media go as bytes (or S3 locations, which no other protocol has).
  mediaByUrl: { image: false, file: false, audio: false },
  streamUsageOnRequest: false,
  strictSchemas: false,
  hostedMcp: false,
  sequentialStreamBlocks: false,
  streamOpeningEvents: ['messageStart'],
  reasoningStateField: true,
  partSignatureField: false,
  storesResponses: false,
};

const endpoints: CodecEndpoints = {
  generatePath: conversePath,
  // The shape of Bedrock's ListFoundationModels.
  modelList: (ids) => ({ modelSummaries: ids.map((id) => ({ modelId: id, modelName: id, inferenceTypesSupported: ['ON_DEMAND'] })) }),
  // The shape of Bedrock's CountTokens.
  countTokensBody: (tokens) => ({ inputTokens: tokens }),
};

/** The AWS Bedrock Converse codec (`/model/{modelId}/converse` and `/converse-stream`). */
export const bedrockConverse: Codec<ConverseWireTypes> = {
  id: PROTOCOL,
  request: { decode: requestDecoder(PROTOCOL, decodeRequest), encode: encodeRequest },
  response: { decode: answerDecoder(PROTOCOL, decodeResponse, answerFault), encode: encodeResponse, answerFault },
  stream: streamTranscoders(streamDecoder, streamEncoder),
  error: { decode: decodeError, encode: encodeError },
  http,
  traits,
  endpoints,
};
