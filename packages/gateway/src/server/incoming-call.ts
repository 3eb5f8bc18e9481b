import type { IncomingHttpHeaders } from 'node:http';
import type { CancelSignal, RouterRequest } from '@llm/router';
import { HeaderMapReader } from '../header-map-reader.js';

/**
 * An inbound call as the gateway's handlers see it: a {@link RouterRequest} over node's request
 * with the body already read whole (the server enforces the size limit first).
 */
export class IncomingCall implements RouterRequest {
  readonly headers: HeaderMapReader;
  /** Absolute URL. */
  readonly url: string;
  /** The URL parsed once, by the server: the router does not parse it again. */
  readonly parsedUrl: URL;
  private read = false;

  constructor(
    readonly method: string,
    /** Absolute URL, as text or parsed. */
    url: string | URL,
    headers: IncomingHttpHeaders,
    private body: Buffer | undefined,
    /** Aborted when the client disconnects before its answer is written. */
    readonly signal: CancelSignal,
  ) {
    this.parsedUrl = typeof url === 'string' ? new URL(url) : url;
    this.url = this.parsedUrl.href;
    this.headers = new HeaderMapReader(headers);
  }

  /**
   * The body as text, once: the bytes are let go as they are decoded (a call in flight keeps no
   * copy of its request while it waits for the upstream), so a second read is an error, as it is
   * for a WHATWG `Request`.
   */
  text(): Promise<string> {
    if (this.read) return Promise.reject(new TypeError('the request body was already read'));
    this.read = true;
    const body = this.body;
    this.body = undefined;
    return Promise.resolve(body ? body.toString('utf8') : '');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}
