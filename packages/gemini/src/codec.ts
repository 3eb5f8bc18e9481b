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
import type { GeminiWireTypes } from './wire-types.js';

/** Gemini's rules for the router (see `CodecTraits`). */
const traits: CodecTraits = {
  maxStopSequences: 5,
  multipleCandidates: true,
  freeformTools: false,
  toolNames: { invalidCharacter: /[^A-Za-z0-9_.:-]/g, validStart: /^[A-Za-z_]/, maxLength: 64 },
  // Gemini accepts a call the next turn does not answer.
  alternatingTurns: true,
  mediaInToolResults: true,
  parallelFlagWithNoneChoice: true,
  // fileData takes uploaded files only.
  mediaByUrl: { image: false, file: false, audio: false },
  streamUsageOnRequest: false,
  strictSchemas: false,
  hostedMcp: false,
  sequentialStreamBlocks: false,
  streamOpeningEvents: [],
  reasoningStateField: true,
  partSignatureField: true,
  storesResponses: false,
};

const endpoints: CodecEndpoints = {
  generatePath: (model, stream) => {
    const name = encodeURIComponent(model);
    return stream ? `/v1beta/models/${name}:streamGenerateContent?alt=sse` : `/v1beta/models/${name}:generateContent`;
  },
  modelList: (ids) => ({
    models: ids.map((id) => ({
      name: `models/${id}`,
      displayName: id,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
    })),
  }),
  countTokensBody: (tokens) => ({ totalTokens: tokens }),
};

/** The Gemini codec (`models/{model}:generateContent` / `:streamGenerateContent`). */
export const gemini: Codec<GeminiWireTypes> = {
  id: PROTOCOL,
  request: { decode: requestDecoder(PROTOCOL, decodeRequest), encode: encodeRequest },
  response: { decode: answerDecoder(PROTOCOL, decodeResponse, answerFault), encode: encodeResponse, answerFault },
  stream: streamTranscoders(streamDecoder, streamEncoder),
  error: { decode: decodeError, encode: encodeError },
  http,
  traits,
  endpoints,
};
