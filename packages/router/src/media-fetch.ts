import { LlmError, bytesToBase64, type LlmMediaSource, type LlmRequest, type ProtocolId } from '@llm/core';
import type { Transport, UpstreamResponse } from './config.js';
import { isOkStatus } from './upstream-call.js';

/**
 * Downloading media URLs for targets that cannot take them. Off unless configured: the router
 * never fetches a URL by itself, only URLs on the allowlist, and only up to `maxBytes`.
 */
export interface MediaFetchConfig {
  /**
   * URLs that may be fetched: a prefix (`https://cdn.example.com/images/`) or a host pattern
   * (`*.example.com`, `cdn.example.com`, HTTPS only).
   */
  allow: string[];
  /** Largest download in bytes (default 5 MiB); larger answers fail the request with 400. */
  maxBytes?: number;
  /** Per-download timeout in milliseconds (default 10000). */
  timeoutMs?: number;
}

/** Which media kinds each protocol accepts by URL (Gemini's fileData takes uploaded files only; Chat files take data only). */
const URL_MEDIA: Record<ProtocolId, { image: boolean; file: boolean; audio: boolean }> = {
  'openai-chat': { image: true, file: false, audio: false },
  'openai-responses': { image: true, file: true, audio: false },
  claude: { image: true, file: true, audio: false },
  gemini: { image: false, file: false, audio: false },
};

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

type MediaPart = { type: 'image' | 'file' | 'audio'; source: LlmMediaSource };

/** Every image / file / audio part of a request, tool results included. */
function mediaParts(request: LlmRequest): MediaPart[] {
  const out: MediaPart[] = [];
  const visit = (parts: readonly unknown[]) => {
    for (const part of parts as Array<{ type: string; source?: LlmMediaSource; content?: unknown }>) {
      if ((part.type === 'image' || part.type === 'file' || part.type === 'audio') && part.source) out.push(part as MediaPart);
      else if (part.type === 'tool-result' && Array.isArray(part.content)) visit(part.content);
    }
  };
  for (const message of request.messages) visit(message.content);
  return out;
}

/** True when `url` is on the allowlist. */
export function isAllowedMediaUrl(url: string, allow: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  return allow.some((entry) => {
    if (entry.includes('://')) return url.startsWith(entry);
    if (parsed.protocol !== 'https:') return false;
    if (entry.startsWith('*.')) return parsed.hostname.endsWith(entry.slice(1));
    return parsed.hostname === entry;
  });
}

/** The allowlisted URLs of media the target cannot take by URL. */
export function mediaUrlsToFetch(request: LlmRequest, target: ProtocolId, config: MediaFetchConfig): string[] {
  const accepts = URL_MEDIA[target];
  const urls = new Set<string>();
  for (const part of mediaParts(request)) {
    if (part.source.kind !== 'url' || part.source.url.startsWith('data:') || accepts[part.type]) continue;
    if (isAllowedMediaUrl(part.source.url, config.allow)) urls.add(part.source.url);
  }
  return [...urls];
}

/** A downloaded medium. */
export interface FetchedMedia {
  mediaType: string;
  data: string;
}

/** Downloads `urls` with the size limit; any failure is an `invalid_request` naming the URL. */
export async function fetchMediaUrls(urls: readonly string[], config: MediaFetchConfig, transport: Transport): Promise<Map<string, FetchedMedia>> {
  const limit = config.maxBytes ?? DEFAULT_MAX_BYTES;
  const entries = await Promise.all(
    urls.map(async (url): Promise<[string, FetchedMedia]> => {
      const fail = (why: string) => new LlmError({ kind: 'invalid_request', message: `media ${url}: ${why}` });
      let response: UpstreamResponse;
      try {
        response = await transport({ url, method: 'GET', signal: AbortSignal.timeout(config.timeoutMs ?? 10_000) });
      } catch (error) {
        throw fail(`download failed (${error instanceof Error ? error.message : String(error)})`);
      }
      if (!isOkStatus(response.status)) throw fail(`download answered HTTP ${response.status}`);
      const declared = Number(response.headers.get('content-length') ?? '0');
      if (declared > limit) {
        await response.body?.cancel();
        throw fail(`larger than ${limit} bytes`);
      }
      const bytes = await readLimited(response, limit);
      if (!bytes) throw fail(`larger than ${limit} bytes`);
      const mediaType = (response.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]?.trim() ?? 'application/octet-stream';
      return [url, { mediaType, data: bytesToBase64(bytes) }];
    }),
  );
  return new Map(entries);
}

/** The body, or undefined once it passes `limit` bytes (the download is cancelled there). */
async function readLimited(response: UpstreamResponse, limit: number): Promise<Uint8Array | undefined> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
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
  for (const part of mediaParts(request)) {
    if (part.source.kind !== 'url') continue;
    const media = fetched.get(part.source.url);
    if (media) part.source = { kind: 'base64', mediaType: part.source.mediaType ?? media.mediaType, data: media.data };
  }
}
