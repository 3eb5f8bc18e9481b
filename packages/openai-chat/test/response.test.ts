// Golden tests for responses and errors: exact canonical values, the identity back, and the
// encode direction from hand-built canonical responses.
import type { LlmResponse, LlmWarning } from '@llm/core';
import { LlmError } from '@llm/core';
import { describe, expect, it, vi } from 'vitest';
import { openaiChat } from '../src/index.js';

const P = 'openai-chat';

function golden(body: Record<string, unknown>, expected: LlmResponse): void {
  const decoded = openaiChat.response.decode(body);
  expect(decoded).toEqual(expected);
  expect(openaiChat.response.encode(decoded)).toEqual(body);
}

const head = { id: 'chatcmpl-1', object: 'chat.completion', created: 1_700_000_000, model: 'gpt-4o-2024-08-06' };
const canonicalHead = { id: 'chatcmpl-1', model: 'gpt-4o-2024-08-06', created: 1_700_000_000 };
const message = (fields: Record<string, unknown>): Record<string, unknown> => ({ role: 'assistant', content: null, refusal: null, ...fields });

describe('response decode', () => {
  it('n > 1 choices, system_fingerprint, service_tier, usage with every detail', () => {
    golden(
      {
        ...head,
        choices: [
          { index: 0, message: message({ content: 'Hello', annotations: [] }), logprobs: null, finish_reason: 'stop' },
          { index: 1, message: message({ content: 'Hi there', annotations: [] }), logprobs: null, finish_reason: 'length' },
        ],
        usage: {
          prompt_tokens: 100,
          completion_tokens: 50,
          total_tokens: 150,
          prompt_tokens_details: { cached_tokens: 64, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 20, audio_tokens: 0, accepted_prediction_tokens: 3, rejected_prediction_tokens: 1 },
        },
        service_tier: 'default',
        system_fingerprint: 'fp_abc',
      },
      {
        ...canonicalHead,
        choices: [
          { index: 0, content: [{ type: 'text', text: 'Hello', citations: [] }], finishReason: 'stop', rawFinishReason: 'stop' },
          { index: 1, content: [{ type: 'text', text: 'Hi there', citations: [] }], finishReason: 'length', rawFinishReason: 'length' },
        ],
        usage: {
          inputTokens: 100,
          outputTokens: 50,
          totalTokens: 150,
          cacheReadTokens: 64,
          audioInputTokens: 0,
          reasoningTokens: 20,
          audioOutputTokens: 0,
          acceptedPredictionTokens: 3,
          rejectedPredictionTokens: 1,
        },
        serviceTier: 'default',
        extensions: { [P]: { system_fingerprint: 'fp_abc' } },
      },
    );
  });

  it('tool_calls (function and custom), refusal, reasoning_content', () => {
    golden(
      {
        ...head,
        choices: [
          {
            index: 0,
            message: message({
              reasoning_content: 'Need the weather.',
              tool_calls: [
                { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
                { id: 'call_2', type: 'custom', custom: { name: 'shell', input: 'ls' } },
              ],
            }),
            logprobs: null,
            finish_reason: 'tool_calls',
          },
          { index: 1, message: message({ refusal: 'I cannot.' }), logprobs: null, finish_reason: 'stop' },
        ],
      },
      {
        ...canonicalHead,
        choices: [
          {
            index: 0,
            content: [
              { type: 'reasoning', text: 'Need the weather.', origin: { protocol: P } },
              { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
              { type: 'tool-call', id: 'call_2', name: 'shell', arguments: 'ls', freeform: true },
            ],
            finishReason: 'tool_calls',
            rawFinishReason: 'tool_calls',
          },
          { index: 1, content: [{ type: 'refusal', text: 'I cannot.' }], finishReason: 'refusal', rawFinishReason: 'stop' },
        ],
      },
    );
  });

  it('logprobs with top alternatives and bytes', () => {
    golden(
      {
        ...head,
        choices: [
          {
            index: 0,
            message: message({ content: 'Hi' }),
            logprobs: {
              content: [
                {
                  token: 'Hi',
                  logprob: -0.1,
                  bytes: [72, 105],
                  top_logprobs: [
                    { token: 'Hi', logprob: -0.1, bytes: [72, 105] },
                    { token: 'Yo', logprob: -2.5, bytes: null },
                  ],
                },
              ],
              refusal: null,
            },
            finish_reason: 'stop',
          },
        ],
      },
      {
        ...canonicalHead,
        choices: [
          {
            index: 0,
            content: [{ type: 'text', text: 'Hi' }],
            finishReason: 'stop',
            rawFinishReason: 'stop',
            logprobs: [
              {
                token: 'Hi',
                logprob: -0.1,
                bytes: [72, 105],
                top: [
                  { token: 'Hi', logprob: -0.1, bytes: [72, 105] },
                  { token: 'Yo', logprob: -2.5 },
                ],
              },
            ],
          },
        ],
      },
    );
  });

  it('url_citation annotations become citations of the text', () => {
    golden(
      {
        ...head,
        choices: [
          {
            index: 0,
            message: message({
              content: 'See example.',
              annotations: [{ type: 'url_citation', url_citation: { end_index: 12, start_index: 4, title: 'Example', url: 'https://example.com' } }],
            }),
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
      },
      {
        ...canonicalHead,
        choices: [
          {
            index: 0,
            content: [
              { type: 'text', text: 'See example.', citations: [{ kind: 'url', url: 'https://example.com', title: 'Example', startIndex: 4, endIndex: 12 }] },
            ],
            finishReason: 'stop',
            rawFinishReason: 'stop',
          },
        ],
      },
    );
  });

  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool_calls'],
    ['content_filter', 'content_filter'],
    ['function_call', 'tool_calls'],
    ['eos', 'other'],
  ] as const)('finish_reason %s -> %s and back', (raw, reason) => {
    const body = { ...head, choices: [{ index: 0, message: message({ content: 'x' }), logprobs: null, finish_reason: raw }] };
    const decoded = openaiChat.response.decode(body);
    expect(decoded.choices[0]!.finishReason).toBe(reason);
    expect(decoded.choices[0]!.rawFinishReason).toBe(raw);
    // Values outside the chat enum (a compatible server's `eos`) are written as their canonical meaning.
    expect(openaiChat.response.encode(decoded)).toEqual(raw === 'eos' ? { ...body, choices: [{ ...body.choices[0], finish_reason: 'stop' }] } : body);
  });
});

describe('response encode from hand-built canonical values', () => {
  it('writes the shape the API returns and maps foreign finish reasons', () => {
    const warnings: LlmWarning[] = [];
    // A Claude answer has no timestamp: the API's `created` is the time of the answer.
    vi.spyOn(Date, 'now').mockReturnValueOnce(1_800_000_000_500);
    const body = openaiChat.response.encode(
      {
        id: 'msg_1',
        model: 'claude-sonnet-4-5',
        choices: [
          {
            index: 0,
            content: [
              { type: 'reasoning', text: '', redacted: true, signature: 'x', origin: { protocol: 'claude' } },
              { type: 'reasoning', text: 'Thinking', signature: 'sig', origin: { protocol: 'claude' } },
              { type: 'text', text: 'Done' },
              { type: 'tool-call', id: 'toolu_1', name: 'f', arguments: { a: 1 } },
              { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AA' } },
            ],
            finishReason: 'context_exceeded',
            rawFinishReason: 'model_context_window_exceeded',
          },
        ],
        usage: { inputTokens: 10, outputTokens: 5, cacheWriteTokens: 2 },
      },
      { warn: (warning) => warnings.push(warning) },
    );
    expect(body).toEqual({
      id: 'msg_1',
      object: 'chat.completion',
      created: 1_800_000_000,
      model: 'claude-sonnet-4-5',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            reasoning_content: 'Thinking',
            content: 'Done',
            refusal: null,
            tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
          },
          finish_reason: 'length',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cache_write_tokens: 2 } },
    });
    expect(warnings.map((warning) => [warning.code, warning.path])).toEqual([
      ['foreign-state', 'choices[0].content[0]'],
      // The thinking's text is kept, its signature is not: reported.
      ['foreign-state', 'choices[0].content[1]'],
      ['dropped-part', 'choices[0].content[4]'],
    ]);
  });
});

