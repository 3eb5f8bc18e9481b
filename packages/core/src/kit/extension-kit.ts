import { getExtensions, setExtensions, type WithExtensions } from '../extensions.js';
import type { ProtocolId } from '../protocol.js';

/** `$`: bag keys starting with it are the codec's bookkeeping, never wire fields. */
const BOOKKEEPING = 36;

/**
 * One codec's handling of the fields its canonical model does not hold. They travel in the
 * codec's own extension bag (`extensions[protocol]`) so that a same-protocol round trip is exact:
 * - wire fields the codec does not model, copied back on encode;
 * - bookkeeping marks (keys starting with `$`) that remember a wire shape choice (a string vs an
 *   array `content`, which of two equivalent fields was sent), never written to the wire.
 */
export interface ExtensionKit {
  readonly protocol: ProtocolId;
  /** The codec's bag on `target`, if any. */
  bag(target: WithExtensions | undefined): Record<string, unknown> | undefined;
  /** Merges `fields` into the codec's bag on `target` (nothing when `undefined`); returns `target`. */
  keep<T extends WithExtensions>(target: T, fields: Record<string, unknown> | undefined): T;
  /**
   * The fields of `wire` the codec does not model: keys not in `known`, and known keys whose
   * value is `null` (the canonical model has no null, so explicit nulls travel here) unless
   * `nullDefaults` names them (nulls the encoder writes anyway).
   */
  rest(wire: Record<string, unknown>, known: ReadonlySet<string>, nullDefaults?: ReadonlySet<string>): Record<string, unknown> | undefined;
  /** Copies the wire fields (not bookkeeping) of `target`'s bag onto `out`; returns the bag. */
  writeRest(out: Record<string, unknown>, target: WithExtensions | undefined): Record<string, unknown> | undefined;
  /** Sets the bookkeeping mark `$<name>` on `target`. */
  mark(target: WithExtensions, name: string, value: unknown): void;
  /** Reads the bookkeeping mark `$<name>`. */
  marker(target: WithExtensions | undefined, name: string): unknown;
}

/** The {@link ExtensionKit} of `protocol`: make one per codec, at module level. */
export function extensionKit(protocol: ProtocolId): ExtensionKit {
  return {
    protocol,
    bag: (target) => getExtensions(target, protocol),
    keep(target, fields) {
      setExtensions(target, protocol, fields);
      return target;
    },
    rest(wire, known, nullDefaults) {
      let rest: Record<string, unknown> | undefined;
      for (const key in wire) {
        const value = wire[key];
        if (known.has(key) && (value !== null || nullDefaults?.has(key))) continue;
        (rest ??= {})[key] = value;
      }
      return rest;
    },
    writeRest(out, target) {
      const bag = getExtensions(target, protocol);
      if (bag) for (const key in bag) if (key.charCodeAt(0) !== BOOKKEEPING) out[key] = bag[key];
      return bag;
    },
    mark(target, name, value) {
      const extensions = (target.extensions ??= {});
      (extensions[protocol] ??= {})[`$${name}`] = value;
    },
    marker: (target, name) => target?.extensions?.[protocol]?.[`$${name}`],
  };
}
