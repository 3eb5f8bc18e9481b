import { describe, expect, it } from 'vitest';
import type { RequestRecord, RouterConfig, Transport } from '../src/config.js';
import { createHandler } from '../src/handler.js';
import { MAX_WARNINGS_HEADER_BYTES, warningsHeaderValue } from '../src/warnings.js';

/** A Chat upstream answering every call with one short text turn. */
const chatAnswer: Transport = async () =>
  Response.json({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o',
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });

function claudeToChat(extra: Partial<RouterConfig> = {}): { handler: (request: Request) => Promise<Response>; records: RequestRecord[]; seen: string[] } {
  const records: RequestRecord[] = [];
  const seen: string[] = [];
  const handler = createHandler({
    upstreams: { chat: { protocol: 'openai-chat', baseUrl: 'http://upstream.test/v1' } },
    routes: [{ match: '*', upstream: 'chat' }],
    transport: chatAnswer,
    hooks: { onWarning: (warning) => seen.push(`${warning.code}@${warning.path}`), onRequestEnd: (record) => records.push(record) },
    ...extra,
  });
  return { handler, records, seen };
}

const claudeBody = (extra: Record<string, unknown>) => ({ model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], ...extra });

const post = (body: unknown) =>
  new Request('http://router.test/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('translation warnings of one request', () => {
  it('an unknown body key that is not ASCII, or holds CR / LF / NUL, reaches x-llm-warnings percent-encoded (a valid header)', async () => {
    const { handler } = claudeToChat({ warningsHeader: true });
    const response = await handler(post(claudeBody({ 日本語: 1, 'a\r\nb\u0000c': 2 })));
    expect(response.status).toBe(200);
    const value = response.headers.get('x-llm-warnings') as string;
    expect(value).toBe('dropped-field@%E6%97%A5%E6%9C%AC%E8%AA%9E, dropped-field@a%0D%0Ab%00c');
    expect(() => new Headers({ 'x-llm-warnings': value })).not.toThrow();
  });

  it('100,000 unknown metadata keys: 100 warnings kept and passed to onWarning, the rest counted, the header capped', async () => {
    const { handler, records, seen } = claudeToChat({ warningsHeader: true });
    const metadata: Record<string, string> = {};
    for (let index = 0; index < 100_000; index++) metadata[`k${index}`] = 'v';
    const response = await handler(post(claudeBody({ metadata })));
    expect(response.status).toBe(200);
    expect(seen).toHaveLength(100);
    expect(seen[0]).toBe('dropped-field@metadata.k0');
    expect(records[0]?.warnings).toHaveLength(100);
    const total = 100_000;
    expect(records[0]?.warningsDropped).toBe(total - 100);
    const value = response.headers.get('x-llm-warnings') as string;
    const items = value.split(', ');
    // Every kept warning fits in 4 KB here; the dropped ones are summarised.
    expect(items.slice(0, -1)).toEqual(seen);
    expect(items.at(-1)).toBe(`+${total - 100} more`);
    expect(value.length).toBeLessThanOrEqual(MAX_WARNINGS_HEADER_BYTES);
  });

  it('maxWarningsPerRequest sets the cap; a request under it reports no warningsDropped', async () => {
    const { handler, records, seen } = claudeToChat({ maxWarningsPerRequest: 1 });
    await handler(post(claudeBody({ a: 1, b: 2 })));
    expect(seen).toEqual(['dropped-field@a']);
    expect(records[0]?.warningsDropped).toBe(1);
    const quiet = claudeToChat();
    await quiet.handler(post(claudeBody({ a: 1 })));
    expect(quiet.records[0]?.warnings.map((warning) => warning.path)).toEqual(['a']);
    expect(quiet.records[0]).not.toHaveProperty('warningsDropped');
  });
});

describe('warningsHeaderValue', () => {
  const warning = (path: string) => ({ code: 'dropped-field' as const, path, message: 'x' });

  it('stops before 4096 bytes and counts what did not fit, with the dropped warnings, as +N more', () => {
    const long = Array.from({ length: 100 }, (_, index) => warning(`${'p'.repeat(80)}${index}`));
    const value = warningsHeaderValue(long, 7);
    const items = value.split(', ');
    const shown = items.length - 1;
    expect(value.length).toBeLessThanOrEqual(MAX_WARNINGS_HEADER_BYTES);
    expect(items.slice(0, shown)).toEqual(long.slice(0, shown).map((item) => `dropped-field@${item.path}`));
    expect(items[shown]).toBe(`+${100 - shown + 7} more`);
    // As many as fit: one more item, with room for the largest summary, would pass the limit.
    const shownItems = items.slice(0, shown).join(', ');
    expect(`${shownItems}, dropped-field@${long[shown]?.path}, +107 more`.length).toBeGreaterThan(MAX_WARNINGS_HEADER_BYTES);
  });

  it('encodes `,` and `%` (the separator and the escape), spaces, and lone surrogates; a single huge item is only counted', () => {
    expect(warningsHeaderValue([warning('a, b%c\uD800')], 0)).toBe('dropped-field@a%2C%20b%25c%EF%BF%BD');
    expect(warningsHeaderValue([warning('x'.repeat(5000)), warning('y')], 0)).toBe('+2 more');
  });
});
