import { answerDecoder, requestDecoder, streamTranscoders, type Codec } from '@llm/core';
import { decodeError, encodeError } from './errors.js';
import { PROTOCOL } from './ext.js';
import { http } from './http.js';
import { decodeRequest, encodeRequest } from './request.js';
import { answerFault, decodeResponse, encodeResponse } from './response.js';
import { streamDecoder } from './stream-decode.js';
import { streamEncoder } from './stream-encode.js';
import type { ClaudeWireTypes } from './wire-types.js';

/** The Anthropic Messages codec (`POST /v1/messages`). */
export const claude: Codec<ClaudeWireTypes> = {
  id: PROTOCOL,
  request: { decode: requestDecoder(PROTOCOL, decodeRequest), encode: encodeRequest },
  response: { decode: answerDecoder(PROTOCOL, (wire) => decodeResponse(wire), answerFault), encode: encodeResponse, answerFault },
  stream: streamTranscoders(streamDecoder, streamEncoder),
  error: { decode: decodeError, encode: encodeError },
  http,
};
