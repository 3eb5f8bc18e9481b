import type { HeaderReader } from '@llm/core';
import type { ClientProtocol } from '../served-protocols.js';
import type { RouterReply } from '@llm/router';
import { codecOf } from '../translate.js';
import { clientProtocolOf } from './client-protocol.js';
import { protocolError } from './protocol-error.js';

/** The protocols whose endpoints the router serves. */
const PROTOCOLS: readonly ClientProtocol[] = ['openai-chat', 'openai-responses', 'claude', 'gemini', 'bedrock-converse'];

/** The methods the served endpoints take (for a 405's `allow`). */
const METHODS = ['GET', 'POST'] as const;

/** A request's protocol when an endpoint serves it; else the error to answer (and the protocol its path belongs to). */
export type EndpointCheck = { protocol: ClientProtocol; error?: undefined } | { protocol: ClientProtocol | undefined; error: RouterReply };

/**
 * Which protocol serves a request, or the answer to a request no endpoint serves, in the shape
 * of the protocol its path belongs to (OpenAI's when none): 400 for a path that is not valid
 * percent-encoding, 405 with `allow` when the path is served under another method, 404
 * otherwise. A served request costs one `matchRequest` of its path's own protocol; the other
 * codecs are only asked on the way to an error.
 */
export function checkEndpoint(method: string, url: URL, headers: HeaderReader): EndpointCheck {
  const protocol = clientProtocolOf(method, url, headers);
  // Decoding is tried only for the rare path holding an escape: `%ZZ` or a cut UTF-8 sequence
  // must be the client's 400, never a URIError thrown from deep in a codec (a 500).
  if (url.pathname.includes('%') && !decodes(url.pathname))
    return { protocol, error: protocolError(protocol, 400, 'the request path is not valid percent-encoding') };
  if (protocol && (matches(protocol, method, url) || PROTOCOLS.some((id) => matches(id, method, url)))) return { protocol };
  const allow = METHODS.filter((other) => other !== method && PROTOCOLS.some((id) => matches(id, other, url)));
  if (allow.length === 0) return { protocol, error: protocolError(protocol, 404, `no endpoint at ${method} ${url.pathname}`) };
  const error = protocolError(protocol, 405, `method ${method} is not allowed at ${url.pathname} (allowed: ${allow.join(', ')})`);
  error.headers.allow = allow.join(', ');
  return { protocol, error };
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function matches(protocol: ClientProtocol, method: string, url: URL): boolean {
  return codecOf(protocol).http.matchRequest(method, url) !== undefined;
}
