import { LlmError } from '@llm/core';
import { isAllowedMediaUrl, isInternalHost } from '@llm/router';

/**
 * Why a client-supplied MCP server may not be reached, as a 4xx {@link LlmError} naming the
 * server; undefined when it may. The URL is judged by the media-fetch allowlist's rules
 * (`isAllowedMediaUrl`: normalized URL, same origin and a path under a prefix entry, host entries
 * and `*.` patterns HTTPS only, internal hosts only when an entry names them exactly).
 */
export function clientServerRefusal(label: string, url: string | undefined, allow: readonly string[] | undefined): LlmError | undefined {
  const refuse = (kind: 'invalid_request' | 'permission', why: string) => new LlmError({ kind, message: `MCP server "${label}": ${why}` });
  if (!allow || allow.length === 0) return refuse('permission', 'client-supplied MCP servers are not enabled on this gateway');
  if (url === undefined) return refuse('invalid_request', 'a server_url is required (connectors are not run by this gateway)');
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) return refuse('invalid_request', 'the server URL must be an http(s) URL');
  if (parsed.username !== '' || parsed.password !== '') return refuse('invalid_request', 'the server URL must not carry credentials');
  if (!isAllowedMediaUrl(url, allow)) {
    const internal = isInternalHost(parsed.hostname) ? ' (an internal address, allowed only when an entry names its host)' : '';
    return refuse('permission', `${parsed.origin}${parsed.pathname} is not on this gateway's MCP server allowlist${internal}`);
  }
  return undefined;
}

/**
 * True when an allow entry names the URL's host exactly (a URL entry of that origin or a bare
 * host equal to it; a `*.` pattern never does): only then may the server's name resolve to an
 * internal address. Otherwise the connection checks every address it resolves to.
 */
export function allowEntryNamesHost(url: string, allow: readonly string[]): boolean {
  const { hostname, origin } = new URL(url);
  return allow.some((entry) => {
    if (!entry.includes('://')) return entry.toLowerCase() === hostname;
    return URL.canParse(entry) && new URL(entry).origin === origin;
  });
}
