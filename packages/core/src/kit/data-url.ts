/** A `data:` URL split into its parts. */
export interface DataUrl {
  /** The media type (`image/png`), `''` when the URL names none. */
  mediaType: string;
  /** Parameters between the media type and `;base64` (`;charset=utf-8`), `''` when none. */
  parameters: string;
  /** The base64 payload. */
  data: string;
}

const DATA_URL = /^data:([^;,]+)?((?:;[^;,]*)*);base64,/;

/**
 * Splits a base64 `data:` URL, or `undefined` when `url` is not one (plain-text data URLs
 * included). Codecs decide what a missing media type or extra parameters mean for their wire.
 */
export function parseDataUrl(url: string): DataUrl | undefined {
  if (!url.startsWith('data:')) return undefined;
  const match = DATA_URL.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1] ?? '', parameters: match[2] ?? '', data: url.slice(match[0].length) };
}

/** A base64 `data:` URL. */
export function dataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}
