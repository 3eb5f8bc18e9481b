import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type Gateway, startGateway } from '../src/server/start.js';

// An upstream that sends its headers and first event, then goes silent (issue 17: "no timeout
// after the first byte"): the gateway's configured stream idle timeout ends the client's stream
// with its protocol's error event and closes the upstream socket.
const MESSAGE_START = {
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-x',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 3, output_tokens: 0 },
  },
};
let silent: Server;
let upstreamClosed = 0;
let gateway: Gateway;

beforeAll(async () => {
  silent = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`event: message_start\ndata: ${JSON.stringify(MESSAGE_START)}\n\n`);
    res.on('close', () => (upstreamClosed += 1));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  const config = parseConfig(
    JSON.stringify({
      upstreams: { silent: { protocol: 'claude', baseUrl, apiKey: 'k', streamIdleTimeoutMs: 150 } },
      routes: [{ match: '*', upstream: 'silent' }],
      maxRetries: 0,
      ledger: false,
    }),
  );
  gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
});
afterAll(async () => {
  await gateway.close();
  silent.closeAllConnections();
  silent.close();
});

async function streamText(path: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

describe('stream idle timeout', () => {
  it('ends a Chat client stream with its error event when the upstream goes silent, and closes the upstream socket', async () => {
    const closedBefore = upstreamClosed;
    const answer = await streamText('/v1/chat/completions', { model: 'claude-x', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer).toEqual({
      status: 200,
      text: `data: ${JSON.stringify({ error: { message: 'the upstream sent nothing for 150 ms', type: 'server_error', param: null, code: null } })}\n\n`,
    });
    await expect.poll(() => upstreamClosed).toBe(closedBefore + 1);
  });

  it('ends a Claude client stream with its error event after what was sent, and closes the upstream socket', async () => {
    const closedBefore = upstreamClosed;
    const answer = await streamText('/v1/messages', { model: 'claude-x', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.status).toBe(200);
    // The upstream's own message_start (passed through), then one error event: no second message_start.
    expect(answer.text).toBe(
      `event: message_start\ndata: ${JSON.stringify(MESSAGE_START)}\n\n` +
        `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'timeout_error', message: 'the upstream sent nothing for 150 ms' } })}\n\n`,
    );
    await expect.poll(() => upstreamClosed).toBe(closedBefore + 1);
  });
});
