import { decodeUsage as converseUsage } from '@llm/bedrock-converse';
import { decodeUsage as claudeUsage } from '@llm/claude';
import type { LlmUsage } from '@llm/core';
import { decodeUsage as geminiUsage } from '@llm/gemini';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/expand-env.js';
import { parseConfig } from '../src/config/load.js';
import { createPriceBook, PRICE_TABLE, PRICE_TABLE_DATE, PRICE_TABLE_SOURCES, priceIdsOf } from '../src/pricing/index.js';
import type { RequestRecord } from '../src/router-contract.js';

const ROUTES = 'upstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: a }]\n';

/** A finished request's record billed by `upstreamModel`. */
function record(upstreamModel: string | undefined, usage: LlmUsage | undefined): RequestRecord {
  return { requestId: 'r', clientProtocol: 'claude', upstreamModel, clientModel: 'client-alias', status: 200, stream: false, usage, totalMs: 1, warnings: [] };
}

const book = createPriceBook({});

describe('the shipped price table', () => {
  it('states its date and sources, and every price is a non-negative number', () => {
    expect(PRICE_TABLE_DATE).toBe('2026-11-25');
    expect(PRICE_TABLE_SOURCES).toContain('https://platform.claude.com/docs/en/about-claude/pricing');
    for (const price of Object.values(PRICE_TABLE)) {
      for (const value of Object.values(price)) if (typeof value === 'number') expect(value).toBeGreaterThanOrEqual(0);
    }
  });

  it('bills dated, Bedrock and Vertex ids at their alias price', () => {
    expect(priceIdsOf('claude-sonnet-4-5-20250929')).toEqual(['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5']);
    expect(priceIdsOf('us.anthropic.claude-haiku-4-5-20251001-v1:0')).toEqual([
      'us.anthropic.claude-haiku-4-5-20251001-v1:0',
      'claude-haiku-4-5-20251001',
      'claude-haiku-4-5',
    ]);
    expect(priceIdsOf('claude-opus-4-5@20251101')).toEqual(['claude-opus-4-5@20251101', 'claude-opus-4-5-20251101', 'claude-opus-4-5']);
    expect(priceIdsOf('gpt-4o-2024-08-06')).toEqual(['gpt-4o-2024-08-06', 'gpt-4o']);
    expect(priceIdsOf('models/gemini-2.5-pro')).toEqual(['models/gemini-2.5-pro', 'gemini-2.5-pro']);
    expect(book.priceOf('claude-sonnet-4-5-20250929')).toEqual({ input: 3, output: 15, cachedInput: 0.3, cacheWrite5m: 3.75, cacheWrite1h: 6 });
    expect(book.priceOf('anthropic.claude-sonnet-4-6')).toBe(book.priceOf('claude-sonnet-4-6'));
    expect(book.priceOf('gpt-4o-2024-08-06')).toEqual({ input: 2.5, cachedInput: 1.25, output: 10 });
    expect(book.priceOf('gpt-4o-2024')).toBeUndefined();
    expect(book.priceOf('my-local-model')).toBeUndefined();
  });
});

