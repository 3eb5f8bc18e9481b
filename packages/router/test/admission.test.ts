// The `admit` hook (issue 22): a denial is answered before any upstream call, in the client's
// protocol, with the status, error type and retry-after its clients handle; an admitted call is
// told its model, stream flag, output cap and upstream models, and ends in `onRequestEnd`.
import type { ProtocolId } from '@llm/core';
import { describe, expect, it } from 'vitest';
import type { AdmitDenial, AdmitInfo } from '../src/admission.js';
import type { RequestRecord } from '../src/config.js';
import { createHandler } from '../src/handler.js';
import { answer } from './upstream-answer.js';

type Served = Exclude<ProtocolId, 'bedrock-converse'>;
const PATHS: Record<Served, string> = {
  'openai-chat': '/v1/chat/completions',
  'openai-responses': '/v1/responses',
  claude: '/v1/messages',
  gemini: '/v1beta/models/m-1:generateContent',
};
const BODIES: Record<Served, unknown> = {
  'openai-chat': { model: 'm-1', max_completion_tokens: 100, messages: [{ role: 'user', content: 'hi' }] },
  'openai-responses': { model: 'm-1', max_output_tokens: 100, input: 'hi' },
  claude: { model: 'm-1', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] },
  gemini: { generationConfig: { maxOutputTokens: 100 }, contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
};

async function call(protocol: Served, denial: AdmitDenial | undefined, upstreamProtocol: Served = protocol) {
  let upstreamCalls = 0;
  const seen: AdmitInfo[] = [];
  const records: RequestRecord[] = [];
  const handler = createHandler({
    upstreams: { u: { protocol: upstreamProtocol, baseUrl: 'http://u.invalid' } },
    routes: [{ match: '*', upstream: 'u', model: 'up-1' }],
    transport: async () => {
      upstreamCalls++;
      return answer(500, 'application/json', ['{}']);
    },
    maxRetries: 0,
    hooks: {
      admit: async (info) => {
        seen.push(info);
        return denial;
      },
      onRequestEnd: (record) => records.push(record),
    },
  });
  const response = await handler(
    new Request(`http://gw${PATHS[protocol]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(BODIES[protocol]),
    }),
  );
  const headers = Object.fromEntries(response.headers);
  delete headers['x-request-id'];
  return { status: response.status, headers, body: await response.json(), upstreamCalls, seen, records };
}

const JSON_TYPE = { 'content-type': 'application/json' };
const denials: Record<string, AdmitDenial> = {
  permission: { kind: 'permission', message: 'model m-1 is not allowed for this key' },
  rate: { kind: 'rate_limit', message: 'rpm limit of 2 reached', retryAfterSeconds: 12 },
  quota: { kind: 'quota', message: 'budget of $5/day spent', code: 'insufficient_quota' },
  auth: { kind: 'authentication', message: 'the key expired' },
};

/** [denial, protocol, status, headers, body]. */
const expected: [string, Served, number, Record<string, string>, unknown][] = [
  [
    'permission',
    'openai-chat',
    403,
    JSON_TYPE,
    { error: { message: 'model m-1 is not allowed for this key', type: 'permission_error', param: null, code: null } },
  ],
  [
    'permission',
    'openai-responses',
    403,
    JSON_TYPE,
    { error: { message: 'model m-1 is not allowed for this key', type: 'permission_error', param: null, code: null } },
  ],
  ['permission', 'claude', 403, JSON_TYPE, { type: 'error', error: { type: 'permission_error', message: 'model m-1 is not allowed for this key' } }],
  ['permission', 'gemini', 403, JSON_TYPE, { error: { code: 403, message: 'model m-1 is not allowed for this key', status: 'PERMISSION_DENIED' } }],
  [
    'rate',
    'openai-chat',
    429,
    { ...JSON_TYPE, 'retry-after': '12', 'retry-after-ms': '12000' },
    { error: { message: 'rpm limit of 2 reached', type: 'rate_limit_error', param: null, code: null } },
  ],
  [
    'rate',
    'openai-responses',
    429,
    { ...JSON_TYPE, 'retry-after': '12' },
    { error: { message: 'rpm limit of 2 reached', type: 'rate_limit_exceeded', param: null, code: 'rate_limit_exceeded' } },
  ],
  ['rate', 'claude', 429, { ...JSON_TYPE, 'retry-after': '12' }, { type: 'error', error: { type: 'rate_limit_error', message: 'rpm limit of 2 reached' } }],
  [
    'rate',
    'gemini',
    429,
    { ...JSON_TYPE, 'retry-after': '12' },
    {
      error: {
        code: 429,
        message: 'rpm limit of 2 reached',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '12s' }],
      },
    },
  ],
  [
    'quota',
    'openai-chat',
    429,
    JSON_TYPE,
    { error: { message: 'budget of $5/day spent', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } },
  ],
  [
    'quota',
    'openai-responses',
    429,
    JSON_TYPE,
    { error: { message: 'budget of $5/day spent', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } },
  ],
  ['quota', 'claude', 402, JSON_TYPE, { type: 'error', error: { type: 'billing_error', message: 'budget of $5/day spent' } }],
  ['quota', 'gemini', 429, JSON_TYPE, { error: { code: 429, message: 'budget of $5/day spent', status: 'RESOURCE_EXHAUSTED' } }],
  ['auth', 'openai-chat', 401, JSON_TYPE, { error: { message: 'the key expired', type: 'authentication_error', param: null, code: null } }],
  ['auth', 'claude', 401, JSON_TYPE, { type: 'error', error: { type: 'authentication_error', message: 'the key expired' } }],
  ['auth', 'gemini', 401, JSON_TYPE, { error: { code: 401, message: 'the key expired', status: 'UNAUTHENTICATED' } }],
];

describe('the admit hook', () => {
  for (const [denial, protocol, status, headers, body] of expected) {
    for (const upstream of [protocol, protocol === 'claude' ? 'openai-chat' : 'claude'] as Served[]) {
      it(`answers a ${denial} denial to a ${protocol} client (${upstream} upstream) with ${status}, calling no upstream`, async () => {
        const result = await call(protocol, denials[denial], upstream);
        expect(result.status).toBe(status);
        expect(result.headers).toEqual(headers);
        expect(result.body).toEqual(body);
        expect(result.upstreamCalls).toBe(0);
        expect(result.records.map((record) => [record.status, record.errorKind, record.clientModel])).toEqual([[status, denials[denial]!.kind, 'm-1']]);
      });
    }
  }

  it('tells the hook the model, stream flag, output cap, upstream models and body size, then calls the upstream', async () => {
    for (const protocol of Object.keys(PATHS) as Served[]) {
      const result = await call(protocol, undefined);
      expect(result.upstreamCalls).toBe(1);
      expect(result.records).toHaveLength(1);
      expect(result.seen).toEqual([
        {
          requestId: result.records[0]!.requestId,
          clientModel: 'm-1',
          clientProtocol: protocol,
          stream: false,
          maxOutputTokens: 100,
          upstreamModels: ['up-1'],
          bodyChars: JSON.stringify(BODIES[protocol]).length,
        },
      ]);
    }
  });
});
