import { CancelSource, LlmError, bytesToBase64, type LlmMediaSource, type LlmRequest } from '@llm/core';
import type { Transport, UpstreamResponse } from './config.js';
import { isInternalHost } from './internal-hosts.js';
import { protocolTraits, type ProtocolRef } from './protocol-traits.js';
import { untilAborted } from './until-aborted.js';
import { isOkStatus } from './upstream-call.js';

/**
 * Downloading media URLs for targets that cannot take them. Off unless configured: the router
 * never fetches a URL by itself, only URLs on the allowlist, and only up to `maxBytes`.
 */
export interface MediaFetchConfig {
  /**
   * URLs that may be fetched: a URL prefix (`https://cdn.example.com/images/`: same origin, path
   * below it) or a host (`cdn.example.com`) or host pattern (`*.example.com`), HTTPS only. See
   * {@link isAllowedMediaUrl}.
   */
  allow: string[];
  /** Largest download in bytes (default 5 MiB); larger answers fail the request with 400. */
  maxBytes?: number;
  /** Per-download timeout in milliseconds, redirects and body included (default 10000); past it, 400. */
  timeoutMs?: number;
}

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;
/** Redirect hops followed per download, each checked against the allowlist. */
export const MAX_MEDIA_REDIRECTS = 5;

type MediaPart = { type: 'image' | 'file' | 'audio'; source: LlmMediaSource };

/** Every image / file / audio part of a request, tool results included, with its path. */
function mediaParts(request: LlmRequest): Array<{ part: MediaPart; path: string }> {
  const out: Array<{ part: MediaPart; path: string }> = [];
  const visit = (parts: readonly unknown[], path: string) => {
    (parts as Array<{ type: string; source?: LlmMediaSource; content?: unknown }>).forEach((part, index) => {
      if ((part.type === 'image' || part.type === 'file' || part.type === 'audio') && part.source)
        out.push({ part: part as MediaPart, path: `${path}[${index}]` });
      else if (part.type === 'tool-result' && Array.isArray(part.content)) visit(part.content, `${path}[${index}].content`);
    });
  };
  request.messages.forEach((message, index) => visit(message.content, `messages[${index}].content`));
  return out;
}

/**
 * True when `url` is on the allowlist. The URL is parsed and normalized first (`..` and `%2e%2e`
 * segments resolved), and the normalized URL is what must match and what is fetched:
 * - an entry with a scheme (`https://cdn.example.com/images/`) matches the same origin (scheme,
 *   host, port) and a path under the entry's, on segment boundaries (`/images` does not allow
 *   `/images2/`);
 * - a host entry (`cdn.example.com`) or pattern (`*.example.com`) matches HTTPS on the default port.
 * URLs with user info (`http://host:1@other-host/`), or encoded `.`, `/` or `\` in the path, never
 * match. Loopback, link-local, private and unspecified addresses and `localhost` match only an
 * entry naming that host exactly (never a `*.` pattern).
 */
export function isAllowedMediaUrl(url: string, allow: readonly string[]): boolean {
  const parsed = parseHttpUrl(url);
  if (parsed?.username !== '' || parsed.password !== '' || /%(2e|2f|5c)/i.test(parsed.pathname)) return false;
  const internal = isInternalHost(parsed.hostname);
  return allow.some((entry) => entryAllows(entry, parsed, internal));
}

/**
 * True when an allow entry names the URL's host exactly (a URL entry matching it, or a host entry
 * equal to its hostname; a `*.` pattern never names a host): such a URL may reach an internal
 * address, which the transport is told through `UpstreamRequest.internalAllowed`.
 */
function namesHostExactly(url: URL, allow: readonly string[]): boolean {
  return allow.some((entry) => entryAllows(entry, url, true));
}

function entryAllows(entry: string, url: URL, internal: boolean): boolean {
  if (entry.includes('://')) {
    const base = parseHttpUrl(entry);
    return base !== undefined && base.origin === url.origin && isPathWithin(url.pathname, base.pathname);
  }
  if (url.protocol !== 'https:' || url.port !== '') return false;
  const host = entry.toLowerCase();
  if (host.startsWith('*.')) return !internal && url.hostname.endsWith(host.slice(1));
  return url.hostname === host;
}

/** True when `path` is `prefix` or below it, on a segment boundary. */
function isPathWithin(path: string, prefix: string): boolean {
  if (prefix.endsWith('/')) return path.startsWith(prefix);
  return path === prefix || path.startsWith(`${prefix}/`);
}

function parseHttpUrl(text: string, base?: URL): URL | undefined {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    return undefined;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
}

/** A media URL to download, and the path of its part in the (canonical) request. */
export interface MediaToFetch {
  url: string;
  path: string;
}

