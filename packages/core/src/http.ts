import { LlmError } from './errors.js';
import type { ProtocolId } from './protocol.js';

/**
 * How a client presents its key.
 * - `bearer`: `Authorization: Bearer <key>` (OpenAI; also accepted by Anthropic).
 * - `x-api-key`: Anthropic's header.
 * - `x-goog-api-key`: Gemini's header.
 * - `query-key`: Gemini's `?key=` query parameter.
 */
export type AuthScheme = 'bearer' | 'x-api-key' | 'x-goog-api-key' | 'query-key';

/**
 * Read access to HTTP headers by case-insensitive name. A WHATWG `Headers` is one; a server may
 * pass a lighter view over its own header map.
 */
export interface HeaderReader {
  get(name: string): string | null;
}

/** What an endpoint of a protocol does. */
export type HttpOperation = 'generate' | 'count-tokens' | 'list-models' | 'retrieve-response';

/** An inbound request recognised by {@link HttpBinding.matchRequest}. */
export interface HttpRequestMatch {
  operation: HttpOperation;
  /** Model named in the URL (Gemini), if any. */
  model?: string;
  /** Stream flag from the URL (Gemini), if the URL decides it. */
  stream?: boolean;
  /** Id in the URL (`GET /v1/responses/{id}`). */
  id?: string;
}

/** Where an upstream request goes, built by {@link HttpBinding.buildRequest}. */
export interface HttpTarget {
  /** Absolute URL. */
  url: string;
  /** Headers to send (content type, auth, required protocol headers). */
  headers: Record<string, string>;
}

/** Inputs of {@link HttpBinding.buildRequest}. */
export interface HttpTargetOptions {
  /** Base URL in the official SDK's convention: OpenAI's includes `/v1`; Anthropic's and Gemini's do not. */
  baseUrl: string;
  model: string;
  stream: boolean;
  operation?: HttpOperation;
  /** Key to present upstream. Omit for no auth. */
  apiKey?: string;
  /** Override the protocol's default auth scheme. */
  auth?: AuthScheme;
  /** Extra headers (they win over the defaults). */
  headers?: Record<string, string>;
}

/**
 * How a protocol travels over HTTP: paths, where the model and the stream flag live, auth header
 * forms, required headers. Codecs implement it; the router uses it in both directions (serving
 * clients and calling upstreams).
 */
export interface HttpBinding {
  readonly protocol: ProtocolId;
  /** Where the model name lives: a body field or the URL path (Gemini). */
  readonly modelIn: 'body' | 'path';
  /** Where the stream flag lives: a body field or the URL (Gemini's `:streamGenerateContent`). */
  readonly streamIn: 'body' | 'path';
  /** Auth schemes clients of this protocol use, the preferred one first. */
  readonly authSchemes: readonly AuthScheme[];
  /**
   * Recognises an inbound request of this protocol (path relative to the server root). Throws
   * `LlmError` `invalid_request` for a request of this protocol whose URL cannot be read (a model
   * or id that is not valid percent-encoding), never a `URIError`: answer it in this protocol.
   */
  matchRequest(method: string, url: URL): HttpRequestMatch | undefined;
  /**
   * True when `pathname` (a request URL's raw path, from the server root) is in this protocol's
   * path family: its endpoints as official clients call them and everything below them, served
   * or not (`/v1/messages/batches` is Claude's). Servers answer a call no endpoint serves in the
   * shape of the protocol whose family holds its path (OpenAI's when none) and tell a client's
   * protocol by it. The four protocols' families are disjoint; `/v1/models`, which OpenAI and
   * Anthropic share, is in none (a server tells those apart by the request's headers).
   */
  ownsPath(pathname: string): boolean;
  /** Builds the URL and headers of an upstream request. */
  buildRequest(options: HttpTargetOptions): HttpTarget;
  /** Reads the client's key from an inbound request, in any of {@link HttpBinding.authSchemes}. */
  readCredential(headers: HeaderReader, url: URL): string | undefined;
  /**
   * Client headers that carry protocol meaning (API version, beta features) and go on to an
   * upstream of the same protocol; never credentials.
   */
  readonly forwardedHeaders?: readonly string[];
  /**
   * `headers` (a call's extra headers, for {@link HttpTargetOptions.headers}) with what the
   * encoded upstream `body` needs added: Claude's `anthropic-beta` for `mcp_servers`, appended to
   * a beta list already there. Absent when no body of the protocol needs a header.
   */
  headersFor?(body: unknown, headers: Record<string, string> | undefined): Record<string, string> | undefined;
}

/** Joins a base URL and a path with exactly one slash between them. */
export function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  return path.startsWith('/') ? base + path : `${base}/${path}`;
}

/** Sets the auth header (or query parameter) for `scheme` on a target. */
export function applyAuth(target: HttpTarget, scheme: AuthScheme, apiKey: string): HttpTarget {
  switch (scheme) {
    case 'bearer':
      target.headers.authorization = `Bearer ${apiKey}`;
      return target;
    case 'x-api-key':
      target.headers['x-api-key'] = apiKey;
      return target;
    case 'x-goog-api-key':
      target.headers['x-goog-api-key'] = apiKey;
      return target;
    case 'query-key': {
      const url = new URL(target.url);
      url.searchParams.set('key', apiKey);
      target.url = url.toString();
      return target;
    }
    default: {
      const unreachable: never = scheme;
      return unreachable;
    }
  }
}

/** Reads a key in any of `schemes` from an inbound request; the first one present wins. */
export function readCredential(schemes: readonly AuthScheme[], headers: HeaderReader, url: URL): string | undefined {
  for (const scheme of schemes) {
    switch (scheme) {
      case 'bearer': {
        const value = headers.get('authorization');
        const match = value ? /^Bearer\s+(.+)$/i.exec(value.trim()) : null;
        if (match?.[1]) return match[1].trim();
        break;
      }
      case 'x-api-key':
      case 'x-goog-api-key': {
        const value = headers.get(scheme);
        if (value) return value.trim();
        break;
      }
      case 'query-key': {
        const value = url.searchParams.get('key');
        if (value) return value;
        break;
      }
    }
  }
  return undefined;
}

/**
 * `decodeURIComponent` for a value taken from a request URL (`what`: `model`, `response id`). Bad
 * percent-encoding (`%ZZ`, a cut `%E0%A4%A`) is the client's error: `LlmError` `invalid_request`
 * at `path` (`model: the model in the URL is not valid percent-encoding`), never a `URIError`.
 */
export function decodeUrlComponent(text: string, path: string, what: string, protocol?: ProtocolId): string {
  try {
    return decodeURIComponent(text);
  } catch (error) {
    throw new LlmError({ kind: 'invalid_request', message: `${path}: the ${what} in the URL is not valid percent-encoding`, path, protocol, cause: error });
  }
}
