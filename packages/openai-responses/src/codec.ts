import { answerDecoder, requestDecoder, streamTranscoders, type Codec, type CodecEndpoints, type CodecTraits } from '@llm/core';
import { decodeError, encodeError } from './errors.js';
import { PROTOCOL } from './protocol.js';
import { http } from './http.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';
import { answerFault, decodeResponse } from './response-decode.js';
import { encodeResponse } from './response-encode.js';
import { streamDecoder } from './stream-decode.js';
import { streamEncoder } from './stream-encode.js';
import type { OpenAIResponsesWireTypes } from './wire-types.js';

/** Responses' rules for the router (see `CodecTraits`). */
const traits: CodecTraits = {
  multipleCandidates: false,
  freeformTools: true,
  toolNames: { invalidCharacter: /[^A-Za-z0-9_-]/g, maxLength: 64 },
  everyCallAnswered: { errorFlag: false },
  alternatingTurns: false,
  mediaInToolResults: true,
  parallelFlagWithNoneChoice: true,
  mediaByUrl: { image: true, file: true, audio: false },
  streamUsageOnRequest: false,
  strictSchemas: true,
  hostedMcp: true,
  sequentialStreamBlocks: false,
  streamOpeningEvents: ['response.created', 'response.in_progress'],
  reasoningStateField: true,
  partSignatureField: false,
  storesResponses: true,
};

const endpoints: CodecEndpoints = {
  generatePath: () => '/v1/responses',
  modelList: (ids) => ({ object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'llm-router' })) }),
  countTokensBody: (tokens) => ({ object: 'response.input_tokens', input_tokens: tokens }),
};

/** The OpenAI Responses codec (`POST /v1/responses`). */
export const openaiResponses: Codec<OpenAIResponsesWireTypes> = {
  id: PROTOCOL,
  request: { decode: requestDecoder(PROTOCOL, decodeRequest), encode: encodeRequest },
  response: { decode: answerDecoder(PROTOCOL, decodeResponse, answerFault), encode: encodeResponse, answerFault },
  stream: streamTranscoders(streamDecoder, streamEncoder),
  error: { decode: decodeError, encode: encodeError },
  http,
  traits,
  endpoints,
};
