/**
 * The forward proxy upstream calls go through, from the environment variables users behind a
 * corporate proxy already set for curl and friends: `HTTPS_PROXY` for https upstreams,
 * `HTTP_PROXY` for http ones (and for https ones when `HTTPS_PROXY` is unset), `NO_PROXY` for the
 * hosts reached directly (comma- or space-separated names, `.domain` / `*.domain` suffixes,
 * `host:port`, or `*` for every host). The lower-case form of each wins over the upper-case one,
 * as in curl and undici; an empty value is unset.
 */
export interface UpstreamProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/**
 * The environment's proxy settings, or `undefined` when no proxy variable is set (no proxy agent
 * is built then). A value that is not a proxy URL throws, naming the variable but not its value (a
 * proxy URL may carry a password).
 */
export function upstreamProxyFromEnv(env: Readonly<Record<string, string | undefined>>): UpstreamProxySettings | undefined {
  const httpProxy = proxyUrl(env, 'http_proxy', 'HTTP_PROXY');
  const httpsProxy = proxyUrl(env, 'https_proxy', 'HTTPS_PROXY') || httpProxy;
  if (!httpProxy && !httpsProxy) return undefined;
  return { httpProxy, httpsProxy, noProxy: env.no_proxy || env.NO_PROXY || '' };
}

function proxyUrl(env: Readonly<Record<string, string | undefined>>, lower: string, upper: string): string {
  const name = env[lower] ? lower : upper;
  const value = env[name] || '';
  if (value && !PROXY_PROTOCOLS.has(URL.parse(value)?.protocol ?? '')) {
    throw new TypeError(`${name} is not an http://, https:// or socks5:// URL (expected e.g. http://proxy.example:3128)`);
  }
  return value;
}

/** The proxy URL schemes undici's ProxyAgent speaks. */
const PROXY_PROTOCOLS = new Set(['http:', 'https:', 'socks5:', 'socks:']);