/** The allowlisted URLs of media the target cannot take by URL (each URL once, with its first part's path). */
export function mediaUrlsToFetch(request: LlmRequest, target: ProtocolRef, config: MediaFetchConfig): MediaToFetch[] {
  // What the target takes by URL (Gemini's fileData takes uploaded files only; Chat files take data only).
  const accepts = protocolTraits(target).traits.mediaByUrl;
  const found = new Map<string, string>();
  for (const { part, path } of mediaParts(request)) {
    if (part.source.kind !== 'url' || part.source.url.startsWith('data:') || accepts[part.type] || found.has(part.source.url)) continue;
    if (isAllowedMediaUrl(part.source.url, config.allow)) found.set(part.source.url, path);
  }
  return [...found].map(([url, path]) => ({ url, path }));
}

/** A downloaded medium. */
export interface FetchedMedia {
  mediaType: string;
  data: string;
}

/**
 * Downloads media with the size limit and the timeout, following only redirects whose every hop
 * is on the allowlist. Any failure is a 400 `invalid_request` naming the URL, with the part's
 * path; the underlying error (a socket error) stays in `cause`, out of the message.
 */
export async function fetchMediaUrls(media: readonly MediaToFetch[], config: MediaFetchConfig, transport: Transport): Promise<Map<string, FetchedMedia>> {
  const entries = await Promise.all(media.map(async (item): Promise<[string, FetchedMedia]> => [item.url, await download(item, config, transport)]));
  return new Map(entries);
}

async function download(item: MediaToFetch, config: MediaFetchConfig, transport: Transport): Promise<FetchedMedia> {
  const fail = (why: string, cause?: unknown) => new LlmError({ kind: 'invalid_request', message: `media ${item.url}: ${why}`, path: item.path, cause });
  const limit = config.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // One cancel for every hop and the body: the timeout bounds the whole download.
  const cancel = new CancelSource();
  const timer = setTimeout(() => cancel.abort(fail(`download timed out after ${timeoutMs} ms`)), timeoutMs);
  try {
    const response = await untilAborted(followAllowed(item.url, config.allow, transport, cancel, fail), cancel);
    if (!isOkStatus(response.status)) {
      await response.body?.cancel().catch(() => undefined);
      throw fail(`download answered HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > limit) {
      await response.body?.cancel().catch(() => undefined);
      throw fail(`larger than ${limit} bytes`);
    }
    const bytes = await untilAborted(readLimited(response, limit, cancel), cancel);
    if (!bytes) throw fail(`larger than ${limit} bytes`);
    const mediaType = (response.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]?.trim() ?? 'application/octet-stream';
    return { mediaType, data: bytesToBase64(bytes) };
  } catch (error) {
    throw LlmError.isInstance(error) ? error : fail('download failed', error);
  } finally {
    clearTimeout(timer);
    cancel.abort();
  }
}

/** The first answer that is not a redirect, each hop checked against the allowlist (the transport follows none). */
async function followAllowed(
  url: string,
  allow: readonly string[],
  transport: Transport,
  cancel: CancelSource,
  fail: (why: string) => LlmError,
): Promise<UpstreamResponse> {
  let current = parseHttpUrl(url) as URL;
  for (let hop = 0; ; hop++) {
    const response = await transport({
      url: current.href,
      method: 'GET',
      redirect: 'manual',
      purpose: 'media',
      internalAllowed: namesHostExactly(current, allow),
      cancel,
      signal: cancel.toAbortSignal(),
    });
    // `redirect: 'manual'` in a browser-like fetch hides the hop (an opaque status 0): refuse it.
    if (response.status === 0) throw fail('redirected where the router cannot check');
    if (response.status < 300 || response.status > 399 || response.status === 304) return response;
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    const next = location === null ? undefined : parseHttpUrl(location, current);
    if (!next || !isAllowedMediaUrl(next.href, allow)) throw fail('redirected outside the allowlist');
    if (hop >= MAX_MEDIA_REDIRECTS) throw fail(`more than ${MAX_MEDIA_REDIRECTS} redirects`);
    current = next;
  }
}

/** The body, or undefined once it passes `limit` bytes (the download is cancelled there, or on `cancel`). */
async function readLimited(response: UpstreamResponse, limit: number, cancel: CancelSource): Promise<Uint8Array | undefined> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const stop = (): void => void reader.cancel().catch(() => undefined);
  cancel.addEventListener('abort', stop);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        return undefined;
      }
      chunks.push(value);
    }
  } finally {
    cancel.removeEventListener('abort', stop);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** Replaces fetched URL sources by inline base64, in place. The part's declared media type wins. */
export function inlineFetchedMedia(request: LlmRequest, fetched: ReadonlyMap<string, FetchedMedia>): void {
  if (fetched.size === 0) return;
  for (const { part } of mediaParts(request)) {
    if (part.source.kind !== 'url') continue;
    const media = fetched.get(part.source.url);
    if (media) part.source = { kind: 'base64', mediaType: part.source.mediaType ?? media.mediaType, data: media.data };
  }
}
