// undici's Agent and its `request` API, loaded from their own modules. The package entry also
// loads fetch, WebSocket, the cache and cookie APIs and more, none of which the gateway uses:
// about 10 MB of resident memory in every process (measured: Node 20, undici 7.30). The version
// is pinned in package.json, and src/transport.test.ts exercises these paths.
import { createRequire } from 'node:module';
import type { Agent as AgentClass, Dispatcher } from 'undici';

const require = createRequire(import.meta.url);

/** undici's `Agent` class. */
export const Agent = require('undici/lib/dispatcher/agent.js') as typeof AgentClass;

/** undici's `dispatcher.request(options)`, called with the dispatcher as `this`. */
export const request = require('undici/lib/api/api-request.js') as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
