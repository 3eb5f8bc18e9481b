import type { GatewayConfig } from '../config/schema.js';
import type { Transport, UpstreamConfig } from '../router-contract.js';
import { byBaseUrl } from '../upstream-by-url.js';
import { azure } from './azure.js';
import { bedrock } from './bedrock.js';
import { type CloudAdapter, type CloudFlavor, type CloudFlavorName, type ConfiguredUpstream, type Env, UnsupportedCloudCall } from './cloud-adapter.js';
import { ReplacedAnswer } from './replaced-answer.js';
import { vertex } from './vertex.js';

const FLAVORS: Readonly<Record<NonNullable<ConfiguredUpstream['flavor']>, CloudFlavor>> = { azure, vertex, bedrock };

/**
 * The path segment that makes a cloud upstream's router-facing base URL its own: the router
 * builds its protocol's URL under `{cloud endpoint}/llm-gateway-upstream/{name}`, and the
 * transport below knows the upstream by that prefix and sends the cloud's real URL instead. The
 * origin stays the cloud's, so logs and spans name the host actually called.
 */
const UPSTREAM_SEGMENT = '/llm-gateway-upstream/';

function routerBase(name: string, upstream: ConfiguredUpstream, flavor: CloudFlavor, env: Env): string {
  const endpoint = (upstream.baseUrl ?? flavor.endpoint(upstream, env)).replace(/\/+$/, '');
  return `${endpoint}${UPSTREAM_SEGMENT}${encodeURIComponent(name)}`;
}

/**
 * The router's view of the upstreams: a cloud upstream gets its router-facing base URL and no
 * key (its adapter signs in); the others pass as they are.
 */
export function routerUpstreams(upstreams: GatewayConfig['upstreams'], env: Env = process.env): Record<string, UpstreamConfig> {
  const out: Record<string, UpstreamConfig> = {};
  for (const [name, upstream] of Object.entries(upstreams)) {
    const { protocol, headers, timeoutMs, streamIdleTimeoutMs, strictTools, capabilities } = upstream;
    if (!upstream.flavor) {
      // The cloud fields are all unset here (the config check): the upstream passes as it is.
      out[name] = upstream as UpstreamConfig;
      continue;
    }
    const common = { protocol, headers, timeoutMs, streamIdleTimeoutMs, strictTools, capabilities };
    for (const key of Object.keys(common) as (keyof typeof common)[]) if (common[key] === undefined) delete common[key];
    out[name] = { ...common, baseUrl: routerBase(name, upstream, FLAVORS[upstream.flavor], env), auth: 'none' };
    // Anthropic's MCP connector is the API's own: Claude on Bedrock or Vertex has none.
    if (upstream.protocol === 'claude' && upstream.flavor !== 'azure') out[name].hostsMcp = false;
  }
  return out;
}

/** The router's upstreams, each with its cloud's `flavor` when it has one (for spans: the provider's name). */
export function withFlavors(
  routerView: Readonly<Record<string, UpstreamConfig>>,
  upstreams: GatewayConfig['upstreams'],
): Record<string, UpstreamConfig & { flavor?: CloudFlavorName }> {
  const out: Record<string, UpstreamConfig & { flavor?: CloudFlavorName }> = {};
  for (const [name, upstream] of Object.entries(routerView)) {
    const flavor = upstreams[name]?.flavor;
    out[name] = flavor ? { ...upstream, flavor } : upstream;
  }
  return out;
}

/**
 * The transport with each cloud upstream's adapter in front: a call under a cloud upstream's
 * router-facing base goes through its adapter, any other passes unchanged. Adapters are built
 * here, once per config (a reload builds new ones: tokens are fetched again on first use).
 */
export function cloudTransport(transport: Transport, upstreams: GatewayConfig['upstreams'], env: Env = process.env): Transport {
  const adapters: { base: string; value: { base: string; adapter: CloudAdapter } }[] = [];
  for (const [name, upstream] of Object.entries(upstreams)) {
    if (!upstream.flavor) continue;
    const flavor = FLAVORS[upstream.flavor];
    const base = routerBase(name, upstream, flavor, env);
    adapters.push({ base, value: { base, adapter: flavor.adapter(upstream, transport, env) } });
  }
  if (adapters.length === 0) return transport;
  // The base, then a path, a query or nothing: `.../a` is not `.../ab`.
  const adapterOf = byBaseUrl(adapters);
  return async (request) => {
    if (request.purpose === 'media') return transport(request);
    const cloud = adapterOf(request.url);
    if (cloud === undefined) return transport(request);
    try {
      return await cloud.adapter(request, request.url.slice(cloud.base.length));
    } catch (error) {
      if (error instanceof UnsupportedCloudCall) return ReplacedAnswer.json(404, { type: 'error', error: { type: 'not_found_error', message: error.message } });
      throw error;
    }
  };
}
