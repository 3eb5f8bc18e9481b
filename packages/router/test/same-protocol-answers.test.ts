// A same-protocol JSON answer passes through undecoded (issue 17): still, a 2xx body that is not
// the protocol's answer must reach the client as the 502 `upstream` error a translated answer
// gets, in the client's protocol, never as a 200 its SDK cannot read.
import { bedrockConverse } from '@llm/bedrock-converse';
import { claude } from '@llm/claude';
import type { Codec, ProtocolId } from '@llm/core';
import { gemini } from '@llm/gemini';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../src/config.js';
import { createHandler } from '../src/handler.js';
import { answer } from './upstream-answer.js';

interface Case {
  codec: Codec;
  path: string;
  baseUrl: string;
  request: Record<string, unknown>;
  /** A valid answer carrying fields no codec knows. */
  valid: Record<string, unknown>;
}

const cases: Record<ProtocolId, Case> = {
  'openai-chat': {
    codec: openaiChat,
    path: '/v1/chat/completions',
    baseUrl: 'http://upstream.test/v1',
    request: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
    valid: {
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hello', future_field: 1 }, finish_reason: 'stop' }],
      brand_new: { x: [1] },
    },
  },
  'openai-responses': {
    codec: openaiResponses,
    path: '/v1/responses',
    baseUrl: 'http://upstream.test/v1',
    request: { model: 'm', input: 'hi' },
    valid: {
      id: 'resp_1',
      object: 'response',
      created_at: 1,
      status: 'completed',
      model: 'm',
      output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'hello', annotations: [] }] }],
      brand_new: { x: [1] },
    },
  },
  claude: {
    codec: claude,
    path: '/v1/messages',
    baseUrl: 'http://upstream.test',
    request: { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
    valid: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'text', text: 'hello' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
      brand_new: { x: [1] },
    },
  },
  gemini: {
    codec: gemini,
    path: '/v1beta/models/m:generateContent',
    baseUrl: 'http://upstream.test',
    request: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    valid: {
      candidates: [{ content: { role: 'model', parts: [{ text: 'hello' }] }, finishReason: 'STOP', index: 0 }],
      modelVersion: 'm',
      responseId: 'r1',
      brand_new: { x: [1] },
    },
  },
  'bedrock-converse': {
    codec: bedrockConverse,
    path: '/model/m/converse',
    baseUrl: 'http://upstream.test',
    request: { messages: [{ role: 'user', content: [{ text: 'hi' }] }] },
    valid: {
      output: { message: { role: 'assistant', content: [{ text: 'hello' }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      metrics: { latencyMs: 1 },
      brand_new: { x: [1] },
    },
  },
};

function router(protocol: ProtocolId, body: string) {
  const { codec, baseUrl } = cases[protocol];
  const records: RequestRecord[] = [];
  const handler = createHandler({
    codecs: { [protocol]: codec },
    upstreams: { main: { protocol, baseUrl } },
    routes: [{ match: '*', upstream: 'main' }],
    transport: async () => answer(200, 'application/json', [body]),
    hooks: { onRequestEnd: (record) => records.push(record) },
  });
  return { handler, records };
}

async function ask(protocol: ProtocolId, upstreamBody: string) {
  const { handler, records } = router(protocol, upstreamBody);
  const { path, request } = cases[protocol];
  const response = await handler(
    new Request(`http://router.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) }),
  );
  return { response, records, requestId: response.headers.get('x-request-id') };
}

/** The client's 502 body in each protocol, for an answer refused at `param` (`$`: the whole body). */
const upstreamErrorBody: Record<ProtocolId, (message: string, param: string) => unknown> = {
  'openai-chat': (message, param) => ({ error: { message, type: 'server_error', param, code: null } }),
  'openai-responses': (message, param) => ({ error: { message, type: 'server_error', param, code: null } }),
  claude: (message) => ({ type: 'error', error: { type: 'api_error', message } }),
  gemini: (message) => ({ error: { code: 502, message, status: 'UNAVAILABLE' } }),
  'bedrock-converse': (message) => ({ message }),
};

const NAMES: Record<ProtocolId, string> = {
  'openai-chat': 'Chat Completions',
  'openai-responses': 'Responses',
  claude: 'Claude',
  gemini: 'Gemini',
  'bedrock-converse': 'Bedrock Converse',
};
/** `{"unexpected":true}`: where each protocol refuses it, and what its decoder's reader says there. */
const UNEXPECTED: Record<ProtocolId, { path: string; detail: string }> = {
  'openai-chat': { path: 'choices', detail: 'expected an array, got nothing' },
  'openai-responses': { path: 'id', detail: 'expected a string, got nothing' },
  claude: { path: 'content', detail: 'expected an array, got nothing' },
  gemini: { path: 'candidates', detail: 'expected at least one candidate, or promptFeedback.blockReason, got nothing' },
  'bedrock-converse': { path: 'output', detail: 'expected an object, got nothing' },
};

describe('a same-protocol 200 JSON body that is not the protocol answer is a 502 upstream error, not passed through', () => {
  for (const protocol of Object.keys(cases) as ProtocolId[]) {
    const refused: [body: string, path: string, detail: string][] = [
      ['{"unexpected":true}', UNEXPECTED[protocol].path, UNEXPECTED[protocol].detail],
      ['null', '$', 'expected an object, got null'],
      ['[]', '$', 'expected an object, got an array'],
    ];
    for (const [body, path, detail] of refused) {
      it(`${protocol}: ${body}`, async () => {
        const { response, records, requestId } = await ask(protocol, body);
        const at = path === '$' ? '' : ` at ${path}`;
        expect(response.status).toBe(502);
        expect(response.headers.get('content-type')).toBe('application/json');
        expect(await response.json()).toEqual(upstreamErrorBody[protocol](`invalid ${NAMES[protocol]} answer${at} (request id ${requestId})`, path));
        // The upstream is named in the record (the log), never in the answer.
        expect(records).toHaveLength(1);
        expect(records[0]).toMatchObject({ status: 502, errorKind: 'upstream', upstream: 'main', upstreamProtocol: protocol });
        expect(records[0]?.errorDetail).toBe(
          `LlmError(upstream 502 at ${path}): invalid ${NAMES[protocol]} answer${at} <- cause: LlmError(invalid_request 400 at ${path}): ${path}: ${detail}`,
        );
      });
    }
  }

  it('claude: a body the decoder reads but without type "message" is refused at type', async () => {
    const { type: _type, ...untyped } = cases.claude.valid;
    const { response, records, requestId } = await ask('claude', JSON.stringify(untyped));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ type: 'error', error: { type: 'api_error', message: `invalid Claude answer at type (request id ${requestId})` } });
    expect(records[0]?.errorDetail).toBe(
      'LlmError(upstream 502 at type): invalid Claude answer at type <- cause: UnrecognizedAnswer: not a Claude answer: type is missing or not of the type every answer has there',
    );
  });

  it('gemini: an empty candidates list with no blockReason is refused; a blocked prompt without candidates passes', async () => {
    const empty = await ask('gemini', '{"candidates":[],"modelVersion":"m"}');
    expect(empty.response.status).toBe(502);
    expect(await empty.response.json()).toEqual(upstreamErrorBody.gemini(`invalid Gemini answer at candidates (request id ${empty.requestId})`, 'candidates'));
    const blocked = JSON.stringify({ promptFeedback: { blockReason: 'SAFETY' }, modelVersion: 'm', responseId: 'r1' });
    const passed = await ask('gemini', blocked);
    expect(passed.response.status).toBe(200);
    expect(await passed.response.text()).toBe(blocked);
  });
});

describe('a same-protocol answer with fields no codec knows', () => {
  for (const protocol of Object.keys(cases) as ProtocolId[]) {
    it(`${protocol}: passes through byte-identical`, async () => {
      const text = JSON.stringify(cases[protocol].valid);
      const { response, records } = await ask(protocol, text);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(text);
      expect(records[0]).toMatchObject({ status: 200 });
      expect(records[0]?.errorKind).toBeUndefined();
    });
  }
});
