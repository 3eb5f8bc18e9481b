import { checkJsonDepth } from './json-depth.js';
import type { ProtocolId } from './protocol.js';
import type { LlmResponse } from './response.js';
import { upstreamDecodeFailure } from './upstream-errors.js';

/**
 * Wrappers every codec puts around its decoders, so the guarantees below hold in one place for
 * all four protocols, whether the router or a library caller hands them a value.
 */

/**
 * `decode` as a codec's `request.decode`: input nested deeper than `MAX_JSON_DEPTH` is refused
 * with `invalid_request` naming the path before any decoder walks it, so a library caller's
 * 5,000-level tool schema gets a 400, not a stack overflow. A body the router already checked
 * (`parseJson` or `checkJsonDepth`) costs one lookup.
 */
export function requestDecoder<R, C>(protocol: ProtocolId, decode: (wire: unknown, context?: C) => R): (wire: unknown, context?: C) => R {
  return (wire, context) => {
    checkJsonDepth(wire, { protocol });
    return decode(wire, context);
  };
}

/**
 * `decode` as a codec's `response.decode`: a response body always comes from an upstream, so
 * whatever the decoder throws (a too deep body included) becomes `upstreamDecodeFailure`
 * (`invalid Claude answer at content`, 502): the client sent nothing wrong, so it must not get a
 * 400. Costs one `try` on the happy path.
 */
export function answerDecoder<C>(protocol: ProtocolId, decode: (wire: unknown, context?: C) => LlmResponse): (wire: unknown, context?: C) => LlmResponse {
  return (wire, context) => {
    try {
      checkJsonDepth(wire);
      return decode(wire, context);
    } catch (error) {
      throw upstreamDecodeFailure(protocol, 'answer', error);
    }
  };
}
