import { LlmError, type LlmRequest, type LlmResponse, type LlmWarning } from '@llm/core';
import fc from 'fast-check';
import { propertyRuns } from '@llm/test-utils/property-runs';
import { describe, expect, it } from 'vitest';
import { claude, DEFAULT_MAX_TOKENS } from '../src/index.js';

const weatherTool = {
  name: 'get_weather',
  description: 'Weather',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('requests', () => {
  it('decodes system, a thinking tool loop, tool results and settings into the canonical request', () => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Need tool.', signature: 'sig1' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C', is_error: false },
            { type: 'text', text: 'And tomorrow?' },
          ],
        },
      ],
      tools: [weatherTool],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      thinking: { type: 'enabled', budget_tokens: 2000 },
      stop_sequences: ['END'],
      metadata: { user_id: 'u1' },
      stream: true,
    };
    const request = claude.request.decode(body);
    expect(request).toEqual({
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }], stringContent: true },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Need tool.', signature: 'sig1', origin: { protocol: 'claude' } },
            { type: 'tool-call', id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_1', content: '18°C', isError: false }] },
        { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
      ],
      maxOutputTokens: 1024,
      stop: ['END'],
      stream: true,
      reasoning: { enabled: true, budgetTokens: 2000 },
      tools: [{ type: 'function', name: 'get_weather', description: 'Weather', parameters: weatherTool.input_schema }],
      toolChoice: { type: 'auto' },
      parallelToolCalls: false,
      user: 'u1',
      // The budget as this Claude client sent it: written back as is (here above max_tokens, as
      // interleaved thinking allows), where one from another protocol is fitted to Claude's bounds.
      extensions: { claude: { $budget: 2000 } },
    } satisfies LlmRequest);
    expect(claude.request.encode(request)).toEqual(body);
  });

  it('encodes a foreign conversation: default max_tokens, top-level system, merged tool results, foreign reasoning dropped, each loss reported', () => {
    const warnings: LlmWarning[] = [];
    const body = claude.request.encode(
      {
        model: 'claude-x',
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'S' }] },
          { role: 'user', content: [{ type: 'text', text: 'hi' }] },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'r', signature: 'enc', origin: { protocol: 'openai-responses' } },
              { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{"a":1}' },
              { type: 'tool-call', id: 'call_2', name: 'f', arguments: '{"a":2}' },
            ],
          },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', content: 'ok' }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_2', content: 'ok2', isError: true }] },
        ],
        sampling: { temperature: 0.5, seed: 3 },
      },
      { warn: (warning) => warnings.push(warning) },
    );
    expect(body).toEqual({
      model: 'claude-x',
      max_tokens: DEFAULT_MAX_TOKENS,
      system: 'S',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'call_1', name: 'f', input: { a: 1 } },
            { type: 'tool_use', id: 'call_2', name: 'f', input: { a: 2 } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: 'ok' },
            { type: 'tool_result', tool_use_id: 'call_2', content: 'ok2', is_error: true },
          ],
        },
      ],
      temperature: 0.5,
    });
    expect(warnings.map(({ code, path }) => [code, path])).toEqual([
      ['defaulted', 'max_tokens'],
      ['foreign-state', 'messages[2].content[0]'],
      ['dropped-field', 'sampling.seed'],
    ]);
  });

  it('the default max_tokens leaves room above a thinking budget (Anthropic requires max_tokens > budget_tokens)', () => {
    const encoded = (budgetTokens: number) => {
      const warnings: string[] = [];
      const body = claude.request.encode(
        { model: 'claude-x', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], reasoning: { budgetTokens } },
        { warn: (warning) => warnings.push(`${warning.code}@${warning.path}: ${warning.message}`) },
      ) as { max_tokens: number; thinking: unknown };
      return { maxTokens: body.max_tokens, thinking: body.thinking, warnings };
    };
    expect(encoded(2000)).toEqual({
      maxTokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      warnings: ['defaulted@max_tokens: Claude requires max_tokens; 4096 was used'],
    });
    expect(encoded(4096)).toEqual({
      maxTokens: 8192,
      thinking: { type: 'enabled', budget_tokens: 4096 },
      warnings: ['defaulted@max_tokens: Claude requires max_tokens; 8192 was used'],
    });
    expect(encoded(8000)).toEqual({
      maxTokens: 12096,
      thinking: { type: 'enabled', budget_tokens: 8000 },
      warnings: ['defaulted@max_tokens: Claude requires max_tokens; 12096 was used'],
    });
  });

  it('strict mode turns a loss into an unsupported error', () => {
    expect(() =>
      claude.request.encode(
        { model: 'm', maxOutputTokens: 5, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], sampling: { seed: 1 } },
        { strict: true },
      ),
    ).toThrow(expect.objectContaining({ kind: 'unsupported' }));
  });

  it.each([
    [{ messages: [] }, 'model'],
    [{ model: 'm', messages: 'hi' }, 'messages'],
    [{ model: 'm', messages: [{ role: 'user', content: [{ type: 'image', source: 7 }] }] }, 'messages[0].content[0].source'],
    [{ model: 'm', messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', is_error: 'yes' }] }] }, 'messages[0].content[0].is_error'],
    [{ model: 'm', messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'f', input: '{}' }] }] }, 'messages[0].content[0].input'],
    [{ model: 'm', max_tokens: 'many', messages: [] }, 'max_tokens'],
  ])('bad input %j is an invalid_request naming %s', (body, path) => {
    let error: unknown;
    try {
      claude.request.decode(body);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, path, protocol: 'claude' });
  });
});

