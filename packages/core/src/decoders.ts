import { checkJsonDepth } from './json-depth.js';
import type { ProtocolId } from './protocol.js';
import type { LlmResponse } from './response.js';
import { unrecognizedAnswer, upstreamDecodeFailure } from './upstream-errors.js';

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
 * 400. Given the codec's `response.answerFault`, a body it refuses never decodes: the decoder's
 * own error when it has one (its reader's detail as cause), else `unrecognizedAnswer`; so the
 * decoded and the passed-through paths cannot disagree on what an answer is. Costs one `try`
 * and a few key reads on the happy path.
 */
export function answerDecoder<C>(
  protocol: ProtocolId,
  decode: (wire: unknown, context?: C) => LlmResponse,
  answerFault?: (wire: unknown) => string | undefined,
): (wire: unknown, context?: C) => LlmResponse {
  return (wire, context) => {
    let decoded: LlmResponse;
    try {
      checkJsonDepth(wire);
      decoded = decode(wire, context);
    } catch (error) {
      throw upstreamDecodeFailure(protocol, 'answer', error);
    }
    const fault = answerFault?.(wire);
    if (fault !== undefined) throw unrecognizedAnswer(protocol, fault);
    return decoded;
  };
}
