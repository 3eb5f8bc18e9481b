import { answerDecoder, requestDecoder, streamTranscoders, type Codec, type CodecEndpoints, type CodecTraits } from '@llm/core';
import { decodeError, encodeError } from './error.js';
import { http } from './http.js';
import { PROTOCOL } from './protocol.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';
import { answerFault, decodeResponse } from './response-decode.js';
import { encodeResponse } from './response-encode.js';
import { streamDecoder } from './stream-decode.js';
import { streamEncoder } from './stream-encode.js';
import type { OpenAIChatWireTypes } from './wire-types.js';

/** Chat's rules for the router (see `CodecTraits`). */
const traits: CodecTraits = {
  maxStopSequences: 4,
  multipleCandidates: true,
  freeformTools: true,
  toolNames: { invalidCharacter: /[^A-Za-z0-9_-]/g, maxLength: 64 },
  everyCallAnswered: { errorFlag: false },
  alternatingTurns: false,
  mediaInToolResults: false,
  parallelFlagWithNoneChoice: true,
  // Files go as data only.
  mediaByUrl: { image: true, file: false, audio: false },
  streamUsageOnRequest: true,
  strictSchemas: true,
  hostedMcp: false,
  sequentialStreamBlocks: false,
  streamOpeningEvents: [],
  // No reasoning field comes back: the router carries reasoning state in tool-call ids.
  reasoningStateField: false,
  partSignatureField: false,
  storesResponses: false,
};

const endpoints: CodecEndpoints = {
  generatePath: () => '/v1/chat/completions',
  modelList: (ids) => ({ object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'llm-router' })) }),
  countTokensBody: (tokens) => ({ input_tokens: tokens }),
};

/**
 * The OpenAI Chat Completions codec.
 * @see https://platform.openai.com/docs/api-reference/chat
 */
export const openaiChat: Codec<OpenAIChatWireTypes> = {
  id: PROTOCOL,
  request: { decode: requestDecoder(PROTOCOL, (wire) => decodeRequest(wire)), encode: encodeRequest },
  response: { decode: answerDecoder(PROTOCOL, (wire) => decodeResponse(wire), answerFault), encode: encodeResponse, answerFault },
  stream: streamTranscoders(streamDecoder, streamEncoder),
  error: { decode: decodeError, encode: encodeError },
  http,
  traits,
  endpoints,
};