describe('responses', () => {
  it('usage from another protocol is rewritten so input_tokens excludes the cached part', () => {
    const response: LlmResponse = {
      id: 'resp_1',
      model: 'gpt-5',
      choices: [{ index: 0, content: [{ type: 'text', text: 'hi' }], finishReason: 'length', rawFinishReason: 'max_output_tokens' }],
      usage: { inputTokens: 1000, outputTokens: 50, cacheReadTokens: 800, reasoningTokens: 20, totalTokens: 1050 },
    };
    expect(claude.response.encode(response)).toEqual({
      id: 'resp_1',
      type: 'message',
      role: 'assistant',
      model: 'gpt-5',
      content: [{ type: 'text', text: 'hi' }],
      stop_reason: 'max_tokens',
      stop_sequence: null,
      usage: {
        input_tokens: 200,
        output_tokens: 50,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 800,
        output_tokens_details: { thinking_tokens: 20 },
      },
    });
  });

  it('Claude usage decodes without double counting: input is uncached + cache writes + cache reads', () => {
    const decoded = claude.response.decode({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [],
      stop_reason: 'pause_turn',
      stop_sequence: null,
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 300,
        cache_read_input_tokens: 700,
        cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 },
        output_tokens: 90,
        server_tool_use: { web_search_requests: 2 },
      },
    });
    const { raw: _raw, ...usage } = decoded.usage!;
    expect(usage).toEqual({
      inputTokens: 1010,
      outputTokens: 90,
      totalTokens: 1100,
      cacheReadTokens: 700,
      cacheWriteTokens: 300,
      cacheWriteByTtl: { '5m': 100, '1h': 200 },
      serverToolRequests: { web_search: 2 },
    });
    expect(decoded.choices[0]).toMatchObject({ finishReason: 'pause', rawFinishReason: 'pause_turn' });
  });

  it.each([
    ['end_turn', 'stop'],
    ['max_tokens', 'length'],
    ['stop_sequence', 'stop'],
    ['tool_use', 'tool_calls'],
    ['pause_turn', 'pause'],
    ['refusal', 'refusal'],
    ['model_context_window_exceeded', 'context_exceeded'],
    ['compaction', 'other'],
  ])('stop_reason %s is %s and comes back unchanged', (wire, canonical) => {
    const body = {
      id: 'm',
      type: 'message',
      role: 'assistant',
      model: 'c',
      content: [],
      stop_reason: wire,
      stop_sequence: wire === 'stop_sequence' ? '##' : null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    const decoded = claude.response.decode(body);
    expect(decoded.choices[0]!.finishReason).toBe(canonical);
    expect(claude.response.encode(decoded)).toEqual(body);
  });
});

describe('errors', () => {
  const headers = (values: Record<string, string>) => new Headers(values);

  it.each([
    [400, 'invalid_request_error', 'bad', 'invalid_request'],
    [400, 'invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum', 'context_length'],
    [401, 'authentication_error', 'invalid x-api-key', 'authentication'],
    [402, 'billing_error', 'credit', 'quota'],
    [403, 'permission_error', 'no', 'permission'],
    [404, 'not_found_error', 'model', 'not_found'],
    [413, 'request_too_large', 'big', 'request_too_large'],
    [429, 'rate_limit_error', 'slow down', 'rate_limit'],
    [500, 'api_error', 'oops', 'server'],
    [504, 'timeout_error', 'late', 'timeout'],
    [529, 'overloaded_error', 'Overloaded', 'overloaded'],
  ])('%i %s decodes to %s and encodes back to the same status and body', (status, type, message, kind) => {
    const body = { type: 'error', error: { type, message }, request_id: 'req_1' };
    const error = claude.error.decode(status, body, headers({ 'request-id': 'req_1', 'retry-after': '7' }));
    expect(error).toMatchObject({ kind, status, message, requestId: 'req_1', retryAfterMs: 7000, protocol: 'claude' });
    expect(claude.error.encode(error)).toEqual({ status, body, headers: { 'retry-after': '7', 'request-id': 'req_1' } });
  });

  it('errors of other protocols take the status Claude uses for their kind (overload is 529)', () => {
    const overloaded = new LlmError({ kind: 'overloaded', message: 'busy', protocol: 'openai-chat', status: 503 });
    expect(claude.error.encode(overloaded)).toEqual({ status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'busy' } } });
  });

  it('a spend cap is a quota error, not a retryable rate limit', () => {
    const error = claude.error.decode(429, {
      type: 'error',
      error: { type: 'rate_limit_error', message: 'cap', details: { error_code: 'enforced_spend_limit_reached' } },
    });
    expect([error.kind, error.retryable]).toEqual(['quota', false]);
  });

  // Issue 17 follow-up: a body that is not Claude's error shape is not the provider's word to the
  // client (it was the message before); its text goes to the log through `cause`.
  it('a non-JSON edge error answers a stable message by its status; its text is the cause, for logs', () => {
    const error = claude.error.decode(413, 'Request Entity Too Large');
    expect(error).toMatchObject({ kind: 'request_too_large', message: 'upstream answered HTTP 413' });
    expect((error.cause as Error).message).toBe('Request Entity Too Large');
    expect(claude.error.encode(error).body).toEqual({ type: 'error', error: { type: 'request_too_large', message: 'upstream answered HTTP 413' } });
  });
});

