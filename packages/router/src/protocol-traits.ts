import type { Codec, CodecTraits, ProtocolId } from '@llm/core';
import { defaultCodecs } from './registry.js';

/**
 * A protocol as the router's steps take it: the codec itself (what the router passes, so any
 * codec works), or the id of one of the four default codecs (the exported helpers' shorthand).
 */
export type ProtocolRef = ProtocolId | Pick<Codec, 'id' | 'traits'>;

/** The default codecs' traits by id, built on first use. */
let defaults: Partial<Record<ProtocolId, CodecTraits>> | undefined;

/** The id and the traits of `protocol`: a codec's own, or the default codec's for an id. */
export function protocolTraits(protocol: ProtocolRef): { id: ProtocolId; traits: CodecTraits } {
  if (typeof protocol !== 'string') return protocol;
  if (!defaults) {
    defaults = {};
    for (const [id, codec] of Object.entries(defaultCodecs()) as Array<[ProtocolId, Codec]>) defaults[id] = codec.traits;
  }
  const traits = defaults[protocol];
  if (!traits) throw new TypeError(`no default codec for ${protocol}`);
  return { id: protocol, traits };
}
