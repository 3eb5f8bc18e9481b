// undici's Agent and its `request` API, imported from their own modules. The package entry also
// loads fetch, WebSocket, the cache and cookie APIs and more, none of which the gateway uses:
// about 10 MB of resident memory in every process (measured: Node 20, undici 7.30). Static imports,
// so that the bundled bin carries these modules and nothing else of undici. The version is pinned
// in package.json, src/undici-modules.d.ts types the two paths, and src/transport.test.ts
// exercises them.
import type { Agent as AgentClass, Dispatcher } from 'undici';
import AgentModule from 'undici/lib/dispatcher/agent.js';
import requestModule from 'undici/lib/api/api-request.js';

/** undici's `Agent` class. */
export const Agent: typeof AgentClass = AgentModule;

/** undici's `dispatcher.request(options)`, called with the dispatcher as `this`. */
export const request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData> = requestModule;
