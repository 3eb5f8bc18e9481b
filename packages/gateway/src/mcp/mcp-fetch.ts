import type { LookupFunction } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Dispatcher } from 'undici';
import { refusingInternalAddresses, systemLookup } from '../internal-address-lookup.js';
import { upstreamProxyFromEnv } from '../upstream-proxy.js';

/** Where MCP HTTP connections resolve names and find the proxy. */
export interface McpFetchOptions {
  /** Name resolution (default `dns.lookup`); for tests. */
  lookup?: LookupFunction;
  /** Where `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY` are read, once (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The fetch functions of the MCP host's HTTP connections, as the upstream transport's rules ask:
 * through the proxy the environment names (undici's fetch over an `EnvHttpProxyAgent`), and, for
 * a client-supplied server whose host no allow entry names exactly, over sockets whose name
 * resolution refuses internal addresses (the address checked is the one connected to; a proxied
 * name is the proxy's to resolve, as for media downloads). Without a proxy, unchecked servers use
 * the global fetch. undici's package entry is imported only when one of these is needed.
 */
export class McpFetch {
  private readonly proxy: ReturnType<typeof upstreamProxyFromEnv>;
  private readonly lookup: LookupFunction;
  private readonly made = new Map<boolean, Promise<{ fetch: FetchLike; dispatcher: Dispatcher }>>();

  constructor(options: McpFetchOptions = {}) {
    this.proxy = upstreamProxyFromEnv(options.env ?? process.env);
    this.lookup = options.lookup ?? systemLookup;
  }

  /** The fetch for a server; `checked`: refuse internal addresses. Undefined: the global fetch. */
  async for(checked: boolean): Promise<FetchLike | undefined> {
    if (!checked && !this.proxy) return undefined;
    let made = this.made.get(checked);
    if (!made) {
      made = this.make(checked);
      this.made.set(checked, made);
    }
    return (await made).fetch;
  }

  async close(): Promise<void> {
    const made = await Promise.all([...this.made.values()].map((pending) => pending.catch(() => undefined)));
    this.made.clear();
    await Promise.all(made.map((entry) => entry?.dispatcher.close()));
  }

  private async make(checked: boolean): Promise<{ fetch: FetchLike; dispatcher: Dispatcher }> {
    const { Agent, EnvHttpProxyAgent, fetch } = await import('undici');
    const connect = { lookup: checked ? refusingInternalAddresses(this.lookup) : this.lookup };
    const dispatcher: Dispatcher = this.proxy ? new EnvHttpProxyAgent({ ...this.proxy, connect }) : new Agent({ connect });
    const viaDispatcher: FetchLike = (url, init) => fetch(url, { ...(init as object), dispatcher }) as unknown as Promise<Response>;
    return { fetch: viaDispatcher, dispatcher };
  }
}
