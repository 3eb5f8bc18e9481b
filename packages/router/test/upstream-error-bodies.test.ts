// Upstream error answers (issue 17 follow-up): an upstream's own JSON error keeps its message (the
// provider wrote it for the client); any other body (a proxy's HTML 502 page, raw text, JSON of
// another shape) reaches the client as a stable `upstream answered HTTP <status>`, and its text
// goes to RequestRecord.errorDetail, never to the client.
import { claude } from '@llm/claude';
import { openaiChat } from '@llm/openai-chat';
import { describe, expect, it } from 'vitest';
import type { RequestRecord, UpstreamResponse } from '../src/config.js';
import { createHandler } from '../src/handler.js';
import { answer } from './upstream-answer.js';

const PAGE = '<html><head><title>502 Bad Gateway</title></head><body>nginx/1.25 at 10.0.0.5:9099</body></html>';

function claudeUpstream(upstreamAnswer: UpstreamResponse) {
  const records: RequestRecord[] = [];
  const handler = createHandler({
    codecs: { claude, 'openai-chat': openaiChat },
    upstreams: { main: { protocol: 'claude', baseUrl: 'http://upstream.test', apiKey: 'k' } },
    routes: [{ match: '*', upstream: 'main' }],
    transport: async () => upstreamAnswer,
    maxRetries: 0,
    hooks: { onRequestEnd: (record) => records.push(record) },
  });
  return { handler, records };
}

const post = (path: string, body: unknown) =>
  new Request(`http://router.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const claudeRequest = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
const chatRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

describe('an upstream error body that is not the protocol error shape', () => {
  it("a proxy's HTML page: a Claude client (passed through) gets a stable message; the page goes to errorDetail", async () => {
    const { handler, records } = claudeUpstream(answer(502, 'text/html', [PAGE]));
    const response = await handler(post('/v1/messages', claudeRequest));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ type: 'error', error: { type: 'api_error', message: 'upstream answered HTTP 502' } });
    expect(records[0]).toMatchObject({ status: 502, errorKind: 'upstream' });
    expect(records[0]?.errorDetail).toBe(`LlmError(upstream 502): upstream answered HTTP 502 <- cause: UpstreamErrorBody: ${PAGE}`);
  });

  it('JSON of another shape is not passed through to a same-protocol client either', async () => {
    const { handler, records } = claudeUpstream(answer(503, 'application/json', [JSON.stringify({ detail: 'pod llm-7f9 evicted' })]));
    const response = await handler(post('/v1/messages', claudeRequest));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'upstream answered HTTP 503' } });
    expect(records[0]?.errorDetail).toContain('pod llm-7f9 evicted');
  });

  it("a proxy's HTML page reaches a Chat client (translated) as the same stable message", async () => {
    const { handler } = claudeUpstream(answer(502, 'text/html', [PAGE]));
    const response = await handler(post('/v1/chat/completions', chatRequest));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: { message: 'upstream answered HTTP 502', type: 'server_error', param: null, code: null } });
  });
});

describe("an upstream's own JSON error", () => {
  it('keeps its message (and, passed through, its body) with no errorDetail', async () => {
    const body = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: 'req_1' };
    const { handler, records } = claudeUpstream(answer(529, 'application/json', [JSON.stringify(body)]));
    const response = await handler(post('/v1/messages', claudeRequest));
    expect(response.status).toBe(529);
    expect(await response.json()).toEqual(body);
    expect(records[0]?.errorDetail).toBeUndefined();
  });
});
