import { answerDecoder, requestDecoder, streamTranscoders, type Codec } from '@llm/core';
import { decodeError, encodeError } from './errors.js';
import { PROTOCOL } from './ext.js';
import { http } from './http.js';
import { decodeRequest, encodeRequest } from './request.js';
import { answerFault, decodeResponse, encodeResponse } from './response.js';
import { streamDecoder } from './stream-decode.js';
import { streamEncoder } from './stream-encode.js';
import type { OpenAIResponsesWireTypes } from './wire-types.js';

/** The OpenAI Responses codec (`POST /v1/responses`). */
export const openaiResponses: Codec<OpenAIResponsesWireTypes> = {
  id: PROTOCOL,
  request: { decode: requestDecoder(PROTOCOL, decodeRequest), encode: encodeRequest },
  response: { decode: answerDecoder(PROTOCOL, decodeResponse, answerFault), encode: encodeResponse, answerFault },
  stream: streamTranscoders(streamDecoder, streamEncoder),
  error: { decode: decodeError, encode: encodeError },
  http,
};
