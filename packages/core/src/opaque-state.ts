import { base64ToBytes, bytesToBase64Url } from './base64.js';
import { parseJson } from './json-depth.js';
import type { JsonValue } from './json.js';
import { isProtocolId, type LlmOrigin } from './protocol.js';
import type { PathLike } from './kit/part-path.js';
import { reportLoss, type CodecContext, type LlmWarning } from './warnings.js';

/**
 * The opaque-state carrier: provider state survives a conversation carried on by a client of
 * another protocol, and goes back only to the provider that issued it.
 *
 * When a client of one protocol talks to a provider of another, provider state the client has no
 * field for (a Gemini `thoughtSignature`, Responses reasoning items, Claude thinking signatures)
 * must still come back to that provider next turn. The carrier packs such state, tagged with its
 * origin, into a string the client is sure to echo: a tool-call id, a Claude thinking signature,
 * a `redacted_thinking.data`.
 *
 * Format, version 1: `llms1_<payload><checksum>` where
 * - `payload` is base64url (no padding) of the UTF-8 JSON `[protocol, model, provider, data]`
 *   (`null` for an unknown model or provider), and
 * - `checksum` is the FNV-1a 32-bit hash of `payload`, as 8 lowercase hex digits.
 *
 * Every character is in `[A-Za-z0-9_-]`, so a packed blob is a valid tool-use id for every
 * protocol (Claude's ids are the strictest). Embedded after a host value (an id), the carrier is
 * joined with a double underscore: `toolu_01A__llms1_…`.
 *
 * The checksum detects corruption and truncation, not forgery: a client can always send any
 * bytes, and providers verify their own signatures. What the carrier guarantees is that state is
 * replayed only to the protocol (and, when asked, model) that issued it, never to a foreign one.
 */

/** Opaque provider state with its provenance. */
export interface OpaqueState {
  /** Who issued the state; consumers replay it only to a matching origin. */
  origin: LlmOrigin;
  /** The state itself, any JSON value (a signature string, a list of reasoning items). */
  data: JsonValue;
}

/** Current carrier version prefix. */
export const OPAQUE_STATE_PREFIX = 'llms1_';
/** Separator between a host value and an embedded carrier. */
export const OPAQUE_STATE_SEPARATOR = '__';

const CARRIER = /__llms(\d+)_/;
const CHECKSUM_LENGTH = 8;

/** Packs `state` into a carrier string (see the module comment for the format). */
export function packOpaqueState(state: OpaqueState): string {
  const { protocol, model, provider } = state.origin;
  const json = JSON.stringify([protocol, model ?? null, provider ?? null, state.data]);
  const payload = bytesToBase64Url(new TextEncoder().encode(json));
  return OPAQUE_STATE_PREFIX + payload + checksum(payload);
}

/** Why {@link unpackOpaqueState} found nothing usable. */
export type OpaqueStateProblem = 'not-a-carrier' | 'unknown-version' | 'corrupt';

/** Result of {@link unpackOpaqueState}. */
export type UnpackedState = { state: OpaqueState } | { state?: undefined; problem: OpaqueStateProblem };

