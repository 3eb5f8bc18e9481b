// undici's Agent and its `request` API, imported from their own modules. The package entry also
// loads fetch, WebSocket, the cache and cookie APIs and more, none of which the gateway uses:
// about 10 MB of resident memory in every process (measured: Node 20, undici 7.30). Static imports,
// so that the bundled bin carries these modules and nothing else of undici. The version is pinned
// in package.json, src/undici-modules.d.ts types the paths, and src/transport.test.ts and
// test/upstream-proxy.test.ts exercise them.
import type { Agent as AgentClass, Dispatcher, EnvHttpProxyAgent as EnvHttpProxyAgentClass, Pool as PoolClass } from 'undici';
import AgentModule from 'undici/lib/dispatcher/agent.js';
import EnvHttpProxyAgentModule from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import PoolModule from 'undici/lib/dispatcher/pool.js';
import connectModule from 'undici/lib/api/api-connect.js';
import requestModule from 'undici/lib/api/api-request.js';

/** undici's `Agent` class. */
export const Agent: typeof AgentClass = AgentModule;

/** undici's `EnvHttpProxyAgent`: an Agent per proxy plus a direct one for `NO_PROXY` hosts. */
export const EnvHttpProxyAgent: typeof EnvHttpProxyAgentClass = EnvHttpProxyAgentModule;

/**
 * The pool a `ProxyAgent` talks to its proxy through (its `clientFactory`). The proxy agent opens
 * each tunnel with the pool's `connect()`, a method undici's package entry adds to every
 * dispatcher; without that entry, this pool carries it itself.
 */
export const proxyClient = (origin: URL, options: PoolClass.Options): Dispatcher => Object.assign(new PoolModule(origin, options), { connect: connectModule });

/** undici's `dispatcher.request(options)`, called with the dispatcher as `this`. */
export const request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData> = requestModule;
