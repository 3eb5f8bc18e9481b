import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type NodeServer, serveNode } from '../src/server/node-adapter.js';
import { startGateway } from '../src/server/start.js';
import { gatedClaudeStream } from './helpers/gated-claude.js';
import { slowClaudeStream } from './helpers/slow-claude.js';
import { sseFrames } from './helpers/sse-frames.js';

// Issue 20: a shutdown drains in-flight requests for `drainMs`, then cuts the rest: each cut
// stream ends with its client protocol's error event, and the log says `draining`, `cut`, `closed`.
let slow: NodeServer;

beforeAll(async () => {
  // 200 deltas 50 ms apart: ten seconds, far past the drain.
  slow = await serveNode(async () => slowClaudeStream({ deltas: 200, everyMs: 50, usage: { input_tokens: 3, output_tokens: 1 } }));
});
afterAll(async () => {
  await slow.close();
});

const prompt = [{ role: 'user', content: 'count' }];
const STREAMS = {
  claude: { path: '/v1/messages', body: { model: 'slow', max_tokens: 500, stream: true, messages: prompt } },
  chat: { path: '/v1/chat/completions', body: { model: 'slow', stream: true, messages: prompt } },
  responses: { path: '/v1/responses', body: { model: 'slow', stream: true, input: 'count' } },
  gemini: { path: '/v1beta/models/slow:streamGenerateContent?alt=sse', body: { contents: [{ role: 'user', parts: [{ text: 'count' }] }] } },
} as const;

/** Starts a stream and resolves once its first bytes arrived, with a promise of its whole text. */
async function startStream(url: string, path: string, body: object): Promise<{ text: Promise<string> }> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = decoder.decode((await reader.read()).value, { stream: true });
  const rest = async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      text += decoder.decode(value, { stream: true });
    }
  };
  return { text: rest() };
}

const MESSAGE = 'the gateway is shutting down: its drain time of 150 ms passed';

