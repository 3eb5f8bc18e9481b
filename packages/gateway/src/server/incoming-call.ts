import type { IncomingHttpHeaders } from 'node:http';
import type { CancelSignal, RouterRequest } from '@llm/router';
import { HeaderMapReader } from '../header-map-reader.js';

/**
 * An inbound call as the gateway's handlers see it: a {@link RouterRequest} over node's request
 * with the body already read whole (the server enforces the size limit first).
 */
export class IncomingCall implements RouterRequest {
  readonly headers: HeaderMapReader;

  constructor(
    readonly method: string,
    /** Absolute URL. */
    readonly url: string,
    headers: IncomingHttpHeaders,
    private readonly body: Buffer | undefined,
    /** Aborted when the client disconnects before its answer is written. */
    readonly signal: CancelSignal,
  ) {
    this.headers = new HeaderMapReader(headers);
  }

  text(): Promise<string> {
    return Promise.resolve(this.body ? this.body.toString('utf8') : '');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}
