// Virtual keys enforced per protocol (issue 22): each refusal before the upstream call, answered
// with the status, headers and body the protocol's clients handle (and their official SDKs
// classify so); tokens and spend counted after the answer, streams included.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import type { ServedProtocol } from '../src/served-protocols.js';
import { type Gateway, startGateway } from '../src/server/start.js';
import { ADMIN_KEY, createKey as createGatewayKey, keysGatewayConfig } from './helpers/keys-gateway.js';

type Client = Exclude<ServedProtocol, 'bedrock-converse'>;
/** Each client's own model (a priced one, answered by a mock of its protocol). */
const MODEL: Record<Client, string> = {
  'openai-chat': 'gpt-4o-mini',
  'openai-responses': 'gpt-4.1-mini',
  claude: 'claude-sonnet-4-5',
  gemini: 'gemini-2.5-flash',
};
const CLIENTS = Object.keys(MODEL) as Client[];

let mocks: MockUpstream[] = [];
let gateway: Gateway;
beforeAll(async () => {
  mocks = await Promise.all(CLIENTS.map((protocol) => startMockUpstream({ protocol, port: 0 })));
  const upstreams = Object.fromEntries(mocks.map((mock) => [mock.protocol, { protocol: mock.protocol, baseUrl: mock.baseUrl, apiKey: 'k' }]));
  const config = keysGatewayConfig({
    upstreams,
    routes: [...CLIENTS.map((protocol) => ({ match: MODEL[protocol], upstream: protocol })), { match: 'local-model', upstream: 'openai-chat' }],
  });
  gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
});
afterAll(async () => {
  await gateway.close();
  await Promise.all(mocks.map((mock) => mock.close()));
});

const createKey = (body: Record<string, unknown>): Promise<string> => createGatewayKey(gateway.url, body);