describe('drain on close', () => {
  it("cuts streams still running after drainMs with each protocol's error event, and logs draining, cut, closed", async () => {
    const lines: Record<string, unknown>[] = [];
    const config = parseConfig(
      JSON.stringify({
        upstreams: { slow: { protocol: 'claude', baseUrl: slow.url } },
        routes: [{ match: '*', upstream: 'slow' }],
        ledger: false,
        metrics: false,
        drainMs: 150,
      }),
    );
    const gateway = await startGateway(config, {
      port: 0,
      logger: createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }),
    });
    const streams = await Promise.all(Object.values(STREAMS).map(({ path, body }) => startStream(gateway.url, path, body)));
    const started = performance.now();
    await gateway.close();
    // Cut after 150 ms, written at once: far less than the stream's ten seconds.
    expect(performance.now() - started).toBeLessThan(2_000);
    const [claude, chat, responses, gemini] = (await Promise.all(streams.map((stream) => stream.text))).map((text) => sseFrames(text));
    expect(claude!.at(-1)).toEqual({ event: 'error', data: { type: 'error', error: { type: 'timeout_error', message: MESSAGE } } });
    expect(chat!.at(-1)).toEqual({ data: { error: { message: MESSAGE, type: 'server_error', param: null, code: null } } });
    expect(responses!.at(-1)).toMatchObject({
      event: 'response.failed',
      data: {
        type: 'response.failed',
        response: { object: 'response', status: 'failed', error: { code: 'server_error', message: MESSAGE }, model: 'claude-slow' },
      },
    });
    expect(gemini!.at(-1)).toEqual({ data: { error: { code: 504, message: MESSAGE, status: 'DEADLINE_EXCEEDED' } } });
    const lifecycle = lines
      .filter((line) => ['draining', 'cut', 'closed'].includes(line.msg as string))
      .map(({ level, msg, requests, drainMs }) => ({ level, msg, requests, drainMs }));
    expect(lifecycle).toEqual([
      { level: 30, msg: 'draining', requests: 4, drainMs: 150 },
      { level: 40, msg: 'cut', requests: 4, drainMs: undefined },
      { level: 30, msg: 'closed', requests: undefined, drainMs: undefined },
    ]);
    // Each cut request's access line says how it ended.
    expect(lines.filter((line) => line.msg === 'request').map((line) => [line.protocol, line.status, line.errorKind])).toEqual(
      expect.arrayContaining([
        ['claude', 200, 'timeout'],
        ['openai-chat', 200, 'timeout'],
        ['openai-responses', 200, 'timeout'],
        ['gemini', 200, 'timeout'],
      ]),
    );
  });

  it('lets a stream that ends within drainMs finish, and logs no cut', async () => {
    const lines: Record<string, unknown>[] = [];
    const quick = await serveNode(async () => slowClaudeStream({ deltas: 4, everyMs: 50, usage: { input_tokens: 3, output_tokens: 1 } }));
    const config = parseConfig(
      JSON.stringify({
        upstreams: { quick: { protocol: 'claude', baseUrl: quick.url } },
        routes: [{ match: '*', upstream: 'quick' }],
        ledger: false,
        metrics: false,
      }),
    );
    const gateway = await startGateway(config, {
      port: 0,
      logger: createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }),
    });
    try {
      const stream = await startStream(gateway.url, STREAMS.claude.path, STREAMS.claude.body);
      await gateway.close();
      expect(sseFrames(await stream.text).at(-1)).toEqual({ event: 'message_stop', data: { type: 'message_stop' } });
      expect(lines.filter((line) => ['draining', 'cut', 'closed'].includes(line.msg as string)).map((line) => [line.msg, line.requests])).toEqual([
        ['draining', 1],
        ['closed', undefined],
      ]);
    } finally {
      await quick.close();
    }
  });

  it('answers /health/ready 503 `failing: ["draining"]` while a stream drains, then lets the stream finish', async () => {
    const lines: Record<string, unknown>[] = [];
    const held = gatedClaudeStream();
    const upstream = await serveNode(async () => held.response);
    const config = parseConfig(
      JSON.stringify({
        upstreams: { gated: { protocol: 'claude', baseUrl: upstream.url } },
        routes: [{ match: '*', upstream: 'gated' }],
        ledger: false,
        metrics: false,
        drainMs: 60_000,
      }),
    );
    const gateway = await startGateway(config, {
      port: 0,
      logger: createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }),
    });
    try {
      // One raw connection: the stream, then the probe pipelined behind it. A shutdown closes
      // idle connections and takes no new ones, so a probe can only reach a draining gateway on
      // a connection still busy with a request (as a load balancer's keep-alive one may be).
      const socket = connect(gateway.port, '127.0.0.1');
      let received = '';
      const arrived = (text: string) =>
        new Promise<void>((resolve) => {
          const check = () => {
            if (!received.includes(text)) return;
            socket.off('data', check);
            resolve();
          };
          socket.on('data', check);
          check();
        });
      socket.on('data', (chunk: Buffer) => void (received += chunk.toString()));
      const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      const body = JSON.stringify(STREAMS.claude.body);
      socket.write(
        `POST /v1/messages HTTP/1.1\r\nhost: gateway\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await arrived('held ');
      const closed = gateway.close();
      expect(lines.filter((line) => line.msg === 'draining').map(({ requests, drainMs }) => ({ requests, drainMs }))).toEqual([
        { requests: 1, drainMs: 60_000 },
      ]);
      socket.write('GET /health/ready HTTP/1.1\r\nhost: gateway\r\nx-request-id: ready-probe\r\n\r\n');
      // Answered while the stream still runs: its access line is out before the stream is released.
      await expect
        .poll(() => lines.filter((line) => line.requestId === 'ready-probe').map(({ path, status }) => ({ path, status })))
        .toEqual([{ path: '/health/ready', status: 503 }]);
      held.release();
      await closed;
      await ended;
      // The stream's chunked body ends, then the probe's answer follows on the same connection.
      const end = received.indexOf('\r\n0\r\n\r\n');
      expect(end).toBeGreaterThan(0);
      const stream = received.slice(0, end);
      expect(stream).toContain('event: message_stop');
      expect(stream).toContain('"text":"done"');
      const [head, probeBody] = received.slice(end + '\r\n0\r\n\r\n'.length).split('\r\n\r\n') as [string, string];
      expect(head.split('\r\n')[0]).toBe('HTTP/1.1 503 Service Unavailable');
      expect(JSON.parse(probeBody)).toEqual({ status: 'unavailable', failing: ['draining'] });
      expect(lines.filter((line) => ['draining', 'cut', 'closed'].includes(line.msg as string)).map((line) => line.msg)).toEqual(['draining', 'closed']);
    } finally {
      held.release();
      await gateway.close();
      await upstream.close();
    }
  });
});

describe('startGateway({ drainMs }) from code', () => {
  it('refuses a drain time that is not a whole number of milliseconds within a timer', async () => {
    const config = parseConfig(
      JSON.stringify({
        upstreams: { a: { protocol: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1' } },
        routes: [{ match: '*', upstream: 'a' }],
        ledger: false,
      }),
    );
    const range = 'drainMs must be a whole number of milliseconds from 0 to 2147483647';
    for (const drainMs of [-1, 1.5, 2_147_483_648, Number.NaN])
      await expect(startGateway(config, { port: 0, drainMs })).rejects.toThrow(new RangeError(`${range}, got ${drainMs}`));
  });
});
