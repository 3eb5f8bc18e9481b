import type { Codec, HeaderReader, ProtocolId } from '@llm/core';
import type { UpstreamConfig } from './config.js';

export function credentials(upstream: UpstreamConfig): { apiKey?: string; auth?: Exclude<UpstreamConfig['auth'], 'none'> } {
  if (upstream.auth === 'none' || upstream.apiKey === undefined) return {};
  return upstream.auth ? { apiKey: upstream.apiKey, auth: upstream.auth } : { apiKey: upstream.apiKey };
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
