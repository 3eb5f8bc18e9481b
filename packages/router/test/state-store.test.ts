import type { LlmMessage } from '@llm/core';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { describe, expect, it } from 'vitest';
import type { Transport } from '../src/config.js';
import { createHandler } from '../src/handler.js';
import { DEFAULT_STATE_STORE_MAX_BYTES, MemoryStateStore } from '../src/state-store.js';
import { NODE_OVERHEAD_BYTES, estimateValueSize } from '../src/value-size.js';

const MiB = 1024 * 1024;

/** What the router stores per turn: the canonical conversation (here one user text and the answer). */
const turn = (text: string): LlmMessage[] => [
  { role: 'user', content: [{ type: 'text', text }] },
  { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
];

describe('MemoryStateStore byte budget', () => {
  it('24 turns of 16 MB stay within the default 64 MiB: the oldest go first', async () => {
    const store = new MemoryStateStore();
    for (let index = 0; index < 24; index++) await store.set(`response:${index}`, turn(String.fromCharCode(65 + index).repeat(16 * MiB)));
    expect(store.bytes).toBeLessThanOrEqual(DEFAULT_STATE_STORE_MAX_BYTES);
    expect(store.size).toBe(3);
    expect(await store.get('response:20')).toBeUndefined();
    expect(((await store.get('response:23')) as LlmMessage[])[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'X'.repeat(16 * MiB) }] });
  });

  it('does not store a single value larger than the budget, and frees the bytes of replaced and expired entries', async () => {
    let now = 0;
    const store = new MemoryStateStore({ maxBytes: 1000, ttlMs: 10, now: () => now });
    await store.set('big', 'x'.repeat(1000));
    expect([store.size, store.bytes]).toEqual([0, 0]);
    await store.set('a', 'x'.repeat(100));
    await store.set('a', 'y'.repeat(10));
    expect(store.bytes).toBe(1 + 10 + NODE_OVERHEAD_BYTES);
    now = 10;
    expect(await store.get('a')).toBeUndefined();
    expect(store.bytes).toBe(0);
  });

  it('estimateValueSize reads at most limit / NODE_OVERHEAD_BYTES + 1 elements of one huge array', () => {
    let reads = 0;
    const huge = new Proxy(new Array<number>(1_000_000).fill(0), {
      get(target, property, receiver) {
        if (typeof property === 'string' && /^\d+$/.test(property)) reads += 1;
        return Reflect.get(target, property, receiver);
      },
    });
    expect(estimateValueSize({ huge }, 1600)).toBeGreaterThan(1600);
    expect(reads).toBeLessThanOrEqual(1600 / NODE_OVERHEAD_BYTES + 1);
  });

  it('estimateValueSize counts string lengths and a fixed cost per node, and stops past its limit (cyclic values too)', () => {
    expect(estimateValueSize({ ab: ['xyz', 1, null] })).toBe(4 * NODE_OVERHEAD_BYTES + 2 + 3 + NODE_OVERHEAD_BYTES);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(estimateValueSize(cyclic, 1000)).toBeGreaterThan(1000);
  });
});

describe('the router state under the byte budget', () => {
  const chatAnswer: Transport = async () =>
    Response.json({
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'g',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    });

  it('keeps the newest turns of large Responses requests within maxBytes; evicted ones answer 404', async () => {
    const stateStore = new MemoryStateStore({ maxBytes: MiB });
    const handler = createHandler({
      codecs: { 'openai-chat': openaiChat, 'openai-responses': openaiResponses },
      upstreams: { chat: { protocol: 'openai-chat', baseUrl: 'http://upstream.test/v1' } },
      routes: [{ match: '*', upstream: 'chat' }],
      transport: chatAnswer,
      stateStore,
    });
    const post = (body: unknown) => handler(new Request('http://router.test/v1/responses', { method: 'POST', body: JSON.stringify(body) }));
    const ids: string[] = [];
    for (let index = 0; index < 8; index++) ids.push(((await (await post({ model: 'm', input: 'x'.repeat(256 * 1024) })).json()) as { id: string }).id);
    expect(stateStore.bytes).toBeLessThanOrEqual(MiB);
    expect(stateStore.size).toBe(3);
    expect((await post({ model: 'm', input: 'next', previous_response_id: ids[0] })).status).toBe(404);
    expect((await post({ model: 'm', input: 'next', previous_response_id: ids[7] })).status).toBe(200);
  });
});
