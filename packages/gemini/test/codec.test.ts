import { LlmError, sameBase64, type LlmRequest, type LlmWarning } from '@llm/core';
import { readChunkPayloads } from '@llm/test-utils';
import fc from 'fast-check';
import { propertyRuns } from '@llm/test-utils/property-runs';
import { describe, expect, it } from 'vitest';
import { gemini, SKIP_SIGNATURE } from '../src/index.js';

describe('requests', () => {
  it('drops each canonical field Gemini cannot express with a warning, and nothing else', () => {
    const warnings: LlmWarning[] = [];
    const request: LlmRequest = {
      model: 'gemini-2.5-flash',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      parallelToolCalls: false,
      maxToolCalls: 3,
      verbosity: 'low',
      user: 'u-1',
      metadata: { team: 'a' },
      promptCacheKey: 'k',
      previousResponseId: 'resp_1',
      cache: { ttl: '5m' },
    };
    const body = gemini.request.encode(request, { warn: (warning) => warnings.push(warning) });
    expect(body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(warnings.map(({ code, path, protocol }) => [code, path, protocol])).toEqual(
      ['parallelToolCalls', 'maxToolCalls', 'verbosity', 'user', 'metadata', 'promptCacheKey', 'previousResponseId', 'cache'].map((path) => [
        'dropped-field',
        path,
        'gemini',
      ]),
    );
    const quiet: LlmWarning[] = [];
    gemini.request.encode({ model: 'm', messages: [], parallelToolCalls: true }, { warn: (warning) => quiet.push(warning) });
    expect(quiet).toEqual([]);
  });

  it('gives calls without ids stable ids and pairs their results by name, then order', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris and Rome, and the time?' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnLTE=' },
            { functionCall: { name: 'weather', args: { city: 'Rome' } } },
            { functionCall: { name: 'time', args: {} } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'time', response: { output: '10:00' } } },
            { functionResponse: { name: 'weather', response: { output: 'sunny' } } },
            { functionResponse: { name: 'weather', response: { error: 'no data' } } },
          ],
        },
      ],
    };
    const request = gemini.request.decode(body, { model: 'gemini-3-pro', stream: true });
    expect(request.stream).toBe(true);
    const calls = request.messages[1]!.content.map((part) => (part.type === 'tool-call' ? [part.id, part.name, part.signature] : part.type));
    expect(calls).toEqual([
      ['call_0', 'weather', 'c2lnLTE='],
      ['call_1', 'weather', undefined],
      ['call_2', 'time', undefined],
    ]);
    const results = request.messages
      .slice(2)
      .map((message) => message.content.map((part) => (part.type === 'tool-result' ? [part.toolCallId, part.content, part.isError ?? false] : part.type)));
    expect(results).toEqual([[['call_2', '10:00', false]], [['call_0', 'sunny', false]], [['call_1', 'no data', true]]]);
    expect(gemini.request.encode(request)).toEqual(body);
  });

  it('encodes a foreign conversation: systemInstruction, one content for all results, skip signature on the first unsigned call, losses reported', () => {
    const warnings: LlmWarning[] = [];
    const request: LlmRequest = {
      model: 'gemini-3-pro',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', content: [{ type: 'text', text: 'List and count' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'thinking', signature: 'sig', origin: { protocol: 'claude' } },
            { type: 'tool-call', id: 'toolu_1', name: 'ls', arguments: '{"path":"/"}' },
            { type: 'tool-call', id: 'toolu_2', name: 'wc', arguments: '{}' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_1', content: 'a b' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_2', content: [{ type: 'json', value: { count: 2 } }] }] },
      ],
      tools: [{ type: 'function', name: 'ls', parameters: { type: 'object', properties: { path: { type: 'string' } } }, strict: true }],
      toolChoice: { type: 'tool', name: 'ls' },
      maxOutputTokens: 100,
      stop: ['END'],
      parallelToolCalls: false,
      reasoning: { enabled: true, effort: 'high' },
      user: 'u-1',
    };
    expect(gemini.request.encode(request, { warn: (warning) => warnings.push(warning) })).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'List and count' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'ls', args: { path: '/' }, id: 'toolu_1' }, thoughtSignature: SKIP_SIGNATURE },
            { functionCall: { name: 'wc', args: {}, id: 'toolu_2' } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'ls', response: { output: 'a b' }, id: 'toolu_1' } },
            { functionResponse: { name: 'wc', response: { count: 2 }, id: 'toolu_2' } },
          ],
        },
      ],
      tools: [{ functionDeclarations: [{ name: 'ls', parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' } } } }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['ls'] } },
      generationConfig: { maxOutputTokens: 100, stopSequences: ['END'], thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' } },
    });
    expect(warnings.map(({ code, path }) => [code, path])).toEqual([
      ['foreign-state', 'messages[2].content[0]'],
      ['dropped-field', 'tools[0].strict'],
      ['dropped-field', 'parallelToolCalls'],
      ['dropped-field', 'user'],
    ]);
  });

  it('Gemini 2.5 takes effort as a thinking budget; the OpenAPI schema dialect is read as JSON Schema and written back as it was', () => {
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'x' }] }],
      tools: [
        { functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { a: { type: 'STRING', nullable: true } } } }], googleSearch: {} },
      ],
    };
    const request = gemini.request.decode(body, { model: 'gemini-2.5-flash' });
    expect(request.tools).toMatchObject([
      { type: 'function', name: 'f', parameters: { type: 'object', properties: { a: { type: ['string', 'null'] } } } },
      { type: 'web_search', name: 'web_search', extensions: { gemini: { $tool: 0 } } },
    ]);
    expect(gemini.request.encode(request)).toEqual(body);
    const budget = gemini.request.encode({ model: 'gemini-2.5-flash', messages: [], reasoning: { enabled: true, effort: 'medium' } });
    expect(budget.generationConfig).toEqual({ thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 } });
  });

  it('thought signatures are kept exactly, base64url included', () => {
    const signature = 'AbC-_x9=';
    const body = { contents: [{ role: 'model', parts: [{ text: 'ok', thoughtSignature: signature }] }] };
    const request = gemini.request.decode(body, { model: 'm' });
    const part = request.messages[0]!.content[0]!;
    expect(part).toEqual({ type: 'text', text: 'ok', signature, origin: { protocol: 'gemini', model: 'm' } });
    expect(sameBase64(signature, 'AbC+/x9=')).toBe(true);
    expect(gemini.request.encode(request)).toEqual(body);
  });

  it.each([
    [{}, 'contents'],
    [{ contents: [{ role: 'system', parts: [] }] }, 'contents[0].role'],
    [{ contents: [{ role: 'user', parts: [{ text: 5 }] }] }, 'contents[0].parts[0].text'],
    [{ contents: [{ role: 'user', parts: [{ inlineData: { data: 'AA==' } }] }] }, 'contents[0].parts[0].inlineData.mimeType'],
    [{ contents: [{ role: 'model', parts: [{ functionCall: { name: 'f', args: '{}' } }] }] }, 'contents[0].parts[0].functionCall.args'],
    [{ contents: [], generationConfig: { temperature: 'hot' } }, 'generationConfig.temperature'],
    [{ contents: [], toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } }, 'toolConfig.functionCallingConfig.mode'],
  ])('bad input %j is an invalid_request naming %s', (body, path) => {
    let error: unknown;
    try {
      gemini.request.decode(body, { model: 'm' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, path, protocol: 'gemini' });
  });
});

