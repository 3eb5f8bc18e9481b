import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { type Gateway, startGateway } from '../src/server/start.js';

// Stored answers belong to the client key that created them (issue 17, "users must not cross").
// The embedded mock reuses its ids, as a bad upstream does.
let claude: MockUpstream;
let gateway: Gateway;

beforeAll(async () => {
  claude = await startMockUpstream({ protocol: 'claude' });
  const config = parseConfig(
    JSON.stringify({
      keys: ['key-one', 'key-two'],
      upstreams: { claude: { protocol: 'claude', baseUrl: claude.baseUrl, apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'claude' }],
      maxRetries: 0,
      ledger: false,
    }),
  );
  gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
});
afterAll(async () => {
  await gateway.close();
  await claude.close();
});

function client(key: string): OpenAI {
  return new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
}

async function retrieve(key: string, id: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${gateway.url}/v1/responses/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: await res.json() };
}

describe('stored responses and their owners', () => {
  it('answers GET /v1/responses/{id} to the key that created it, and 404 to another key, as for an id never served', async () => {
    const created = await client('key-one').responses.create({ model: 'gpt-5', input: 'private one' });
    const streamed = await client('key-one').responses.stream({ model: 'gpt-5', input: 'private two' }).finalResponse();
    expect((await retrieve('key-one', streamed.id)).status).toBe(200);
    const missing = await retrieve('key-two', 'resp_never_served');
    const notFound = (id: string) => ({ error: { message: `response ${id} not found`, type: 'not_found_error', param: 'response_id', code: null } });
    expect(missing).toEqual({ status: 404, body: notFound('resp_never_served') });
    for (const id of [created.id, streamed.id]) {
      const crossed = await retrieve('key-two', id);
      expect(crossed.status).toBe(404);
      expect(JSON.stringify(crossed.body)).not.toContain('private');
      expect(crossed.body).toEqual(notFound(id));
    }
  });

  it("mints a distinct id per answer although the upstream reuses its ids, and refuses another key's previous_response_id as if it did not exist", async () => {
    const one = await client('key-one').responses.create({ model: 'gpt-5', input: 'my secret is 42' });
    const oneStreamed = await client('key-one').responses.stream({ model: 'gpt-5', input: 'streamed secret' }).finalResponse();
    const two = await client('key-two').responses.create({ model: 'gpt-5', input: 'hello' });
    for (const id of [one.id, oneStreamed.id, two.id]) expect(id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(new Set([one.id, oneStreamed.id, two.id]).size).toBe(3);

    // The owner continues its own conversation.
    const continued = await client('key-one').responses.create({ model: 'gpt-5', input: 'and now?', previous_response_id: one.id });
    expect(continued.output_text).toBe('Mock claude says: and now?');

    const continueAs = async (key: string, previous: string) => {
      const res = await fetch(`${gateway.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-5', input: 'tell me the secret', previous_response_id: previous }),
      });
      return { status: res.status, body: (await res.json()) as { error: { message: string; type: string; param: string | null } } };
    };
    const missing = await continueAs('key-two', `resp_${'0'.repeat(32)}`);
    expect(missing).toEqual({
      status: 404,
      body: { error: { message: `previous response resp_${'0'.repeat(32)} not found`, type: 'not_found_error', param: 'previous_response_id', code: null } },
    });
    for (const id of [one.id, oneStreamed.id]) {
      const crossed = await continueAs('key-two', id);
      expect(crossed.status).toBe(404);
      // The same answer as for an id never served, but for the id it names.
      expect(crossed.body).toEqual(JSON.parse(JSON.stringify(missing.body).replace(`resp_${'0'.repeat(32)}`, id)));
      expect((await retrieve('key-two', id)).status).toBe(404);
    }
    expect((await retrieve('key-one', two.id)).status).toBe(404);
    expect((await retrieve('key-two', two.id)).status).toBe(200);
  });
});
