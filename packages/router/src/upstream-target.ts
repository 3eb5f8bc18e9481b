import type { Codec, HeaderReader, ProtocolId } from '@llm/core';
import type { UpstreamConfig } from './config.js';

/** The key and scheme of a call: `apiKey` when given (one of `apiKeys` in turn), else the upstream's first. */
export function credentials(
  upstream: UpstreamConfig,
  apiKey = upstream.apiKey ?? upstream.apiKeys?.[0],
): { apiKey?: string; auth?: Exclude<UpstreamConfig['auth'], 'none'> } {
  if (upstream.auth === 'none' || apiKey === undefined) return {};
  return upstream.auth ? { apiKey, auth: upstream.auth } : { apiKey };
}

/**
 * Extra headers of an upstream call: a same-protocol client's forwarded headers (its API version
 * and betas, see `HttpBinding.forwardedHeaders`), under the upstream's configured ones.
 */
export function upstreamHeaders(upstream: UpstreamConfig, codec: Codec, clientId: ProtocolId, clientHeaders: HeaderReader): Record<string, string> | undefined {
  const names = clientId === codec.id ? codec.http.forwardedHeaders : undefined;
  if (!names) return upstream.headers;
  let forwarded: Record<string, string> | undefined;
  for (const name of names) {
    const value = clientHeaders.get(name);
    if (value !== null) (forwarded ??= {})[name] = value;
  }
  return forwarded ? { ...forwarded, ...upstream.headers } : upstream.headers;
}
