import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { RouterReply } from '@llm/router';
import { serveNode } from './node-adapter.js';

// A full collection on demand: whether the body's bytes are still reachable is the point.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function slowBody(chunks: number, everyMs: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      controller.enqueue(new TextEncoder().encode(`data: ${sent}\n\n`));
      sent += 1;
      if (sent === chunks) controller.close();
    },
  });
}

/** One entry per write call (`write` or `writev`, each a system call) on the server's sockets. */
function countSocketWrites(server: Server): number[] {
  const writes: number[] = [];
  server.on('connection', (socket: Socket & { _writeGeneric(...args: unknown[]): void }) => {
    const writeGeneric = socket._writeGeneric;
    socket._writeGeneric = function (this: Socket, ...args: unknown[]) {
      writes.push(1);
      return writeGeneric.apply(this, args);
    };
  });
  return writes;
}

describe('serveNode', () => {
  it('lets the request body go once the handler has read it, while the answer is still pending', async () => {
    let chunks: Array<WeakRef<Buffer>> = [];
    let aliveWhilePending = -1;
    const server = await serveNode(async (request) => {
      const text = await request.text();
      await new Promise((resolve) => setTimeout(resolve, 5));
      collectGarbage();
      aliveWhilePending = chunks.filter((chunk) => chunk.deref() !== undefined).length;
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: `${text.length}` };
    });
    // Sees the same chunks the server reads, through weak references only.
    server.server.on('request', (req: import('node:http').IncomingMessage) => req.on('data', (chunk: Buffer) => chunks.push(new WeakRef(chunk))));
    // A small body is one chunk, used as the body itself; a large one arrives in several.
    for (const size of [1_000, 100_000]) {
      chunks = [];
      aliveWhilePending = -1;
      const res = await fetch(server.url, { method: 'POST', body: 'x'.repeat(size) });
      expect(await res.text()).toBe(String(size));
      expect(chunks.length).toBeGreaterThan(0);
      expect(aliveWhilePending).toBe(0);
    }
    await server.close();
  });

  it('drains an in-flight stream on close, then stops', async () => {
    const server = await serveNode(async () => new Response(slowBody(5, 30), { headers: { 'content-type': 'text/event-stream' } }));
    const res = await fetch(server.url);
    const reader = res.body!.getReader();
    await reader.read();
    const closed = server.close();
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    await closed;
    expect(rest).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\n');
    await expect(fetch(server.url)).rejects.toThrow();
  });

  it('passes method, headers and body to the handler, and answers 413 over the limit', async () => {
    const server = await serveNode(async (request) => Response.json({ method: request.method, type: request.headers.get('x-t'), body: await request.text() }), {
      maxBodyBytes: 10,
      tooLarge: () => new Response('too big', { status: 413 }),
    });
    const ok = await fetch(server.url, { method: 'POST', body: 'hello', headers: { 'x-t': 'v' } });
    expect(await ok.json()).toEqual({ method: 'POST', type: 'v', body: 'hello' });
    const big = await fetch(server.url, { method: 'POST', body: 'x'.repeat(11) });
    expect(big.status).toBe(413);
    expect(await big.text()).toBe('too big');
    await server.close();
  });

  it('answers a generic 500 when the handler throws, reports the error, and keeps serving', async () => {
    const reported: unknown[] = [];
    const server = await serveNode(
      async (request) => {
        if (new URL(request.url).pathname === '/fail') throw new Error('boom at /srv/secret/path.js');
        return { status: 200, headers: {}, body: 'alive' };
      },
      { onError: (error) => reported.push(error) },
    );
    const res = await fetch(`${server.url}/fail`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { message: 'internal error', type: 'server_error', param: null, code: null } });
    expect(reported).toEqual([new Error('boom at /srv/secret/path.js')]);
    expect(await (await fetch(`${server.url}/ok`)).text()).toBe('alive');
    await server.close();
  });

  it('writes header values node would refuse (non-ASCII, CR, LF, NUL) percent-encoded', async () => {
    const server = await serveNode(
      async (): Promise<RouterReply> => ({ status: 200, headers: { 'x-llm-warnings': 'dropped-field@日本語, x@a\r\nset-cookie: a=b\0' }, body: 'ok' }),
    );
    const res = await fetch(server.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-llm-warnings')).toBe('dropped-field@%E6%97%A5%E6%9C%AC%E8%AA%9E, x@a%0D%0Aset-cookie: a=b%00');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.text()).toBe('ok');
    await server.close();
  });

  it('answers its internalError in place of a head node refuses (bad status, bad header name), for text and streams', async () => {
    const reported: string[] = [];
    const server = await serveNode(
      async (request): Promise<RouterReply> => {
        const path = new URL(request.url).pathname;
        const headers = { 'x-request-id': 'req-7', ...(path === '/name' ? { 'bad name': 'v' } : {}) };
        const body = path === '/stream' ? slowBody(2, 1) : 'never sent';
        return { status: path === '/name' ? 200 : 1000, headers, body };
      },
      {
        internalError: (url, requestId) => ({
          status: 500,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ path: url.pathname, requestId }),
        }),
        onError: (error, requestId) => reported.push(`${requestId}: ${(error as NodeJS.ErrnoException).code}`),
      },
    );
    for (const path of ['/status', '/name', '/stream']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(500);
      expect(res.headers.get('x-request-id')).toBe('req-7');
      expect(await res.json()).toEqual({ path, requestId: 'req-7' });
    }
    expect(reported).toEqual(['req-7: ERR_HTTP_INVALID_STATUS_CODE', 'req-7: ERR_INVALID_HTTP_TOKEN', 'req-7: ERR_HTTP_INVALID_STATUS_CODE']);
    await server.close();
  });

  it('tells onWritten the status each answer actually went out with: its own, the 500 that replaced a refused head, the last-resort 500', async () => {
    const answers: Record<string, RouterReply> = {
      '/ok': { status: 201, headers: {}, body: 'made' },
      '/bad-status': { status: 1000, headers: {}, body: '' },
      '/stream-bad-head': {
        status: 200,
        headers: { 'bad name': 'v' },
        body: (async function* () {
          yield 'a';
        })(),
      },
      '/unreadable': {
        status: 200,
        headers: {},
        body: {
          [Symbol.asyncIterator](): AsyncIterator<string> {
            throw new Error('cannot iterate');
          },
        },
      },
    };
    const written: [RouterReply | Response, number][] = [];
    const server = await serveNode(async (request) => answers[new URL(request.url).pathname] as RouterReply, {
      onWritten: (answer, status) => written.push([answer, status]),
    });
    for (const path of Object.keys(answers)) await (await fetch(`${server.url}${path}`)).arrayBuffer();
    expect(written).toEqual([
      [answers['/ok'], 201],
      [answers['/bad-status'], 500],
      [answers['/stream-bad-head'], 500],
      [answers['/unreadable'], 500],
    ]);
    // The handler's own answer objects (the gateway finds each answer's pending access line by it).
    written.forEach(([answer], index) => expect(answer).toBe(Object.values(answers)[index]));
    await server.close();
  });

  it('falls back to a bare 500 when internalError itself throws', async () => {
    const server = await serveNode(async (): Promise<RouterReply> => ({ status: 1000, headers: { 'x-request-id': 'req-8' }, body: '' }), {
      internalError: () => {
        throw new Error('no protocol');
      },
    });
    const res = await fetch(server.url);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { message: 'internal error (request id req-8)', type: 'server_error', param: null, code: null } });
    await server.close();
  });

  it('answers a bare 500 from its last-resort catch when writing the answer itself throws, and keeps serving', async () => {
    const reported: unknown[] = [];
    const server = await serveNode(
      async (request): Promise<RouterReply> => {
        if (new URL(request.url).pathname === '/ok') return { status: 200, headers: {}, body: 'alive' };
        const unreadable = {
          [Symbol.asyncIterator](): AsyncIterator<string> {
            throw new Error('cannot iterate');
          },
        };
        return { status: 200, headers: {}, body: unreadable };
      },
      { onError: (error) => reported.push(error) },
    );
    const res = await fetch(server.url);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { message: 'internal error', type: 'server_error', param: null, code: null } });
    expect(reported).toEqual([new Error('cannot iterate')]);
    expect(await (await fetch(`${server.url}/ok`)).text()).toBe('alive');
    await server.close();
  });

  it('routes on the request target alone: the Host header never enters the URL, an absolute-form target gives its path', async () => {
    const server = await serveNode(async (request) => ({ status: 200, headers: {}, body: request.url }));
    const { request } = await import('node:http');
    const urlSeen = (path: string, host: string) =>
      new Promise<string>((resolve, reject) => {
        const req = request(server.url, { path, headers: { host } }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve(body));
        });
        req.on('error', reject);
        req.end();
      });
    expect(await urlSeen('/v1/messages', 'x/v1/chat/completions#')).toBe('http://gateway.local/v1/messages');
    expect(await urlSeen('/v1/messages?beta=true', 'bad host/x')).toBe('http://gateway.local/v1/messages?beta=true');
    expect(await urlSeen('//evil.example/v1/messages', 'h')).toBe('http://gateway.local//evil.example/v1/messages');
    expect(await urlSeen('http://other.example/v1/chat/completions?a=1', 'h')).toBe('http://gateway.local/v1/chat/completions?a=1');
    expect(await urlSeen('*', 'h')).toBe('http://gateway.local/');
    await server.close();
  });

  it('writes a plain reply: a text body in one piece with its length, none for HEAD, a stream with chunked framing', async () => {
    const server = await serveNode(async (request): Promise<RouterReply> => {
      if (new URL(request.url).pathname === '/stream') {
        return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: slowBody(2, 1) };
      }
      return { status: 201, headers: { 'content-type': 'application/json', 'x-multi': request.headers.get('x-multi') ?? '' }, body: '{"é":1}' };
    });
    const ok = await fetch(server.url, {
      headers: [
        ['x-multi', 'a'],
        ['x-multi', 'b'],
      ],
    });
    expect(ok.status).toBe(201);
    expect(ok.headers.get('content-length')).toBe('8');
    expect(ok.headers.get('x-multi')).toBe('a, b');
    expect(await ok.text()).toBe('{"é":1}');
    const head = await fetch(server.url, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe('8');
    expect(await head.text()).toBe('');
    const stream = await fetch(`${server.url}/stream`);
    expect(stream.headers.get('transfer-encoding')).toBe('chunked');
    expect(await stream.text()).toBe('data: 0\n\ndata: 1\n\n');
    await server.close();
  });

  it('sends no content-length with a 204', async () => {
    const server = await serveNode(async (): Promise<RouterReply> => ({ status: 204, headers: {}, body: null }));
    const res = await fetch(server.url);
    expect(res.status).toBe(204);
    expect(res.headers.get('content-length')).toBeNull();
    await server.close();
  });

  it('writes the head, the chunks one turn produces and the end of a stream in one socket write', async () => {
    async function* sameTurn(): AsyncGenerator<string> {
      yield 'data: 0\n\n';
      yield 'data: 1\n\n';
      yield 'data: 2\n\n';
    }
    const server = await serveNode(async (): Promise<RouterReply> => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: sameTurn() }));
    const writes = countSocketWrites(server.server);
    const res = await fetch(server.url);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(await res.text()).toBe('data: 0\n\ndata: 1\n\ndata: 2\n\n');
    expect(writes.length).toBe(1);
    await server.close();
  });

  it('writes a turn of chunks past the socket high-water mark (a long translated answer) in one write too', async () => {
    const event = `data: ${'y'.repeat(8 * 1024)}\n\n`;
    async function* sameTurn(): AsyncGenerator<string> {
      for (let i = 0; i < 3; i++) yield event;
    }
    const server = await serveNode(async (): Promise<RouterReply> => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: sameTurn() }));
    const writes = countSocketWrites(server.server);
    expect(await (await fetch(server.url)).text()).toBe(event.repeat(3));
    expect(writes.length).toBe(1);
    await server.close();
  });

  it('sends the head of a stream before its first chunk, however late that comes', async () => {
    let sendFirst: () => void = () => undefined;
    const first = new Promise<void>((resolve) => {
      sendFirst = resolve;
    });
    async function* late(): AsyncGenerator<string> {
      await first;
      yield 'data: late\n\n';
    }
    const server = await serveNode(async (): Promise<RouterReply> => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: late() }));
    // fetch resolves on the head alone: the chunk is produced only after the client has it.
    const res = await fetch(server.url);
    expect(res.status).toBe(200);
    sendFirst();
    expect(await res.text()).toBe('data: late\n\n');
    await server.close();
  });

  it('releases held chunks before waiting for the socket to drain (a corked socket never drains)', async () => {
    const big = 'x'.repeat(1024 * 1024);
    async function* large(): AsyncGenerator<string> {
      for (let i = 0; i < 4; i++) yield big;
    }
    const server = await serveNode(async (): Promise<RouterReply> => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: large() }));
    const text = await (await fetch(server.url)).text();
    expect(text.length).toBe(4 * big.length);
    await server.close();
  });
});
