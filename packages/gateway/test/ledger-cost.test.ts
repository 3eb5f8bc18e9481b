import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { openLedger } from '../src/ledger/ledger.js';
import { openDatabase } from '../src/ledger/sqlite.js';
import { writeFirstSchemaLedger } from './helpers/first-ledger-schema.js';
import { createLogger } from '../src/logger.js';
import type { RequestRecord } from '../src/router-contract.js';
import { startGateway } from '../src/server/start.js';
import { type ScriptedAnswer, startScriptedUpstream } from './helpers/scripted-upstream.js';

const record = (requestId: string): RequestRecord => ({
  requestId,
  clientProtocol: 'claude',
  status: 200,
  stream: false,
  usage: { inputTokens: 30, outputTokens: 4 },
  totalMs: 5,
  warnings: [],
});

const newPath = () => join(mkdtempSync(join(tmpdir(), 'ledger-cost-')), 'usage.db');

/**
 * Sends one client request through a gateway whose only upstream (speaking `protocol`, routed to
 * `model`) gives `answer`; returns the ledger's row of it.
 */
async function ledgerRowOf(protocol: 'claude' | 'openai-chat' | 'openai-responses', model: string, answer: ScriptedAnswer, path: string, body: object) {
  const upstream = await startScriptedUpstream();
  const ledgerPath = newPath();
  const config = parseConfig(
    JSON.stringify({
      upstreams: { up: { protocol, baseUrl: upstream.url, apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'up', model }],
      ledger: { path: ledgerPath },
      maxRetries: 0,
    }),
  );
  const gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
  upstream.answerNext(answer);
  try {
    const response = await fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    await response.text();
  } finally {
    await gateway.close();
    await upstream.close();
  }
  const db = openDatabase(ledgerPath, { readonly: true });
  try {
    return db
      .prepare('SELECT stream, input_tokens, cached_tokens, cache_write_tokens, reasoning_tokens, output_tokens, cost_usd, unpriced FROM requests')
      .all();
  } finally {
    db.close();
  }
}

const json = (value: object): ScriptedAnswer => ({ status: 200, contentType: 'application/json', chunks: [JSON.stringify(value)], then: 'end' });

