import type { GatewayConfig } from '../config/schema.js';
import type { Transport, UpstreamRequest, UpstreamResponse } from '../router-contract.js';

/** One upstream of the config, as validated. */
export type ConfiguredUpstream = GatewayConfig['upstreams'][string];

/** The clouds an upstream's `flavor` names. */
export type CloudFlavorName = NonNullable<ConfiguredUpstream['flavor']>;

/** Where the environment is read (`AWS_*`): `process.env` unless a test passes its own. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * A cloud's wrapping of the transport for one upstream: given the router's request (built for the
 * upstream's protocol under its router-facing base URL) and the path after that base
 * (`/v1/messages`, `/v1beta/models/m:generateContent`, `/chat/completions`...), it sends the
 * cloud's own form of the call (URL, auth, body fields) and returns an answer in the protocol's
 * own form (framing, error bodies), so the router and the codecs see nothing new.
 */
export type CloudAdapter = (request: UpstreamRequest, path: string) => Promise<UpstreamResponse>;

/** The request as the router made it, with some fields replaced (its `cancel` and lazy `signal` kept). */
export function rewritten(request: UpstreamRequest, fields: Partial<Pick<UpstreamRequest, 'url' | 'headers' | 'body'>>): UpstreamRequest {
  return Object.assign(Object.create(request) as UpstreamRequest, fields);
}

/** The router's headers less those a cloud must not receive (the protocol's own auth and version headers). */
export function withoutHeaders(headers: Record<string, string> | undefined, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (!names.includes(name.toLowerCase())) out[name] = value;
  return out;
}

/** A call this cloud has no form for (e.g. Claude token counting on Bedrock). */
export class UnsupportedCloudCall extends Error {
  override readonly name = 'UnsupportedCloudCall';
}

/** What a cloud module provides: its endpoint and its adapter factory. */
export interface CloudFlavor {
  /** The cloud endpoint (origin, maybe with a path) an upstream calls when it sets no `baseUrl`. */
  endpoint(upstream: ConfiguredUpstream, env: Env): string;
  adapter(upstream: ConfiguredUpstream, transport: Transport, env: Env): CloudAdapter;
}