/** One generate call of `client` with `key`, as the protocol's clients send it. */
async function ask(client: Client, key: string, options: { model?: string; stream?: boolean; prompt?: string } = {}) {
  const model = options.model ?? MODEL[client];
  const stream = options.stream === true;
  const prompt = options.prompt ?? 'hi';
  const messages = [{ role: 'user', content: prompt }];
  const call: Record<Client, { path: string; headers: Record<string, string>; body: unknown }> = {
    'openai-chat': { path: '/v1/chat/completions', headers: { authorization: `Bearer ${key}` }, body: { model, messages, max_tokens: 50, stream } },
    'openai-responses': { path: '/v1/responses', headers: { authorization: `Bearer ${key}` }, body: { model, input: prompt, max_output_tokens: 50, stream } },
    claude: { path: '/v1/messages', headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, body: { model, messages, max_tokens: 50, stream } },
    gemini: {
      path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
      headers: { 'x-goog-api-key': key },
      body: { contents: [{ role: 'user', parts: [{ text: prompt }] }], generationConfig: { maxOutputTokens: 50 } },
    },
  };
  const { path, headers, body } = call[client];
  const reply = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await reply.text();
  const shown: Record<string, string> = {};
  for (const name of ['content-type', 'retry-after', 'retry-after-ms']) {
    const value = reply.headers.get(name);
    if (value !== null) shown[name] = value;
  }
  return { status: reply.status, headers: shown, text, json: () => JSON.parse(text) as unknown };
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** The protocol's error body for `kind` with `message` (the wire shapes the codecs write). */
function errorBody(client: Client, kind: 'auth' | 'permission' | 'rate' | 'quota', message: string, retrySeconds?: string): unknown {
  switch (client) {
    case 'openai-chat':
    case 'openai-responses': {
      if (kind === 'auth') return { error: { message, type: 'invalid_request_error', param: null, code: null } };
      if (kind === 'permission') return { error: { message, type: 'permission_error', param: null, code: null } };
      if (kind === 'quota') return { error: { message, type: 'insufficient_quota', param: null, code: 'insufficient_quota' } };
      return client === 'openai-chat'
        ? { error: { message, type: 'rate_limit_error', param: null, code: null } }
        : { error: { message, type: 'rate_limit_exceeded', param: null, code: 'rate_limit_exceeded' } };
    }
    case 'claude': {
      const type = { auth: 'authentication_error', permission: 'permission_error', rate: 'rate_limit_error', quota: 'billing_error' }[kind];
      return { type: 'error', error: { type, message } };
    }
    case 'gemini': {
      const [code, status] = {
        auth: [401, 'UNAUTHENTICATED'],
        permission: [403, 'PERMISSION_DENIED'],
        rate: [429, 'RESOURCE_EXHAUSTED'],
        quota: [429, 'RESOURCE_EXHAUSTED'],
      }[kind];
      const details = retrySeconds === undefined ? {} : { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retrySeconds}s` }] };
      return { error: { code, message, status, ...details } };
    }
  }
}

describe('virtual key enforcement', () => {
  for (const client of CLIENTS) {
    describe(`a ${client} client`, () => {
      it('is refused a model outside its key’s globs with 403, naming the model; allowed ones answer', async () => {
        const secret = await createKey({ name: `models-${client}`, models: [`${MODEL[client].split('-')[0]}-*`] });
        expect((await ask(client, secret)).status).toBe(200);
        const refused = await ask(client, secret, { model: 'local-model' });
        expect({ status: refused.status, headers: refused.headers, body: refused.json() }).toEqual({
          status: 403,
          headers: JSON_TYPE,
          body: errorBody(client, 'permission', `the gateway key models-${client} may not use the model local-model`),
        });
      });

      it('gets 429 with retry-after once its rpm is reached', async () => {
        const secret = await createKey({ name: `rpm-${client}`, rpm: 1 });
        // A minute boundary between the two calls would reset the count: start early in a minute.
        if (new Date().getUTCSeconds() > 55) await new Promise((resolve) => setTimeout(resolve, 6_000));
        expect((await ask(client, secret)).status).toBe(200);
        const refused = await ask(client, secret);
        const retry = refused.headers['retry-after']!;
        expect(Number(retry)).toBeGreaterThanOrEqual(1);
        expect(Number(retry)).toBeLessThanOrEqual(60);
        expect({ status: refused.status, headers: refused.headers, body: refused.json() }).toEqual({
          status: 429,
          headers: { ...JSON_TYPE, 'retry-after': retry, ...(client === 'openai-chat' && { 'retry-after-ms': `${Number(retry) * 1000}` }) },
          body: errorBody(client, 'rate', `rate limit reached: 1 requests per minute for this key; retry in ${retry} s`, retry),
        });
      });

      it('is answered as the provider answers an exhausted quota once its budget is spent, its stream counted', async () => {
        const secret = await createKey({ name: `budget-${client}`, budget: { usd: 0.000001, period: 'total' } });
        const streamed = await ask(client, secret, { stream: true });
        expect(streamed.status).toBe(200);
        const refused = await ask(client, secret);
        expect({ status: refused.status, headers: refused.headers, body: refused.json() }).toEqual({
          status: client === 'claude' ? 402 : 429,
          headers: JSON_TYPE,
          body: errorBody(client, 'quota', "budget exhausted: this key's total budget of $0.000001 is spent"),
        });
      });

      it('is refused 401 when its key is disabled or expired, and 403 an unpriced model on a budgeted key', async () => {
        const secret = await createKey({ name: `state-${client}`, budget: { usd: 10, period: 'day' } });
        const unpriced = await ask(client, secret, { model: 'local-model' });
        expect({ status: unpriced.status, body: unpriced.json() }).toEqual({
          status: 403,
          body: errorBody(
            client,
            'permission',
            `the model local-model has no price, and the gateway key state-${client} has a budget (set allowUnpricedWithBudget, or give the model a price under prices:)`,
          ),
        });
        for (const [change, state] of [
          [{ disabled: true }, 'disabled'],
          [{ disabled: false, expiresAt: '2001-01-01' }, 'expired'],
        ] as const) {
          const patched = await fetch(`${gateway.url}/admin/keys/state-${client}`, {
            method: 'PATCH',
            headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
            body: JSON.stringify(change),
          });
          expect(patched.status).toBe(200);
          const refused = await ask(client, secret);
          expect({ status: refused.status, body: refused.json() }).toEqual({
            status: 401,
            body: errorBody(client, 'auth', `the gateway key state-${client} is ${state}`),
          });
        }
      });
    });
  }

  it('counts a stream’s tokens against tpm: the next request is refused', async () => {
    const secret = await createKey({ name: 'tpm-stream', tpm: 5 });
    if (new Date().getUTCSeconds() > 55) await new Promise((resolve) => setTimeout(resolve, 6_000));
    const streamed = await ask('claude', secret, { stream: true });
    expect(streamed.status).toBe(200);
    expect(streamed.text).toContain('event: message_stop');
    const refused = await ask('claude', secret);
    expect(refused.status).toBe(429);
    expect(refused.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: `rate limit reached: 5 tokens per minute for this key; retry in ${refused.headers['retry-after']} s` },
    });
  });

  it('counts a stream the upstream cut midway: a budget spent by it refuses the next request', async () => {
    for (const client of CLIENTS) {
      const secret = await createKey({ name: `cut-${client}`, budget: { usd: 0.000001, period: 'total' } });
      const cut = await ask(client, secret, { stream: true, prompt: 'fail midway' });
      expect(cut.status).toBe(200);
      expect(cut.text).toContain('Overloaded (scripted mid-stream failure)');
      expect((await ask(client, secret)).status).toBe(client === 'claude' ? 402 : 429);
    }
  });

  it('gives each official SDK the error class it handles', async () => {
    const rpm = await createKey({ name: 'sdk-rpm', rpm: 1 });
    const budget = await createKey({ name: 'sdk-budget', budget: { usd: 0.000001, period: 'total' } });
    if (new Date().getUTCSeconds() > 50) await new Promise((resolve) => setTimeout(resolve, 11_000));
    const openai = (key: string) => new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const chat = (key: string) => openai(key).chat.completions.create({ model: MODEL['openai-chat'], messages: [{ role: 'user', content: 'hi' }] });
    await chat(rpm);
    await expect(chat(rpm)).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    await chat(budget);
    const quota = await chat(budget).catch((error: unknown) => error);
    expect(quota).toBeInstanceOf(OpenAI.RateLimitError);
    expect((quota as InstanceType<typeof OpenAI.RateLimitError>).code).toBe('insufficient_quota');

    const anthropic = new Anthropic({ apiKey: budget, baseURL: gateway.url, maxRetries: 0 });
    const billing = await anthropic.messages
      .create({ model: MODEL.claude, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect((billing as InstanceType<typeof Anthropic.APIError>).status).toBe(402);
    expect((billing as InstanceType<typeof Anthropic.APIError>).error).toEqual({
      type: 'error',
      error: { type: 'billing_error', message: "budget exhausted: this key's total budget of $0.000001 is spent" },
    });
    const limited = await new Anthropic({ apiKey: rpm, baseURL: gateway.url, maxRetries: 0 }).messages
      .create({ model: MODEL.claude, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);

    const google = new GoogleGenAI({ apiKey: budget, httpOptions: { baseUrl: gateway.url } });
    const exhausted = await google.models.generateContent({ model: MODEL.gemini, contents: 'hi' }).catch((error: unknown) => error);
    expect((exhausted as { status?: number }).status).toBe(429);
    expect((exhausted as Error).message).toContain('RESOURCE_EXHAUSTED');
  });
});
