// One key's many small requests must not evict every other key's continuations (issue 17).
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { describe, expect, it } from 'vitest';
import type { RouterConfig, StateStore } from '../src/config.js';
import { createRouter } from '../src/handler.js';
import { DEFAULT_MAX_STORED_TURNS_PER_OWNER } from '../src/owner-quota.js';
import { MemoryStateStore } from '../src/state-store.js';

const answer = () =>
  Response.json({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'g',
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  });

function router(extra: Partial<RouterConfig>) {
  return createRouter({
    codecs: { 'openai-chat': openaiChat, 'openai-responses': openaiResponses },
    upstreams: { chat: { protocol: 'openai-chat', baseUrl: 'http://upstream.test/v1' } },
    routes: [{ match: '*', upstream: 'chat' }],
    transport: async () => answer(),
    ...extra,
  });
}

const call = (keyId: string | undefined, previous?: string) => ({
  method: 'POST',
  url: 'http://router.test/v1/responses',
  headers: { get: () => null },
  text: async () => JSON.stringify({ model: 'gpt-x', input: 'hi', ...(previous ? { previous_response_id: previous } : {}) }),
  clientKeyId: keyId,
});

/** Lets the stores' fire-and-forget writes and the quota's deletes settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function idOf(route: ReturnType<typeof router>, keyId: string | undefined): Promise<string> {
  const reply = await route(call(keyId));
  await settle();
  return (JSON.parse(reply.body as string) as { id: string }).id;
}

describe('the per-owner cap on stored turns (maxStoredTurnsPerOwner)', () => {
  it("one key's many turns evict only its own oldest, never another key's, in a store with room for both", async () => {
    const store = new MemoryStateStore({ maxEntries: 4 });
    const route = router({ stateStore: store, maxStoredTurnsPerOwner: 2 });
    const kept = await idOf(route, 'key-b');
    const flood: string[] = [];
    for (let index = 0; index < 10; index++) flood.push(await idOf(route, 'key-a'));
    expect(store.size).toBe(3);
    expect((await route(call('key-b', kept))).status).toBe(200);
    expect((await route(call('key-a', flood[7]))).status).toBe(404);
    expect((await route(call('key-a', flood[9]))).status).toBe(200);
  });

  it('without a key (an open router, one shared owner) only the store limits apply', async () => {
    const store = new MemoryStateStore({ maxEntries: 4 });
    const route = router({ stateStore: store, maxStoredTurnsPerOwner: 2 });
    for (let index = 0; index < 4; index++) await idOf(route, undefined);
    expect(store.size).toBe(4);
  });

  it('a store without delete keeps working, uncapped', async () => {
    const inner = new MemoryStateStore();
    const store: StateStore = { get: (key) => inner.get(key), set: (key, value, ttl) => inner.set(key, value, ttl) };
    const route = router({ stateStore: store, maxStoredTurnsPerOwner: 1 });
    const first = await idOf(route, 'key-a');
    await idOf(route, 'key-a');
    expect((await route(call('key-a', first))).status).toBe(200);
  });

  it('defaults to 1000 per owner', () => {
    expect(DEFAULT_MAX_STORED_TURNS_PER_OWNER).toBe(1000);
  });
});
