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
import type { ClaudeWireTypes } from './wire-types.js';

/** Anthropic's rules for the router (see `CodecTraits`). */
const traits: CodecTraits = {
  multipleCandidates: false,
  freeformTools: false,
  toolNames: { invalidCharacter: /[^A-Za-z0-9_-]/g, maxLength: 64 },
  everyCallAnswered: { errorFlag: true },
  alternatingTurns: true,
  mediaInToolResults: true,
  // `tool_choice: none` has no `disable_parallel_tool_use`.
  parallelFlagWithNoneChoice: false,
  mediaByUrl: { image: true, file: true, audio: false },
  streamUsageOnRequest: false,
  strictSchemas: false,
  hostedMcp: true,
  sequentialStreamBlocks: true,
  streamOpeningEvents: ['message_start'],
  reasoningStateField: true,
  partSignatureField: false,
  clientHeader: 'anthropic-version',
  storesResponses: false,
};

const endpoints: CodecEndpoints = {
  generatePath: () => '/v1/messages',
  modelList: (ids) => ({
    data: ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '1970-01-01T00:00:00Z' })),
    has_more: false,
    first_id: ids[0] ?? null,
    last_id: ids[ids.length - 1] ?? null,
  }),
  countTokensBody: (tokens) => ({ input_tokens: tokens }),
};

/** The Anthropic Messages codec (`POST /v1/messages`). */
export const claude: Codec<ClaudeWireTypes> = {
  id: PROTOCOL,
  request: { decode: requestDecoder(PROTOCOL, decodeRequest), encode: encodeRequest },
  response: { decode: answerDecoder(PROTOCOL, (wire) => decodeResponse(wire), answerFault), encode: encodeResponse, answerFault },
  stream: streamTranscoders(streamDecoder, streamEncoder),
  error: { decode: decodeError, encode: encodeError },
  http,
  traits,
  endpoints,
};
