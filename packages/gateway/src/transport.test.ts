import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CancelSource, LlmError } from '@llm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from './mock/server.js';
import { type NodeServer, serveNode } from './server/node-adapter.js';
import { createUndiciTransport } from './transport.js';

let mock: MockUpstream;
let echo: NodeServer;
const pooled = createUndiciTransport({ connections: 4 });

beforeAll(async () => {
  mock = await startMockUpstream({ protocol: 'claude' });
  echo = await serveNode(async (request) =>
    Response.json(
      {
        method: request.method,
        path: new URL(request.url).pathname + new URL(request.url).search,
        auth: request.headers.get('x-api-key'),
        body: await request.text(),
      },
      { headers: { 'set-cookie': 'a=1' } },
    ),
  );
});
afterAll(async () => {
  await Promise.all([mock.close(), echo.close()]);
  await pooled.close();
});

/** An upstream that sends its headers and one event, then nothing; `closed` once its socket is. */
async function silentUpstream(): Promise<{ url: string; server: Server; readonly closed: boolean }> {
  let closed = false;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {"n":0}\n\n');
    res.on('close', () => (closed = true));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    server,
    get closed() {
      return closed;
    },
  };
}

describe('createUndiciTransport', () => {
  it('sends method, path, query, headers and body, and returns status, headers and body', async () => {
    const res = await pooled.transport({ url: `${echo.url}/v1/x?alt=sse`, method: 'POST', body: '{"a":1}', headers: { 'x-api-key': 'k' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBe('a=1');
    expect(await res.json()).toEqual({ method: 'POST', path: '/v1/x?alt=sse', auth: 'k', body: '{"a":1}' });
  });

  it('streams an SSE body through', async () => {
    const body = JSON.stringify({ model: 'c', max_tokens: 9, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const res = await pooled.transport({ url: `${mock.baseUrl}/v1/messages`, method: 'POST', body });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const text = await res.text();
    expect(text.startsWith('event: message_start\n')).toBe(true);
    expect(text.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
  });

  it('joins the HTTP chunks of one burst into one read (an SSE event per chunk upstream), bytes unchanged', async () => {
    const frames = Array.from({ length: 50 }, (_, index) => `data: {"n":${index}}\n\n`);
    const burst = await serveNode(async () => {
      const encoder = new TextEncoder();
      // Fifty chunks enqueued at once: the gateway's node adapter writes each as its own HTTP chunk.
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const frame of frames) controller.enqueue(encoder.encode(frame));
          controller.close();
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    try {
      const res = await pooled.transport({ url: `${burst.url}/stream`, method: 'POST', body: '{}' });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = '';
      let reads = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        reads += 1;
        text += decoder.decode(value, { stream: true });
      }
      expect(text).toBe(frames.join(''));
      expect(reads).toBeLessThan(frames.length);
    } finally {
      await burst.close();
    }
  });

  it('cancels a body while data is still arriving without an uncaught stream error, and keeps pooling', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      // A chunked error body (no content-length), cancelled right away, as the router does before a retry.
      const body = JSON.stringify({ model: 'c', max_tokens: 9, messages: [{ role: 'user', content: 'error 429' }] });
      for (let i = 0; i < 5; i += 1) {
        const res = await pooled.transport({ url: `${mock.baseUrl}/v1/messages`, method: 'POST', body });
        expect(res.status).toBe(429);
        await res.body?.cancel();
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      const after = await pooled.transport({ url: `${echo.url}/ok`, method: 'POST', body: 'x' });
      expect(await after.json()).toMatchObject({ path: '/ok', body: 'x' });
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  });

  it('passes upstream errors through untouched', async () => {
    const body = JSON.stringify({ model: 'c', max_tokens: 9, messages: [{ role: 'user', content: 'error 529' }] });
    const res = await pooled.transport({ url: `${mock.baseUrl}/v1/messages`, method: 'POST', body });
    expect(res.status).toBe(529);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'scripted 529' } });
  });

  it("takes the router's plain cancel signal without building an AbortSignal, and a cancel before the headers rejects", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const cancel = new CancelSource();
    let signalRead = false;
    const request = {
      url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`,
      method: 'POST' as const,
      body: '{}',
      cancel,
      get signal(): AbortSignal {
        signalRead = true;
        return cancel.toAbortSignal();
      },
    };
    const pending = pooled.transport(request);
    setTimeout(() => cancel.abort(new Error('client went away')), 50);
    await expect(pending).rejects.toThrow('client went away');
    expect(signalRead).toBe(false);
    silent.closeAllConnections();
    silent.close();
  });

  it('closes the upstream socket when a body is stopped while a read waits on a silent upstream', async () => {
    const silent = await silentUpstream();
    try {
      const res = await pooled.transport({ url: silent.url, method: 'POST', body: '{}' });
      const reads = res.chunks!()[Symbol.asyncIterator]();
      expect(new TextDecoder().decode((await reads.next()).value)).toBe('data: {"n":0}\n\n');
      const waiting = reads.next().catch((error: unknown) => error);
      expect(await reads.return!()).toEqual({ done: true, value: undefined });
      expect(await waiting).toMatchObject({ code: 'UND_ERR_ABORTED' });
      await expect.poll(() => silent.closed).toBe(true);
    } finally {
      silent.server.close();
    }
  });

  it('closes the socket of a body silent for bodyIdleTimeoutMs (the backstop behind the router idle timer)', async () => {
    const silent = await silentUpstream();
    const backstopped = createUndiciTransport({ bodyIdleTimeoutMs: 50 });
    try {
      const res = await backstopped.transport({ url: silent.url, method: 'POST', body: '{}' });
      const read: string[] = [];
      await expect(
        (async () => {
          for await (const chunk of res.chunks!()) read.push(new TextDecoder().decode(chunk));
        })(),
      ).rejects.toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
      expect(read).toEqual(['data: {"n":0}\n\n']);
      await expect.poll(() => silent.closed).toBe(true);
    } finally {
      await backstopped.close();
      silent.server.close();
    }
  });

  it('turns a whole-body read the backstop ended into a timeout (504), not an unreadable answer', async () => {
    const silent = await silentUpstream();
    const backstopped = createUndiciTransport({ bodyIdleTimeoutMs: 50 });
    try {
      const res = await backstopped.transport({ url: silent.url, method: 'POST', body: '{}' });
      const failure = await res.json().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(LlmError.isInstance(failure) && [failure.kind, failure.status, failure.message, (failure.cause as { code?: string }).code]).toEqual([
        'timeout',
        504,
        'the upstream answer stopped arriving before it was complete',
        'UND_ERR_BODY_TIMEOUT',
      ]);
      await expect.poll(() => silent.closed).toBe(true);
    } finally {
      await backstopped.close();
      silent.server.close();
    }
  });

  // The router sets `redirect: 'manual'` on media downloads and checks every hop against the
  // allowlist itself; upstream API calls must not follow redirects either. undici's dispatcher
  // follows none (no redirect interceptor on the Agent), so a 3xx comes back as it is.
  it.each([
    ['a media download (redirect: manual)', 'manual' as const],
    ['an upstream API call', undefined],
  ])('returns a 302 as it is, with its location, and never requests the target: %s', async (_label, redirect) => {
    const hits: string[] = [];
    const redirecting = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/target') res.end('followed');
      else res.writeHead(302, { location: '/target' }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/start`;
      const res = await pooled.transport(redirect ? { url, method: 'GET', redirect } : { url, method: 'POST', body: '{}' });
      expect([res.status, res.headers.get('location'), await res.text()]).toEqual([302, '/target', '']);
      expect(hits).toEqual(['/start']);
    } finally {
      redirecting.close();
    }
  });

  it('rejects when the request signal aborts', async () => {
    const abort = new AbortController();
    abort.abort();
    await expect(pooled.transport({ url: `${echo.url}/`, method: 'GET', signal: abort.signal })).rejects.toThrow();
  });
});
