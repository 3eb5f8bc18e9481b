import { LlmError } from '@llm/core';
import type { CodecRegistry } from './registry.js';
import type { RouterReply } from './reply.js';

/**
 * The router's 404 for a call no codec serves, in the shape of the protocol whose path family
 * (the codec's `http.ownsPath`: `/v1/messages…` Claude, `/v1/responses…` Responses, `/v1beta/…`
 * Gemini...) holds its path, and in OpenAI's shape otherwise:
 * `{"error":{"message","type":"not_found_error","param":null,"code":null}}`. (The gateway
 * answers its own 404s and 405s before calling the router, by the same families.)
 */
export function noEndpointReply(codecs: CodecRegistry, method: string, pathname: string): RouterReply {
  const error = new LlmError({ kind: 'not_found', message: `no endpoint at ${method} ${pathname}` });
  const codec = Object.values(codecs).find((candidate) => candidate?.http.ownsPath(pathname));
  const encoded = codec
    ? codec.error.encode(error)
    : { status: 404, body: { error: { message: error.message, type: 'not_found_error', param: null, code: null } } };
  return { status: encoded.status, headers: { 'content-type': 'application/json', ...encoded.headers }, body: JSON.stringify(encoded.body) };
}

/**
 * A codec that could not read the call's path (bad percent-encoding such as `%ZZ`): a 400 in that
 * codec's protocol. An `LlmError` from the codec stands; anything else (a `URIError`) is wrapped.
 */
export function unreadablePath(cause: unknown): LlmError {
  if (LlmError.isInstance(cause)) return cause;
  return new LlmError({ kind: 'invalid_request', message: 'the request path could not be read (bad percent-encoding)', cause });
}
