import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../router-contract.js';
import { KeyEnforcement, type KeyLimiter } from './key-enforcement.js';
import { KeyResolver } from './key-resolver.js';
import { SqliteKeyStore } from './sqlite-key-store.js';
import { hashSecret, newSecret, type VirtualKey } from './virtual-key.js';

function budgeted(name: string): VirtualKey {
  const secret = newSecret();
  return {
    name,
    hash: hashSecret(secret),
    prefix: secret.slice(0, 12),
    models: [],
    metadata: {},
    disabled: false,
    createdAt: 1,
    updatedAt: 1,
    budget: { usd: 5, period: 'month' },
  };
}

describe('KeyEnforcement.settle', () => {
  it('counts the cost it is handed (the caller costs the record once; prices serve only reservations), and charges an answer without usage its worst case', async () => {
    const store = new SqliteKeyStore(':memory:');
    await store.insert(budgeted('ci'));
    const settled: { key: string; tokens: number; costUsd: number | undefined }[] = [];
    const limiter: KeyLimiter = {
      admit: async (key) => ({ allowed: true, ticket: { key } }),
      settle: async (ticket, used) => void settled.push({ key: ticket.key, ...used }),
    };
    let priced = 0;
    const enforcement = new KeyEnforcement({
      keys: new KeyResolver(store, { ttlMs: 60_000 }),
      limiter,
      prices: () => ({
        priceOf: () => {
          priced += 1;
          return { input: 1, output: 1 };
        },
      }),
      settings: () => ({}),
      configKeyNames: () => new Set(),
      logger: pino({ level: 'silent' }),
    });
    const info = {
      clientKeyId: 'ci',
      clientModel: 'm',
      clientProtocol: 'openai-chat' as const,
      stream: false,
      maxOutputTokens: 100,
      upstreamModels: ['m'],
      bodyChars: 400,
    };
    expect(await enforcement.admit({ ...info, requestId: 'a' })).toBeUndefined();
    expect(await enforcement.admit({ ...info, requestId: 'b' })).toBeUndefined();
    expect(priced).toBe(2);
    const record = (requestId: string, usage?: RequestRecord['usage']) => ({ requestId, status: 200, clientKeyId: 'ci', usage }) as RequestRecord;
    enforcement.settle(record('a', { inputTokens: 10, outputTokens: 5 }), { usd: 0.25 });
    enforcement.settle(record('b'), undefined);
    // Another request id settles nothing: no ticket of another request is touched.
    enforcement.settle(record('c', { inputTokens: 1, outputTokens: 1 }), { usd: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toEqual([
      { key: 'ci', tokens: 15, costUsd: 0.25 },
      { key: 'ci', tokens: 200, costUsd: 0.0002 },
    ]);
    expect(priced).toBe(2);
  });

  it("settles under a repeated request id only the record's own key's admission", async () => {
    const store = new SqliteKeyStore(':memory:');
    await store.insert(budgeted('ci'));
    await store.insert(budgeted('other'));
    const settled: { key: string; tokens: number; costUsd: number | undefined }[] = [];
    const enforcement = new KeyEnforcement({
      keys: new KeyResolver(store, { ttlMs: 60_000 }),
      limiter: { admit: async (key) => ({ allowed: true, ticket: { key } }), settle: async (ticket, used) => void settled.push({ key: ticket.key, ...used }) },
      prices: () => ({ priceOf: () => ({ input: 1, output: 1 }) }),
      settings: () => ({}),
      configKeyNames: () => new Set(),
      logger: pino({ level: 'silent' }),
    });
    const info = { requestId: 'same', clientModel: 'm', clientProtocol: 'openai-chat' as const, stream: false, upstreamModels: ['m'], bodyChars: 4 };
    expect(await enforcement.admit({ ...info, clientKeyId: 'ci' })).toBeUndefined();
    expect(await enforcement.admit({ ...info, clientKeyId: 'other' })).toBeUndefined();
    const record = (clientKeyId: string, inputTokens: number) =>
      ({ requestId: 'same', status: 200, clientKeyId, usage: { inputTokens, outputTokens: 0 } }) as RequestRecord;
    enforcement.settle(record('other', 7), { usd: 0.07 });
    enforcement.settle(record('nobody', 9), { usd: 0.09 });
    enforcement.settle(record('ci', 3), { usd: 0.03 });
    enforcement.settle(record('ci', 5), { usd: 0.05 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toEqual([
      { key: 'other', tokens: 7, costUsd: 0.07 },
      { key: 'ci', tokens: 3, costUsd: 0.03 },
    ]);
  });
});