describe('http binding', () => {
  it('matches the Messages routes with or without a prefix', () => {
    expect(claude.http.matchRequest('POST', new URL('http://h/v1/messages'))).toEqual({ operation: 'generate' });
    expect(claude.http.matchRequest('POST', new URL('http://h/anthropic/v1/messages/count_tokens'))).toEqual({ operation: 'count-tokens' });
    expect(claude.http.matchRequest('GET', new URL('http://h/v1/messages'))).toBeUndefined();
  });

  it('builds the upstream request with x-api-key, a default anthropic-version and forwarded beta headers', () => {
    expect(
      claude.http.buildRequest({
        baseUrl: 'https://api.anthropic.com',
        model: 'm',
        stream: true,
        apiKey: 'sk',
        headers: { 'anthropic-beta': 'a,b', 'anthropic-version': '2026-10-21' },
      }),
    ).toEqual({
      url: 'https://api.anthropic.com/v1/messages',
      headers: {
        'content-type': 'application/json',
        'anthropic-version': '2026-10-21',
        accept: 'text/event-stream',
        'x-api-key': 'sk',
        'anthropic-beta': 'a,b',
      },
    });
  });

  it('reads x-api-key and Bearer credentials', () => {
    const url = new URL('http://h/v1/messages');
    expect(claude.http.readCredential(new Headers({ 'x-api-key': 'a' }), url)).toBe('a');
    expect(claude.http.readCredential(new Headers({ authorization: 'Bearer b' }), url)).toBe('b');
  });
});

describe('properties', () => {
  const text = fc.string({ maxLength: 20 });
  const part = fc.oneof(
    text.map((value) => ({ type: 'text' as const, text: value })),
    fc
      .record({
        id: fc.stringMatching(/^toolu_[a-z0-9]{1,8}$/),
        name: fc.stringMatching(/^[a-z_]{1,10}$/),
        arguments: fc.dictionary(fc.stringMatching(/^[a-z]{1,5}$/), fc.oneof(fc.integer(), text, fc.boolean())),
      })
      .map((call) => ({ type: 'tool-call' as const, ...call })),
    fc
      .record({
        id: fc.stringMatching(/^mcptoolu_[a-z0-9]{1,8}$/),
        server: fc.stringMatching(/^[a-z_]{1,10}$/),
        name: fc.stringMatching(/^[a-z_]{1,10}$/),
        arguments: fc.dictionary(fc.stringMatching(/^[a-z]{1,5}$/), fc.oneof(fc.integer(), text, fc.boolean())),
      })
      .map((call) => ({ type: 'mcp-call' as const, ...call })),
    fc
      .record({
        callId: fc.stringMatching(/^mcptoolu_[a-z0-9]{1,8}$/),
        content: fc.oneof(
          text,
          fc.array(
            text.map((value) => ({ type: 'text' as const, text: value })),
            { maxLength: 2 },
          ),
        ),
        isError: fc.boolean(),
      })
      .map((result) => ({ type: 'mcp-result' as const, ...result })),
  );

  it('canonical assistant turns (MCP calls and results included) survive encode -> decode to Claude', () => {
    fc.assert(
      fc.property(text, fc.array(part, { minLength: 1, maxLength: 4 }), (question, parts) => {
        const request: LlmRequest = {
          model: 'claude-x',
          maxOutputTokens: 100,
          messages: [
            { role: 'user', content: [{ type: 'text', text: question }] },
            { role: 'assistant', content: parts },
          ],
        };
        expect(claude.request.decode(claude.request.encode(request))).toEqual(request);
      }),
      propertyRuns(200),
    );
  });
});
