import type { Codec } from '@llm/core';
import { decodeError, encodeError } from './errors.js';
import { PROTOCOL } from './ext.js';
import { http } from './http.js';
import { decodeRequest, encodeRequest } from './request.js';
import { decodeResponse, encodeResponse } from './response.js';
import { decodeStream, streamDecoder } from './stream-decode.js';
import { encodeStream, streamEncoder } from './stream-encode.js';
import type { ClaudeWireTypes } from './wire-types.js';

/** The Anthropic Messages codec (`POST /v1/messages`). */
export const claude: Codec<ClaudeWireTypes> = {
  id: PROTOCOL,
  request: { decode: decodeRequest, encode: encodeRequest },
  response: { decode: decodeResponse, encode: encodeResponse },
  stream: { decode: decodeStream, encode: encodeStream, decoder: streamDecoder, encoder: streamEncoder },
  error: { decode: decodeError, encode: encodeError },
  http,
};
