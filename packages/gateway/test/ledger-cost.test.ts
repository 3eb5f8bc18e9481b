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
import { startScriptedUpstream } from './helpers/scripted-upstream.js';

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
    const config = parseConfig(
      JSON.stringify({
        upstreams: { claude: { protocol: 'claude', baseUrl: upstream.url, apiKey: 'k' } },
        routes: [
          { match: 'fast', upstream: 'claude', model: 'claude-haiku-4-5-20251001' },
          { match: 'local', upstream: 'claude', model: 'my-local-model' },
        ],
        ledger: { path },
        maxRetries: 0,
      }),
    );
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
    try {
      for (const model of ['fast', 'local']) {
        upstream.answerNext({ status: 200, contentType: 'application/json', chunks: [answer(model)], then: 'end' });
        const response = await fetch(`${gateway.url}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
        });
        expect(response.status).toBe(200);
        await response.text();
      }
    } finally {
      await gateway.close();
      await upstream.close();
    }
    const db = openDatabase(path, { readonly: true });
    // 1000 x $1 + 2000 x $0.10 + 100 x $5 = $1,700 per million.
    expect(db.prepare('SELECT upstream_model, input_tokens, cached_tokens, output_tokens, cost_usd, unpriced FROM requests ORDER BY id').all()).toEqual([
      { upstream_model: 'claude-haiku-4-5-20251001', input_tokens: 3000, cached_tokens: 2000, output_tokens: 100, cost_usd: 0.0017, unpriced: null },
      { upstream_model: 'my-local-model', input_tokens: 3000, cached_tokens: 2000, output_tokens: 100, cost_usd: null, unpriced: 1 },
    ]);
    db.close();
  });
});
