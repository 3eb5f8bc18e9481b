import { answerDecoder, requestDecoder, streamTranscoders, type Codec } from '@llm/core';
import { decodeError, encodeError } from './error.js';
import { http } from './http.js';
import { PROTOCOL } from './internal.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';
import { answerFault, decodeResponse } from './response-decode.js';
import { encodeResponse } from './response-encode.js';
import { streamDecoder } from './stream-decode.js';
import { streamEncoder } from './stream-encode.js';
import type { OpenAIChatWireTypes } from './wire-types.js';

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
};
