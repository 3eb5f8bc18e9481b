// A node:http upstream that answers each request with the next scripted answer: a status, a
// content type and body chunks, then either the end of the body (with the connection closed) or
// silence. For end-to-end tests of upstreams that misbehave after their headers.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer; `then: 'hang'` keeps the connection open with nothing more sent. */
export interface ScriptedAnswer {
  status: number;
  contentType: string;
  chunks: readonly string[];
  then: 'end' | 'hang';
}

/** What became of one queued answer. */
export interface ScriptedCall {
  /** The request target it answered (undefined until a request took it). */
  readonly target: string | undefined;
  /** True once its connection closed, whoever closed it. */
  readonly closed: boolean;
}

export interface ScriptedUpstream {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Queues the answer for the next request (answers are served in order). */
  answerNext(answer: ScriptedAnswer): ScriptedCall;
  close(): Promise<void>;
}

/** A queued answer's {@link ScriptedCall}, as the server updates it. */
type CallState = { target: string | undefined; closed: boolean };

/** Starts a scripted upstream on a free loopback port. A request with no answer queued gets 500. */
export async function startScriptedUpstream(): Promise<ScriptedUpstream> {
  const queue: { answer: ScriptedAnswer; call: CallState }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    req.resume();
    const next = queue.shift();
    if (next === undefined) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('no scripted answer');
      return;
    }
    const { answer, call } = next;
    call.target = req.url;
    res.on('close', () => (call.closed = true));
    // `connection: close` so an ended answer also ends its socket, as a cut upstream's would.
    res.writeHead(answer.status, { 'content-type': answer.contentType, connection: 'close' });
    for (const chunk of answer.chunks) res.write(chunk);
    if (answer.then === 'end') res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answerNext: (answer) => {
      const call: CallState = { target: undefined, closed: false };
      queue.push({ answer, call });
      return call;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