describe('ledger: cost of each row', () => {
  it('writes cost_usd, and flags an unpriced model with unpriced = 1 (cost null, never 0)', () => {
    const path = newPath();
    const ledger = openLedger(path);
    ledger.record({ time: 1, record: record('priced'), cost: { usd: 0.0125 } });
    ledger.record({ time: 2, record: record('unpriced'), cost: { unpriced: true } });
    ledger.record({ time: 3, record: { ...record('no-usage'), usage: undefined } });
    ledger.close();
    const db = openDatabase(path, { readonly: true });
    expect(db.prepare('SELECT request_id, cost_usd, unpriced FROM requests ORDER BY id').all()).toEqual([
      { request_id: 'priced', cost_usd: 0.0125, unpriced: null },
      { request_id: 'unpriced', cost_usd: null, unpriced: 1 },
      { request_id: 'no-usage', cost_usd: null, unpriced: null },
    ]);
    db.close();
  });

  it('adds the columns to a file of the first schema on open, once (opening again changes nothing)', () => {
    const path = newPath();
    writeFirstSchemaLedger(path);
    for (const [time, id] of [
      [1, 'after'],
      [2, 'again'],
    ] as const) {
      const ledger = openLedger(path, { onError: (error) => expect.fail(String(error)) });
      ledger.record({ time, record: record(id), cost: { usd: 1.5 } });
      ledger.close();
    }
    const db = openDatabase(path, { readonly: true });
    expect((db.prepare('PRAGMA table_info(requests)').all() as { name: string }[]).map((c) => c.name).slice(-3)).toEqual([
      'usage_estimated',
      'cost_usd',
      'unpriced',
    ]);
    expect(db.prepare('SELECT request_id, cost_usd, unpriced FROM requests ORDER BY id').all()).toEqual([
      { request_id: 'before', cost_usd: null, unpriced: null },
      { request_id: 'after', cost_usd: 1.5, unpriced: null },
      { request_id: 'again', cost_usd: 1.5, unpriced: null },
    ]);
    db.close();
  });

  it('the gateway costs each request at the price of the model the upstream billed', async () => {
    const upstream = await startScriptedUpstream();
    const path = newPath();
    const configWith = (prices?: object) =>
      parseConfig(
        JSON.stringify({
          upstreams: { claude: { protocol: 'claude', baseUrl: upstream.url, apiKey: 'k' } },
          routes: [
            { match: 'fast', upstream: 'claude', model: 'claude-haiku-4-5-20251001' },
            { match: 'local', upstream: 'claude', model: 'my-local-model' },
          ],
          ledger: { path },
          maxRetries: 0,
          prices,
        }),
      );
    const config = configWith();
    const gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
    const answer = (model: string) =>
      JSON.stringify({
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text: 'hi' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 1000, cache_read_input_tokens: 2000, output_tokens: 100 },
      });
    const send = async (model: string) => {
      upstream.answerNext({ status: 200, contentType: 'application/json', chunks: [answer(model)], then: 'end' });
      const response = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(200);
      await response.text();
    };
    try {
      await send('fast');
      await send('local');
      // A reload's prices apply to the requests after it.
      expect(gateway.reload(() => configWith({ 'my-local-*': { input: 1, output: 2 } }))).toBe(true);
      await send('local');
    } finally {
      await gateway.close();
      await upstream.close();
    }
    const db = openDatabase(path, { readonly: true });
    // 1000 x $1 + 2000 x $0.10 + 100 x $5 = $1,700 per million.
    expect(db.prepare('SELECT upstream_model, input_tokens, cached_tokens, output_tokens, cost_usd, unpriced FROM requests ORDER BY id').all()).toEqual([
      { upstream_model: 'claude-haiku-4-5-20251001', input_tokens: 3000, cached_tokens: 2000, output_tokens: 100, cost_usd: 0.0017, unpriced: null },
      { upstream_model: 'my-local-model', input_tokens: 3000, cached_tokens: 2000, output_tokens: 100, cost_usd: null, unpriced: 1 },
      // 3000 x $1 (no cachedInput: cache reads at the input rate) + 100 x $2.
      { upstream_model: 'my-local-model', input_tokens: 3000, cached_tokens: 2000, output_tokens: 100, cost_usd: 0.0032, unpriced: null },
    ]);
    db.close();
  });

  it('a streamed Claude answer: 5-minute and 1-hour cache writes from message_start, output from message_delta', async () => {
    const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const usage = {
      input_tokens: 100,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 3000,
      cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
      output_tokens: 1,
    };
    const stream: ScriptedAnswer = {
      status: 200,
      contentType: 'text/event-stream',
      chunks: [
        event('message_start', {
          message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage },
        }),
        event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'hi' } }),
        event('content_block_stop', { index: 0 }),
        event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 50 } }),
        event('message_stop', {}),
      ],
      then: 'end',
    };
    const body = { model: 'sonnet', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] };
    // 100 x $3 + 1000 x $0.30 + 1000 x $3.75 + 2000 x $6 + 50 x $15 = $17,100 per million.
    expect(await ledgerRowOf('claude', 'claude-sonnet-4-5-20250929', stream, '/v1/messages', body)).toEqual([
      {
        stream: 1,
        input_tokens: 4100,
        cached_tokens: 1000,
        cache_write_tokens: 3000,
        reasoning_tokens: null,
        output_tokens: 50,
        cost_usd: 0.0171,
        unpriced: null,
      },
    ]);
  });

  it('OpenAI Chat: cached_tokens inside prompt_tokens, reasoning_tokens inside completion_tokens', async () => {
    const answer = json({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o-2024-08-06',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: 10_000,
        completion_tokens: 2000,
        total_tokens: 12_000,
        prompt_tokens_details: { cached_tokens: 4000 },
        completion_tokens_details: { reasoning_tokens: 500 },
      },
    });
    // 6000 x $2.50 + 4000 x $1.25 + 2000 x $10 (reasoning billed as output) = $40,000 per million.
    expect(
      await ledgerRowOf('openai-chat', 'gpt-4o-2024-08-06', answer, '/v1/chat/completions', { model: 'x', messages: [{ role: 'user', content: 'hi' }] }),
    ).toEqual([
      {
        stream: 0,
        input_tokens: 10_000,
        cached_tokens: 4000,
        cache_write_tokens: null,
        reasoning_tokens: 500,
        output_tokens: 2000,
        cost_usd: 0.04,
        unpriced: null,
      },
    ]);
  });

  it('OpenAI Responses: input_tokens_details.cached_tokens and output_tokens_details.reasoning_tokens', async () => {
    const answer = json({
      id: 'resp_1',
      object: 'response',
      created_at: 1,
      status: 'completed',
      model: 'gpt-5.4-mini',
      output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'hi', annotations: [] }] }],
      usage: {
        input_tokens: 20_000,
        input_tokens_details: { cached_tokens: 10_000 },
        output_tokens: 1000,
        output_tokens_details: { reasoning_tokens: 800 },
        total_tokens: 21_000,
      },
    });
    // 10,000 x $0.75 + 10,000 x $0.075 + 1000 x $4.50 = $12,750 per million.
    expect(await ledgerRowOf('openai-responses', 'gpt-5.4-mini', answer, '/v1/responses', { model: 'x', input: 'hi' })).toEqual([
      {
        stream: 0,
        input_tokens: 20_000,
        cached_tokens: 10_000,
        cache_write_tokens: null,
        reasoning_tokens: 800,
        output_tokens: 1000,
        cost_usd: 0.01275,
        unpriced: null,
      },
    ]);
  });
});
