import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type Gateway, startGateway } from '../src/server/start.js';

/**
 * An upstream whose connection breaks in the middle of a stream (a reset socket, not an error
 * event): the client gets what was translated before the break, then an error event in its own
 * protocol, and the stream ends cleanly; the gateway stays up.
 */
let upstream: Server;
let gateway: Gateway;
const logs: string[] = [];

beforeAll(async () => {
  upstream = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const message = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-up',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 1 },
    };
    res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message })}\n\n`);
    res.write(`event: content_block_start\ndata: ${JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })}\n\n`);
    res.write(
      `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'partial' } })}\n\n`,
    );
    setTimeout(() => res.socket?.destroy(), 30);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  const config = parseConfig(
    JSON.stringify({
      upstreams: { up: { protocol: 'claude', baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'up', model: 'claude-up' }],
      ledger: false,
    }),
  );
  gateway = await startGateway(config, { port: 0, logger: createLogger('info', { write: (line: string) => logs.push(line) }) });
});
afterAll(async () => {
  await gateway.close();
  await new Promise((resolve) => upstream.close(resolve));
});

describe('an upstream connection reset mid-stream', () => {
  it('gives the client what came before the break, ends its stream, and leaves the gateway serving', async () => {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    let broken = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      broken = true;
    }
    const frames = text.split('\n\n').filter((frame) => frame !== '');
    const data = frames
      .filter((frame) => frame.startsWith('data: {'))
      .map((frame) => JSON.parse(frame.slice(6)) as { choices?: Array<{ delta: { content?: string } }>; error?: unknown });
    const deltas = data
      .flatMap((chunk) => chunk.choices ?? [])
      .map((choice) => choice.delta.content)
      .filter((content) => content !== undefined && content !== '');
    expect(deltas).toEqual(['partial']);
    // The stream ends cleanly with an error in Chat's shape, not with a cut connection.
    expect(broken).toBe(false);
    // Chat's error payload is its last event (openai-chat.md §3).
    expect(frames.at(-1)?.startsWith('data: {"error":')).toBe(true);
    // A fixed message: the socket error's detail goes to the log (errorDetail), not to the client.
    expect(data.at(-1)?.error).toEqual({ message: 'the upstream connection failed mid-stream', type: 'server_error', param: null, code: null });
    const health = await fetch(`${gateway.url}/health`);
    expect(health.status).toBe(200);
  });

  it("a same-protocol stream (bytes passed through) also ends with an error event in the client's protocol", async () => {
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-x', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await response.text();
    const frames = text.split('\n\n').filter((frame) => frame !== '');
    expect(frames.slice(0, 3).map((frame) => frame.split('\n')[0])).toEqual([
      'event: message_start',
      'event: content_block_start',
      'event: content_block_delta',
    ]);
    const last = frames.at(-1) ?? '';
    expect(last.split('\n')[0]).toBe('event: error');
    expect(JSON.parse(last.split('\n')[1]?.slice(6) ?? '{}')).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'the upstream connection failed mid-stream' },
    });
  });
});