describe('responses', () => {
  it('usage counts cached prompt tokens once, adds thoughts and tool-use prompts (live capture)', () => {
    const chunk = JSON.parse(readChunkPayloads('gemini', 'vercel-ai-index/google-usage-raw-live.chunks.txt')[0]!) as { usageMetadata: unknown };
    const response = gemini.response.decode({
      candidates: [{ content: { role: 'model', parts: [{ text: 'x' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: chunk.usageMetadata,
      modelVersion: 'g',
      responseId: 'r',
    });
    const { raw: _raw, ...usage } = response.usage!;
    expect(usage).toEqual({ inputTokens: 77, outputTokens: 160, totalTokens: 237, cacheReadTokens: 4, reasoningTokens: 89, toolUseInputTokens: 65 });
  });

  it('a blocked prompt is one empty choice finished by content_filter, and goes back without candidates', () => {
    const body = {
      promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
      usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 },
      modelVersion: 'g',
      responseId: 'r',
    };
    const response = gemini.response.decode(body);
    expect(response.choices).toEqual([{ index: 0, content: [], finishReason: 'content_filter', rawFinishReason: 'PROHIBITED_CONTENT' }]);
    expect(gemini.response.encode(response)).toEqual(body);
  });

  it.each([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool_calls'],
    ['MAX_TOKENS', false, 'length'],
    ['SAFETY', false, 'content_filter'],
    ['RECITATION', false, 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', false, 'error'],
    ['CONTINUATION', false, 'pause'],
    ['LANGUAGE', false, 'other'],
  ])('finishReason %s (calls: %s) is %s and comes back unchanged', (wire, calls, canonical) => {
    const parts = calls ? [{ functionCall: { name: 'f', args: {} } }] : [{ text: 'x' }];
    const body = { candidates: [{ content: { parts, role: 'model' }, finishReason: wire, index: 0 }], modelVersion: 'g', responseId: 'r' };
    const response = gemini.response.decode(body);
    expect(response.choices[0]!.finishReason).toBe(canonical);
    expect(gemini.response.encode(response)).toEqual(body);
  });

  it('usage from another protocol: candidates exclude reasoning', () => {
    const body = gemini.response.encode({
      id: 'x',
      model: 'gpt',
      choices: [{ index: 0, content: [], finishReason: 'length' }],
      usage: { inputTokens: 100, outputTokens: 40, reasoningTokens: 30, cacheReadTokens: 60 },
    });
    expect(body.usageMetadata).toEqual({
      promptTokenCount: 100,
      candidatesTokenCount: 10,
      totalTokenCount: 140,
      cachedContentTokenCount: 60,
      thoughtsTokenCount: 30,
    });
    expect(body.candidates?.[0]?.finishReason).toBe('MAX_TOKENS');
  });
});

describe('errors', () => {
  it.each([
    [400, 'INVALID_ARGUMENT', 'bad', 'invalid_request'],
    [401, 'UNAUTHENTICATED', 'who', 'authentication'],
    [403, 'PERMISSION_DENIED', 'no', 'permission'],
    [404, 'NOT_FOUND', 'model', 'not_found'],
    [429, 'RESOURCE_EXHAUSTED', 'slow', 'rate_limit'],
    [500, 'INTERNAL', 'oops', 'server'],
    [503, 'UNAVAILABLE', 'The model is overloaded.', 'overloaded'],
    [504, 'DEADLINE_EXCEEDED', 'late', 'timeout'],
  ])('%i %s decodes to %s and encodes back unchanged', (status, code, message, kind) => {
    const body = { error: { code: status, message, status: code } };
    const error = gemini.error.decode(status, body);
    expect(error).toMatchObject({ kind, status, message, protocol: 'gemini' });
    expect(gemini.error.encode(error)).toEqual({ status, body });
  });

  it('an invalid key is a 400 on the wire but an authentication error', () => {
    const error = gemini.error.decode(400, {
      error: {
        code: 400,
        message: 'API key not valid.',
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }],
      },
    });
    expect(error.kind).toBe('authentication');
  });

  it('RetryInfo gives the wait; errors of other protocols get Gemini status codes and RetryInfo back', () => {
    const error = gemini.error.decode(429, {
      error: {
        code: 429,
        message: 'quota',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' }],
      },
    });
    expect(error.retryAfterMs).toBe(34400);
    const foreign = new LlmError({ kind: 'rate_limit', message: 'slow down', protocol: 'claude', retryAfterMs: 2000 });
    expect(gemini.error.encode(foreign)).toEqual({
      status: 429,
      body: {
        error: {
          code: 429,
          message: 'slow down',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' }],
        },
      },
      headers: { 'retry-after': '2' },
    });
  });
});

describe('http binding', () => {
  it('reads the model and stream flag from the URL, with or without a prefix', () => {
    expect(gemini.http.matchRequest('POST', new URL('http://h/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse'))).toEqual({
      operation: 'generate',
      model: 'gemini-2.5-flash',
      stream: true,
    });
    expect(gemini.http.matchRequest('POST', new URL('http://h/gemini/v1beta/models/gemini-2.5-flash:countTokens'))).toEqual({
      operation: 'count-tokens',
      model: 'gemini-2.5-flash',
    });
    expect(gemini.http.matchRequest('GET', new URL('http://h/v1beta/models'))).toEqual({ operation: 'list-models' });
    expect(gemini.http.matchRequest('POST', new URL('http://h/v1/chat/completions'))).toBeUndefined();
  });

  it('builds upstream URLs with the version and the key header', () => {
    expect(
      gemini.http.buildRequest({ baseUrl: 'https://generativelanguage.googleapis.com', model: 'models/gemini-2.5-pro', stream: true, apiKey: 'k' }),
    ).toEqual({
      url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'k' },
    });
    expect(gemini.http.buildRequest({ baseUrl: 'http://localhost:9/v1', model: 'g', stream: false, apiKey: 'k', auth: 'query-key' }).url).toBe(
      'http://localhost:9/v1/models/g:generateContent?key=k',
    );
  });

  it('reads the key from the header or the query', () => {
    expect(gemini.http.readCredential(new Headers({ 'x-goog-api-key': 'a' }), new URL('http://h/x'))).toBe('a');
    expect(gemini.http.readCredential(new Headers(), new URL('http://h/x?key=b'))).toBe('b');
  });
});

describe('properties', () => {
  const text = fc.string({ maxLength: 20 });
  const part = fc.oneof(
    text.map((value) => ({ type: 'text' as const, text: value })),
    fc
      .record({
        id: fc.stringMatching(/^call_[a-z0-9]{1,8}$/),
        name: fc.stringMatching(/^[a-z_]{1,10}$/),
        arguments: fc.dictionary(fc.stringMatching(/^[a-z]{1,5}$/), fc.oneof(fc.integer(), text, fc.boolean())),
      })
      .map((call) => ({ type: 'tool-call' as const, ...call })),
  );

  it('canonical turns from another protocol survive encode -> decode to Gemini (ids carried, skip signature aside)', () => {
    fc.assert(
      fc.property(text, fc.array(part, { minLength: 1, maxLength: 4 }), (question, parts) => {
        const request: LlmRequest = {
          model: 'gemini-2.5-flash',
          messages: [
            { role: 'user', content: [{ type: 'text', text: question }] },
            { role: 'assistant', content: parts },
          ],
        };
        const decoded = gemini.request.decode(gemini.request.encode(request), { model: 'gemini-2.5-flash' });
        const assistant = decoded.messages[1]!.content.map((item) => {
          if (item.type !== 'tool-call') return item;
          // The first call carries the skip signature; later ones are marked unsigned (bookkeeping).
          const { signature: _skip, origin: _origin, extensions: _bookkeeping, ...call } = item;
          return call;
        });
        expect([decoded.messages[0], assistant]).toEqual([request.messages[0], parts]);
      }),
      propertyRuns(200),
    );
  });
});