describe('errors', () => {
  const headers = (values: Record<string, string>) => new Headers(values);

  it.each([
    [400, 'invalid_request_error', 'context_length_exceeded', 'context_length'],
    [400, 'invalid_request_error', null, 'invalid_request'],
    [401, 'invalid_request_error', 'invalid_api_key', 'authentication'],
    [403, 'permission_error', null, 'permission'],
    [404, 'invalid_request_error', 'model_not_found', 'not_found'],
    [429, 'insufficient_quota', 'insufficient_quota', 'quota'],
    [429, 'requests', 'rate_limit_exceeded', 'rate_limit'],
    [500, 'server_error', null, 'server'],
    [503, 'server_error', 'server_is_overloaded', 'overloaded'],
  ] as const)('%i %s %s -> %s', (status, type, code, kind) => {
    const error = openaiChat.error.decode(status, { error: { message: 'boom', type, param: null, code } }, headers({ 'x-request-id': 'req_1' }));
    expect(error).toBeInstanceOf(LlmError);
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.message).toBe('boom');
    expect(error.requestId).toBe('req_1');
  });

  it('reads retry-after-ms before retry-after, and param as the path', () => {
    const error = openaiChat.error.decode(
      429,
      { error: { message: 'slow down', type: 'requests', param: 'messages', code: 'rate_limit_exceeded' } },
      headers({ 'retry-after-ms': '1500', 'retry-after': '9' }),
    );
    expect(error.retryAfterMs).toBe(1500);
    expect(error.path).toBe('messages');
    expect(error.code).toBe('rate_limit_exceeded');
  });

  // Issue 17 follow-up: only the `{error:{message}}` shape is the provider's word to the client.
  // Plain text, `{error: "..."}` (a Go proxy's `dial tcp 10.0.0.5:9099: connection refused`) and
  // empty bodies were the message before; now the client gets a stable one and the log the text.
  it('plain-text and odd bodies answer a stable message by status; their text is the cause, for logs', () => {
    const text = openaiChat.error.decode(502, 'Bad Gateway');
    expect([text.kind, text.message, (text.cause as Error).message]).toEqual(['upstream', 'upstream answered HTTP 502', 'Bad Gateway']);
    const flat = openaiChat.error.decode(500, { error: 'dial tcp 10.0.0.5:9099: connection refused' });
    expect([flat.kind, flat.message, (flat.cause as Error).message]).toEqual([
      'server',
      'upstream answered HTTP 500',
      '{"error":"dial tcp 10.0.0.5:9099: connection refused"}',
    ]);
    const empty = openaiChat.error.decode(500, null);
    expect([empty.message, empty.cause]).toEqual(['upstream answered HTTP 500', undefined]);
  });

  it('encodes {error:{message,type,param,code}} with the status and retry headers', () => {
    expect(openaiChat.error.encode(new LlmError({ kind: 'rate_limit', message: 'slow', status: 429, retryAfterMs: 2000 }))).toEqual({
      status: 429,
      body: { error: { message: 'slow', type: 'rate_limit_error', param: null, code: null } },
      headers: { 'retry-after': '2', 'retry-after-ms': '2000' },
    });
    expect(openaiChat.error.encode(new LlmError({ kind: 'invalid_request', message: 'bad', status: 400, path: 'messages[0].role' }))).toEqual({
      status: 400,
      body: { error: { message: 'bad', type: 'invalid_request_error', param: 'messages[0].role', code: null } },
    });
    expect(openaiChat.error.encode(new LlmError({ kind: 'context_length', message: 'too long', status: 400 })).body.error.code).toBe('context_length_exceeded');
  });

  it('decode(encode(error)) keeps kind, status and message', () => {
    for (const kind of ['invalid_request', 'authentication', 'permission', 'not_found', 'rate_limit', 'server'] as const) {
      const status = { invalid_request: 400, authentication: 401, permission: 403, not_found: 404, rate_limit: 429, server: 500 }[kind];
      const encoded = openaiChat.error.encode(new LlmError({ kind, message: kind, status }));
      const decoded = openaiChat.error.decode(encoded.status, encoded.body);
      expect([decoded.kind, decoded.status, decoded.message]).toEqual([kind, status, kind]);
    }
  });
});