/** Unpacks a carrier string made by {@link packOpaqueState}. Never throws. */
export function unpackOpaqueState(text: string): UnpackedState {
  const version = /^llms(\d+)_/.exec(text);
  if (!version) return { problem: 'not-a-carrier' };
  if (version[1] !== '1') return { problem: 'unknown-version' };
  const body = text.slice(OPAQUE_STATE_PREFIX.length);
  if (body.length <= CHECKSUM_LENGTH) return { problem: 'corrupt' };
  const payload = body.slice(0, -CHECKSUM_LENGTH);
  if (checksum(payload) !== body.slice(-CHECKSUM_LENGTH)) return { problem: 'corrupt' };
  const bytes = base64ToBytes(payload);
  if (!bytes) return { problem: 'corrupt' };
  let decoded: unknown;
  try {
    // Carriers come back from clients: one nested past MAX_JSON_DEPTH is corrupt, not a later stack overflow.
    decoded = parseJson(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return { problem: 'corrupt' };
  }
  if (!Array.isArray(decoded) || decoded.length !== 4) return { problem: 'corrupt' };
  const [protocol, model, provider, data] = decoded as unknown[];
  if (!isProtocolId(protocol)) return { problem: 'corrupt' };
  if ((model !== null && typeof model !== 'string') || (provider !== null && typeof provider !== 'string')) {
    return { problem: 'corrupt' };
  }
  const origin: LlmOrigin = { protocol };
  if (model !== null) origin.model = model;
  if (provider !== null) origin.provider = provider;
  return { state: { origin, data: data as JsonValue } };
}

/** `host` with `state` embedded after it: `host__llms1_…`. */
export function embedOpaqueState(host: string, state: OpaqueState): string {
  return host + OPAQUE_STATE_SEPARATOR + packOpaqueState(state);
}

/** Result of {@link extractOpaqueState}. */
export interface ExtractedState {
  /** The value without the carrier (the original id). */
  host: string;
  /** The state, when a valid carrier was found. */
  state?: OpaqueState;
  /** Set when a carrier was present but unusable (it was removed from `host` all the same). */
  problem?: Exclude<OpaqueStateProblem, 'not-a-carrier'>;
}

/**
 * Splits a value made by {@link embedOpaqueState} back into host and state. A value without a
 * carrier comes back whole as `host`. A corrupt or unknown-version carrier is cut off and
 * reported in `problem`, so it is never sent on.
 */
export function extractOpaqueState(value: string): ExtractedState {
  const match = CARRIER.exec(value);
  if (!match) return { host: value };
  const host = value.slice(0, match.index);
  const unpacked = unpackOpaqueState(value.slice(match.index + OPAQUE_STATE_SEPARATOR.length));
  if (unpacked.state) return { host, state: unpacked.state };
  return { host, problem: unpacked.problem === 'unknown-version' ? 'unknown-version' : 'corrupt' };
}

/**
 * True when state of origin `state` may be replayed to `target`: same protocol, same provider
 * when both name one, and, with `sameModel`, same model when both name one.
 */
export function originMatches(state: LlmOrigin, target: LlmOrigin, options: { sameModel?: boolean } = {}): boolean {
  if (state.protocol !== target.protocol) return false;
  if (state.provider !== undefined && target.provider !== undefined && state.provider !== target.provider) return false;
  if (options.sameModel && state.model !== undefined && target.model !== undefined && state.model !== target.model) {
    return false;
  }
  return true;
}

/**
 * The warning to report for state that was not replayed: `foreign-state` when it belongs to
 * another origin, `invalid-state` when the carrier was corrupt or of an unknown version.
 */
export function opaqueStateWarning(
  path: string,
  reason: { foreign: LlmOrigin; target: LlmOrigin } | { problem: Exclude<OpaqueStateProblem, 'not-a-carrier'> },
): LlmWarning {
  if ('problem' in reason) {
    return {
      code: 'invalid-state',
      path,
      message:
        reason.problem === 'unknown-version' ? 'opaque provider state of an unknown carrier version was ignored' : 'corrupt opaque provider state was ignored',
    };
  }
  const from = reason.foreign.model ? `${reason.foreign.protocol} (${reason.foreign.model})` : reason.foreign.protocol;
  const to = reason.target.model ? `${reason.target.protocol} (${reason.target.model})` : reason.target.protocol;
  return {
    code: 'foreign-state',
    path,
    message: `provider state issued by ${from} was not replayed to ${to}`,
  };
}

/**
 * Reports (as `foreign-state`, in the name of `target.protocol`) the opaque state of a text or
 * tool-call part that `target` did not issue: that state is not sent. Nothing when the part has
 * no `signature` or `target`'s protocol issued it. A signature without an origin is Gemini's (only
 * Gemini signs text and calls).
 */
export function reportForeignPartState(
  context: CodecContext | undefined,
  path: PathLike,
  part: { signature?: string; origin?: LlmOrigin },
  target: LlmOrigin,
): void {
  if (part.signature === undefined || part.origin?.protocol === target.protocol) return;
  reportOpaqueState(context, path, part.origin ?? { protocol: 'gemini' }, target);
}

/** Reports (as `foreign-state`, in the name of `target.protocol`) opaque state `foreign` issued, which `target` is not sent. */
export function reportOpaqueState(context: CodecContext | undefined, path: PathLike, foreign: LlmOrigin, target: LlmOrigin): void {
  reportLoss(context, { ...opaqueStateWarning(String(path), { foreign, target }), protocol: target.protocol });
}

/** FNV-1a, 32 bit, over UTF-16 code units (the payload is ASCII), as 8 hex digits. */
function checksum(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(CHECKSUM_LENGTH, '0');
}