describe('cost of a request, per provider usage shape', () => {
  it('Claude: uncached input, cache reads, 5-minute and 1-hour writes at their own rates', () => {
    const usage = claudeUsage({
      input_tokens: 1000,
      cache_read_input_tokens: 20_000,
      cache_creation_input_tokens: 3000,
      cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
      output_tokens: 500,
    });
    // 1000 x $3 + 20,000 x $0.30 + 1000 x $3.75 + 2000 x $6 + 500 x $15 = $32,250 per million.
    expect(book.costOf(record('claude-sonnet-4-5-20250929', usage))).toEqual({ usd: 0.03225 });
  });

  it('Claude without the TTL split: the whole write at the 5-minute rate', () => {
    const usage = claudeUsage({ input_tokens: 0, cache_creation_input_tokens: 1_000_000, output_tokens: 0 });
    expect(book.costOf(record('claude-opus-4-5', usage))).toEqual({ usd: 6.25 });
  });

  it('Bedrock Converse: cache reads and writes beside inputTokens, Claude prices', () => {
    const usage = converseUsage({ usage: { inputTokens: 1000, cacheReadInputTokens: 2000, cacheWriteInputTokens: 4000, outputTokens: 100 } }, 'usage', '');
    // 1000 x $1 + 2000 x $0.10 + 4000 x $1.25 + 100 x $5 = $6,700 per million.
    expect(book.costOf(record('us.anthropic.claude-haiku-4-5-20251001-v1:0', usage))).toEqual({ usd: 0.0067 });
  });

  it('Vertex AI Claude id', () => {
    expect(book.costOf(record('claude-opus-4-5@20251101', { inputTokens: 1000, outputTokens: 1000 }))).toEqual({ usd: 0.03 });
  });

  it('OpenAI: cached tokens are part of the prompt, reasoning part of the output (billed as output)', () => {
    // As both OpenAI codecs map it: prompt_tokens 10,000 with cached_tokens 4000; completion_tokens 2000 with reasoning_tokens 500.
    const usage: LlmUsage = { inputTokens: 10_000, cacheReadTokens: 4000, outputTokens: 2000, reasoningTokens: 500 };
    // 6000 x $2.50 + 4000 x $1.25 + 2000 x $10 = $40,000 per million.
    expect(book.costOf(record('gpt-4o-2024-08-06', usage))).toEqual({ usd: 0.04 });
  });

  it('Gemini: thoughts are output (the codec adds thoughtsTokenCount to candidates), cached content at the cache rate', () => {
    const usage = geminiUsage({ promptTokenCount: 10_000, cachedContentTokenCount: 8000, candidatesTokenCount: 300, thoughtsTokenCount: 700 });
    expect(usage).toMatchObject({ inputTokens: 10_000, outputTokens: 1000, reasoningTokens: 700 });
    // 2000 x $0.30 + 8000 x $0.03 + 1000 x $2.50 = $3,340 per million.
    expect(book.costOf(record('gemini-2.5-flash', usage))).toEqual({ usd: 0.00334 });
  });

  it('Gemini long context: a prompt over 200k tokens bills the whole request at the long tier', () => {
    const at = (prompt: number) => book.costOf(record('gemini-2.5-pro', geminiUsage({ promptTokenCount: prompt, candidatesTokenCount: 1000 })));
    expect(at(200_000)).toEqual({ usd: 0.26 });
    expect(at(300_000)).toEqual({ usd: 0.765 });
  });

  it('an unpriced model is flagged, never $0; no usage is no cost', () => {
    expect(book.costOf(record('my-local-model', { inputTokens: 5, outputTokens: 5 }))).toEqual({ unpriced: true });
    expect(book.costOf(record(undefined, { inputTokens: 5, outputTokens: 5 }))).toEqual({ unpriced: true });
    expect(book.costOf(record('gpt-4o', undefined))).toBeUndefined();
  });
});

describe('prices in the config', () => {
  it('override the table (dated ids included) and price models it lacks, exact ids before globs', () => {
    const config = parseConfig(
      `${ROUTES}prices:\n  "local-*": { input: 1, output: 2 }\n  local-big: { input: 10, output: 20 }\n  gpt-4o: { input: 1, output: 1 }\n  thinker: { input: 1, output: 2, reasoning: 4 }\n`,
      {},
    );
    const configured = createPriceBook(config);
    expect(configured.priceOf('local-small')).toEqual({ input: 1, output: 2 });
    expect(configured.priceOf('local-big')).toEqual({ input: 10, output: 20 });
    expect(configured.costOf(record('gpt-4o-2024-08-06', { inputTokens: 1_000_000, cacheReadTokens: 500_000, outputTokens: 0 }))).toEqual({ usd: 1 });
    // Reasoning priced apart: 60 output x $2 + 40 reasoning x $4.
    expect(configured.costOf(record('thinker', { inputTokens: 0, outputTokens: 100, reasoningTokens: 40 }))).toEqual({ usd: 0.00028 });
    expect(config.allowUnpricedWithBudget).toBeUndefined();
    expect(parseConfig(`${ROUTES}allowUnpricedWithBudget: true\n`, {}).allowUnpricedWithBudget).toBe(true);
  });

  it('are validated: non-negative numbers, known fields (with a did-you-mean)', () => {
    expect(() =>
      parseConfig(
        `${ROUTES}prices:\n  x: { input: -1, output: 1, cachedInpt: 1 }\n  y: { input: 1 }\n  z: { input: 1, output: 1, longContext: { input: 2, output: 2 } }\n`,
        {},
      ),
    ).toThrow(
      ConfigError.of('config', [
        'prices.x.input: must be at least 0',
        'prices.y.output: is required',
        'prices.z.longContext.aboveInputTokens: is required',
        'prices.x.cachedInpt: unknown field (did you mean cachedInput?)',
      ]),
    );
  });
});
