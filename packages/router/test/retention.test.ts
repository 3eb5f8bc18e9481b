import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { LlmRequest } from '@llm/core';
import { describe, expect, it } from 'vitest';
import type { UpstreamRequest } from '../src/config.js';
import { createRouter } from '../src/handler.js';
import { claudeTextMessage } from './claude-answer.js';

// A full collection on demand: whether an object is still reachable is the point of these tests.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const claudeAnswer = claudeTextMessage('hello', 'claude-up', { input_tokens: 3, output_tokens: 1 });

const chatRequest = {
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'hi' },
  ],
};

function chatCall(): Request {
  return new Request('http://gateway.test/v1/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(chatRequest),
  });
}

function claudeReply(): Response {
  return new Response(JSON.stringify(claudeAnswer), { status: 200, headers: { 'content-type': 'application/json' } });
}

/** How many of the objects behind `refs` are still alive once the current job ends and a full GC runs. */
async function survivors(refs: ReadonlyArray<WeakRef<object>>): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 5));
  collectGarbage();
  return refs.filter((ref) => ref.deref() !== undefined).length;
}

describe('what a request keeps alive while its upstream answers', () => {
  it('keeps neither the canonical request nor its messages during the last upstream call', async () => {
    const refs: Array<WeakRef<object>> = [];
    let aliveDuringCall = -1;
    const router = createRouter({
      upstreams: { main: { protocol: 'claude', baseUrl: 'http://upstream.test', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'main', model: 'claude-up' }],
      // Sees the canonical tree the bridge builds from the client's body.
      transformRequest: (canonical: LlmRequest) => {
        refs.push(new WeakRef(canonical), new WeakRef(canonical.messages));
        return canonical;
      },
      transport: async (request: UpstreamRequest) => {
        aliveDuringCall = await survivors(refs);
        expect(JSON.parse(new TextDecoder().decode(request.body as Uint8Array))).toMatchObject({ model: 'claude-up', system: 'be brief' });
        return claudeReply();
      },
    });
    const reply = await router(chatCall());
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body as string)).toMatchObject({ choices: [{ message: { role: 'assistant', content: 'hello' } }] });
    expect(refs).toHaveLength(2);
    expect(aliveDuringCall).toBe(0);
  });

  it("keeps no attempt's canonical tree alive while the upstreams of a fallback route answer", async () => {
    const refs: Array<WeakRef<object>> = [];
    const alive: number[] = [];
    const router = createRouter({
      upstreams: {
        first: { protocol: 'claude', baseUrl: 'http://first.test', apiKey: 'k' },
        second: { protocol: 'claude', baseUrl: 'http://second.test', apiKey: 'k' },
      },
      routes: [{ match: '*', upstream: ['first', 'second'], model: 'claude-up' }],
      maxRetries: 0,
      transformRequest: (canonical: LlmRequest) => {
        refs.push(new WeakRef(canonical));
        return canonical;
      },
      transport: async (request: UpstreamRequest) => {
        // The parsed client body stays for the second upstream; each attempt's own tree does not.
        alive.push(await survivors(refs));
        if (request.url.startsWith('http://first.test'))
          return new Response('{"type":"error","error":{"type":"overloaded_error","message":"busy"}}', { status: 529 });
        return claudeReply();
      },
    });
    const reply = await router(chatCall());
    expect(reply.status).toBe(200);
    expect(refs).toHaveLength(2);
    expect(alive).toEqual([0, 0]);
  });
});
