// How the router ends answers whose upstream misbehaves (issue 17): cut or undecodable streams,
// JSON sent to a stream request, silence after the headers, a request past its deadline, and
// failures whose detail must stay out of the client's answer.
import { LlmError, type LlmStreamEvent } from '@llm/core';
import { claude } from '@llm/claude';
import { openaiChat } from '@llm/openai-chat';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestRecord, RouterConfig, Transport } from '../src/config.js';
import { createHandler } from '../src/handler.js';
import { fakeCodecs, fakeSse, parseFakeSse } from './fake-codec.js';
import { startUpstream, type MockUpstream } from './mock-upstream.js';
import { answer, chunkSource, encoder } from './upstream-answer.js';

const upstreams: MockUpstream[] = [];
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
});

function fakeRouter(transport: Transport, extra: Partial<RouterConfig> = {}) {
  const records: RequestRecord[] = [];
  const handler = createHandler({
    codecs: fakeCodecs(),
    upstreams: { main: { protocol: 'claude', baseUrl: 'http://upstream.test' } },
    routes: [{ match: '*', upstream: 'main' }],
    transport,
    retryBaseDelayMs: 1,
    hooks: { onRequestEnd: (record) => records.push(record) },
    ...extra,
  });
  return { handler, records };
}

const post = (path: string, body: unknown) =>
  new Request(`http://router.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A Claude SSE body as its events, each exactly one `event:` line and one `data:` line (anything else fails). */
function claudeSseEvents(text: string): { event: string; data: unknown }[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((block) => {
      const [eventLine, dataLine, ...rest] = block.split('\n');
      expect({ eventLine: eventLine?.startsWith('event: '), dataLine: dataLine?.startsWith('data: '), rest }).toEqual({
        eventLine: true,
        dataLine: true,
        rest: [],
      });
      return { event: eventLine!.slice('event: '.length), data: JSON.parse(dataLine!.slice('data: '.length)) as unknown };
    });
}

const fakeBody = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };
const opening: LlmStreamEvent[] = [
  { type: 'start', id: 'r1', model: 'm' },
  { type: 'block-start', index: 0, block: { kind: 'text' } },
  { type: 'text-delta', index: 0, text: 'hel' },
];

describe('a stream that ends without saying how', () => {
  it('gets an upstream error event appended by the router (never a silent end)', async () => {
    const { handler, records } = fakeRouter(async () => answer(200, 'text/event-stream', [fakeSse(opening)]));
    const response = await handler(post('/openai-chat/generate', { ...fakeBody, stream: true }));
    expect(response.status).toBe(200);
    expect(parseFakeSse(await response.text())).toEqual([
      ...opening,
      { type: 'error', error: { kind: 'upstream', message: 'the upstream stream ended before it finished' } },
    ]);
    expect(records[0]).toMatchObject({ status: 200, errorKind: 'upstream' });
  });

  it('a Chat upstream cut before finish_reason ends a Claude client stream with an error event, not end_turn', async () => {
    const chunk = (delta: Record<string, unknown>) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'g', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
    const { handler } = fakeRouter(async () => answer(200, 'text/event-stream', [chunk({ role: 'assistant', content: 'Hel' }), chunk({ content: 'lo' })]), {
      codecs: { claude, 'openai-chat': openaiChat },
      upstreams: { main: { protocol: 'openai-chat', baseUrl: 'http://upstream.test/v1' } },
    });
    const response = await handler(post('/v1/messages', { model: 'm', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] }));
    expect(response.status).toBe(200);
    // The partial text, then Claude's error event: no content_block_stop, message_delta (end_turn) or message_stop.
    expect(claudeSseEvents(await response.text())).toEqual([
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: 'c1',
            type: 'message',
            role: 'assistant',
            model: 'g',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 0, output_tokens: 0 },
          },
        },
      },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'lo' } } },
      { event: 'error', data: { type: 'error', error: { type: 'api_error', message: 'the Chat Completions stream ended before finish_reason' } } },
    ]);
  });

  it('a same-protocol (passed-through) stream cut short gets the error event after the upstream bytes', async () => {
    const { handler } = fakeRouter(async () => answer(200, 'text/event-stream', [fakeSse(opening)]), {
      upstreams: { main: { protocol: 'openai-chat', baseUrl: 'http://upstream.test' } },
    });
    const response = await handler(post('/openai-chat/generate', { ...fakeBody, stream: true }));
    expect(parseFakeSse(await response.text())).toEqual([
      ...opening,
      { type: 'error', error: { kind: 'upstream', message: 'the upstream stream ended before it finished' } },
    ]);
  });
});

describe('a same-protocol stream passed through', () => {
  it("keeps the upstream's own bytes to the end, its own error events included (nothing added, nothing cut)", async () => {
    const upstreamError = { type: 'error', error: { kind: 'overloaded', message: 'busy' } };
    const parts = [fakeSse(opening.slice(0, 1)), fakeSse([upstreamError]), fakeSse(opening.slice(1))];
    const { handler, records } = fakeRouter(async () => answer(200, 'text/event-stream', parts), {
      upstreams: { main: { protocol: 'openai-chat', baseUrl: 'http://upstream.test' } },
    });
    const response = await handler(post('/openai-chat/generate', { ...fakeBody, stream: true }));
    expect(await response.text()).toBe(parts.join(''));
    expect(records[0]?.errorKind).toBe('server');
  });
});

describe('upstream answers that do not decode', () => {
  it('a 200 JSON answer that is not the protocol shape is a 502 upstream error in the client protocol; the detail and upstream go to the record only', async () => {
    const { handler, records } = fakeRouter(async () => answer(200, 'application/json', ['{"unexpected":true}']));
    const response = await handler(post('/openai-chat/generate', fakeBody));
    const requestId = response.headers.get('x-request-id');
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      error: { protocol: 'openai-chat', kind: 'upstream', message: `invalid Claude answer at choices (request id ${requestId})` },
    });
    expect(records[0]).toMatchObject({ status: 502, errorKind: 'upstream', upstream: 'main' });
    expect(records[0]?.errorDetail).toContain('choices: required');
  });

  it('a 200 body that is not JSON at all is a 502 as well', async () => {
    const { handler } = fakeRouter(async () => answer(200, 'application/json', ['<html>proxy error</html>']));
    const response = await handler(post('/openai-chat/generate', fakeBody));
    expect(response.status).toBe(502);
    expect(JSON.stringify(await response.json())).not.toContain('html');
  });

  it('a stream whose data does not decode ends with one upstream error event, and the upstream call is cancelled', async () => {
    let cancelled = 0;
    const { handler, records } = fakeRouter(async () =>
      answer(200, 'text/event-stream', [fakeSse(opening.slice(0, 1)), 'data: {not json\n\n', fakeSse(opening.slice(1))], {
        hang: true,
        onReturn: () => cancelled++,
      }),
    );
    const response = await handler(post('/openai-chat/generate', { ...fakeBody, stream: true }));
    expect(parseFakeSse(await response.text())).toEqual([opening[0], { type: 'error', error: { kind: 'upstream', message: 'invalid Claude stream' } }]);
    expect(cancelled).toBe(1);
    expect(records[0]?.errorKind).toBe('upstream');
    expect(records[0]?.errorDetail).toContain('SyntaxError');
  });
});

describe('an upstream answering a stream request with JSON', () => {
  const whole = { id: 'r1', model: 'm', choices: [{ index: 0, content: [{ type: 'text', text: 'hello' }], finishReason: 'stop' }] };

  it('has its answer translated into the client stream (never an empty stream)', async () => {
    const { handler } = fakeRouter(async () => answer(200, 'application/json; charset=utf-8', [JSON.stringify(whole)]));
    const response = await handler(post('/openai-chat/generate', { ...fakeBody, stream: true }));
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(parseFakeSse(await response.text())).toEqual([
      { type: 'start', id: 'r1', model: 'm' },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'hello' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('real codecs: a Claude upstream answering a Chat stream request with its JSON message gives the Chat client a whole stream', async () => {
    const message = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'c',
      content: [{ type: 'text', text: 'hello' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 1 },
    };
    const { handler } = fakeRouter(async () => answer(200, 'application/json', [JSON.stringify(message)]), {
      codecs: { claude, 'openai-chat': openaiChat },
      upstreams: { main: { protocol: 'claude', baseUrl: 'http://upstream.test' } },
    });
    const response = await handler(post('/v1/chat/completions', { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }));
    const data = (await response.text())
      .split('\n\n')
      .filter(Boolean)
      .map((block) => block.slice('data: '.length));
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((text) => JSON.parse(text) as { choices: { delta: { content?: string }; finish_reason: string | null }[] });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('hello');
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason).filter(Boolean)).toEqual(['stop']);
  });

  it('an unreadable one is a 502 before any stream starts', async () => {
    const { handler } = fakeRouter(async () => answer(200, 'application/json', ['{"unexpected":true}']));
    const response = await handler(post('/openai-chat/generate', { ...fakeBody, stream: true }));
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: { kind: 'upstream' } });
  });
});

describe('timeouts after the headers and the request deadline', () => {
  it("a JSON body the transport's own idle timeout ended is a 504 timeout, not an unreadable 502", async () => {
    const stalled = new LlmError({
      kind: 'timeout',
      message: 'the upstream answer stopped arriving before it was complete',
      cause: new Error('socket 10.0.0.5:9099 idle'),
    });
    const { handler, records } = fakeRouter(async () => ({ ...answer(200, 'application/json', []), json: () => Promise.reject(stalled) }));
    const response = await handler(post('/openai-chat/generate', fakeBody));
    const requestId = response.headers.get('x-request-id');
    expect(response.status).toBe(504);
    expect(await response.json()).toEqual({
      error: { protocol: 'openai-chat', kind: 'timeout', message: `the upstream answer stopped arriving before it was complete (request id ${requestId})` },
    });
    expect(records[0]).toMatchObject({ status: 504, errorKind: 'timeout', upstream: 'main' });
  });

  it('an upstream that sends headers and a chunk, then goes silent, ends the stream with a timeout error event and is cancelled', async () => {
    let cancelled = 0;
    const { handler, records } = fakeRouter(async () => answer(200, 'text/event-stream', [fakeSse(opening)], { hang: true, onReturn: () => cancelled++ }), {
      upstreams: { main: { protocol: 'claude', baseUrl: 'http://upstream.test', streamIdleTimeoutMs: 50 } },
    });
    const started = Date.now();
    const response = await handler(post('/openai-chat/generate', { ...fakeBody, stream: true }));
    expect(parseFakeSse(await response.text())).toEqual([
      ...opening,
      { type: 'error', error: { kind: 'timeout', message: 'the upstream sent nothing for 50 ms' } },
    ]);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(cancelled).toBe(1);
    expect(records[0]).toMatchObject({ status: 200, errorKind: 'timeout' });
  });

  it('over HTTP: the silent upstream connection is closed (the socket freed) after the idle timeout', async () => {
    let closed = false;
    const mock = await startUpstream((_request, response) => {
      response.on('close', () => {
        closed = true;
      });
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(fakeSse(opening));
    });
    upstreams.push(mock);
    const handler = createHandler({
      codecs: fakeCodecs(),
      upstreams: { main: { protocol: 'claude', baseUrl: mock.baseUrl, streamIdleTimeoutMs: 50 } },
      routes: [{ match: '*', upstream: 'main' }],
    });
    const response = await handler(post('/openai-chat/generate', { ...fakeBody, stream: true }));
    const events = parseFakeSse(await response.text());
    expect(events.at(-1)).toEqual({ type: 'error', error: { kind: 'timeout', message: 'the upstream sent nothing for 50 ms' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(true);
  });

  it('a fully silent upstream costs one timeoutMs, not one per retry', async () => {
    const mock = await startUpstream(() => undefined);
    upstreams.push(mock);
    const handler = createHandler({
      codecs: fakeCodecs(),
      upstreams: { main: { protocol: 'claude', baseUrl: mock.baseUrl, timeoutMs: 50 } },
      routes: [{ match: '*', upstream: 'main' }],
      retryBaseDelayMs: 1,
    });
    const response = await handler(post('/openai-chat/generate', fakeBody));
    expect(response.status).toBe(504);
    expect(mock.received).toHaveLength(1);
  });

  it('requestDeadlineMs bounds the request across retries: a not-yet-answered request gets 504 in the client protocol', async () => {
    let calls = 0;
    const { handler, records } = fakeRouter(
      async () => {
        calls += 1;
        return answer(503, 'application/json', ['{"error":{"message":"busy"}}']);
      },
      { requestDeadlineMs: 100, maxRetries: 1000, retryBaseDelayMs: 20, maxRetryDelayMs: 20 },
    );
    const started = Date.now();
    const response = await handler(post('/openai-chat/generate', fakeBody));
    expect(response.status).toBe(504);
    expect(await response.json()).toEqual({ error: { protocol: 'openai-chat', kind: 'timeout', message: 'the request passed its deadline of 100 ms' } });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(calls).toBeGreaterThan(1);
    expect(records[0]?.errorKind).toBe('timeout');
  });

  it('requestDeadlineMs ends a running stream with the timeout error event', async () => {
    let cancelled = 0;
    const { handler } = fakeRouter(async () => answer(200, 'text/event-stream', [fakeSse(opening)], { hang: true, onReturn: () => cancelled++ }), {
      requestDeadlineMs: 80,
    });
    const response = await handler(post('/openai-chat/generate', { ...fakeBody, stream: true }));
    expect(parseFakeSse(await response.text())).toEqual([
      ...opening,
      { type: 'error', error: { kind: 'timeout', message: 'the request passed its deadline of 80 ms' } },
    ]);
    expect(cancelled).toBe(1);
  });
});

describe('internal details never reach clients', () => {
  it('an unreachable upstream: the client gets a generic message with the request id, the address goes to errorDetail', async () => {
    const { handler, records } = fakeRouter(
      async () => {
        throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 10.0.0.5:9099') });
      },
      { maxRetries: 0 },
    );
    const response = await handler(post('/openai-chat/generate', fakeBody));
    const requestId = response.headers.get('x-request-id');
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: { protocol: 'openai-chat', kind: 'upstream', message: `upstream unreachable (request id ${requestId})` } });
    expect(records[0]?.errorDetail).toContain('connect ECONNREFUSED 10.0.0.5:9099');
  });

  it('an exception that is not an LlmError (a hook bug naming a file) answers 500 "internal error" with the request id', async () => {
    const { handler, records } = fakeRouter(async () => answer(200, 'application/json', ['{}']), {
      transformRequest: () => {
        throw new TypeError("Cannot read properties of undefined (reading 'x') at /srv/app/secret.ts:12");
      },
    });
    const response = await handler(post('/openai-chat/generate', fakeBody));
    const requestId = response.headers.get('x-request-id');
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { protocol: 'openai-chat', kind: 'server', message: `internal error (request id ${requestId})` } });
    expect(records[0]?.errorDetail).toContain('/srv/app/secret.ts:12');
  });

  it('a read failing mid-stream ends it with a generic error event; the socket error goes to errorDetail', async () => {
    const resetAfterOne = (index: number): Promise<IteratorResult<Uint8Array>> =>
      index === 0 ? Promise.resolve({ done: false, value: encoder.encode(fakeSse(opening)) }) : Promise.reject(new Error('read ECONNRESET 10.0.0.5:9099'));
    const { handler, records } = fakeRouter(async () => ({ ...answer(200, 'text/event-stream', []), chunks: () => chunkSource(resetAfterOne) }));
    const response = await handler(post('/openai-chat/generate', { ...fakeBody, stream: true }));
    expect(parseFakeSse(await response.text())).toEqual([
      ...opening,
      { type: 'error', error: { kind: 'upstream', message: 'the upstream connection failed mid-stream' } },
    ]);
    expect(records[0]?.errorDetail).toContain('read ECONNRESET 10.0.0.5:9099');
  });
});
