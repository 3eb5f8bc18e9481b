// Golden tests of each Gemini feature: exact canonical values, and the identity back to the wire.
import { accumulateEvents, decodeSse, type LlmRequest, type LlmStreamEvent, type LlmWarning, type SseEvent } from '@llm/core';
import { byteAtATime, collect, splitAt, splitOffsets, streamOf, utf8 } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

const sse = (chunks: unknown[]): SseEvent[] => chunks.map((chunk) => ({ data: JSON.stringify(chunk), event: undefined, id: undefined }));
const decodeStream = (chunks: unknown[]): Promise<LlmStreamEvent[]> => collect(streamOf(sse(chunks)).pipeThrough(gemini.stream.decode()));

describe('a request using every feature', () => {
  const body = {
    contents: [
      {
        role: 'user',
        parts: [
          { text: 'Summarise the clip' },
          {
            fileData: { mimeType: 'video/mp4', fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc' },
            videoMetadata: { startOffset: '1s', endOffset: '5s', fps: 2 },
          },
          { inlineData: { mimeType: 'image/png', data: 'iVBORw0K' } },
        ],
      },
      {
        role: 'model',
        parts: [
          { text: 'planning', thought: true, thoughtSignature: 'c2ln' },
          { executableCode: { language: 'PYTHON', code: 'print(1)' } },
          { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1\n' } },
          { functionCall: { id: 'fc1', name: 'lookup', args: { q: 'x' } } },
        ],
      },
      // The legacy `function` role is read as tool results and written back as it came.
      { role: 'function', parts: [{ functionResponse: { id: 'fc1', name: 'lookup', response: { result: 'y' } } }] },
    ],
    systemInstruction: { parts: [{ text: 'Be brief.' }] },
    tools: [
      { functionDeclarations: [{ name: 'lookup', description: 'Look up', parametersJsonSchema: { type: 'object', properties: { q: { type: 'string' } } } }] },
      { googleSearch: {} },
      { codeExecution: {} },
      { urlContext: {} },
    ],
    toolConfig: { functionCallingConfig: { mode: 'VALIDATED', allowedFunctionNames: ['lookup'] } },
    generationConfig: {
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      candidateCount: 2,
      maxOutputTokens: 512,
      stopSequences: ['END'],
      presencePenalty: 0.1,
      frequencyPenalty: 0.3,
      seed: 7,
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object' },
      responseLogprobs: true,
      logprobs: 3,
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
      responseModalities: ['TEXT'],
      mediaResolution: 'MEDIA_RESOLUTION_LOW',
      speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } },
    },
    safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
    cachedContent: 'cachedContents/abc',
    labels: { team: 'core' },
  };
  const request = gemini.request.decode(body, { model: 'gemini-2.5-pro', stream: false });

  it('decodes to the exact canonical request', () => {
    expect(request).toEqual({
      model: 'gemini-2.5-pro',
      stream: false,
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Summarise the clip' },
            {
              type: 'file',
              source: { kind: 'file', fileId: 'https://generativelanguage.googleapis.com/v1beta/files/abc', provider: 'gemini', mediaType: 'video/mp4' },
              extensions: { gemini: { videoMetadata: { startOffset: '1s', endOffset: '5s', fps: 2 } } },
            },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0K' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'planning', signature: 'c2ln', origin: { protocol: 'gemini', model: 'gemini-2.5-pro' } },
            { type: 'code-execution', language: 'python', code: 'print(1)', origin: { protocol: 'gemini', model: 'gemini-2.5-pro' } },
            { type: 'code-execution-result', outcome: 'ok', output: '1\n', origin: { protocol: 'gemini', model: 'gemini-2.5-pro' } },
            { type: 'tool-call', id: 'fc1', name: 'lookup', arguments: { q: 'x' }, extensions: { gemini: { $unsigned: true } } },
          ],
        },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'fc1', toolName: 'lookup', content: '{"result":"y"}' }],
          extensions: { gemini: { $role: 'function' } },
        },
      ],
      tools: [
        {
          type: 'function',
          name: 'lookup',
          description: 'Look up',
          parameters: { type: 'object', properties: { q: { type: 'string' } } },
          extensions: { gemini: { $tool: 0, $jsonSchema: true } },
        },
        { type: 'web_search', name: 'web_search', extensions: { gemini: { $tool: 1 } } },
        { type: 'code_execution', name: 'code_execution', extensions: { gemini: { $tool: 2 } } },
        { type: 'provider', protocol: 'gemini', name: 'urlContext', value: {}, extensions: { gemini: { $tool: 3 } } },
      ],
      toolChoice: { type: 'allowed', names: ['lookup'], mode: 'auto' },
      sampling: { temperature: 0.2, topP: 0.9, topK: 40, presencePenalty: 0.1, frequencyPenalty: 0.3, seed: 7 },
      candidateCount: 2,
      maxOutputTokens: 512,
      stop: ['END'],
      responseFormat: { type: 'json-schema', schema: { type: 'object' } },
      logprobs: { top: 3 },
      reasoning: { includeThoughts: true, enabled: true, budgetTokens: 1024 },
      extensions: {
        gemini: {
          safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
          cachedContent: 'cachedContents/abc',
          labels: { team: 'core' },
          $toolConfig: { $mode: 'VALIDATED' },
          $generation: {
            responseModalities: ['TEXT'],
            mediaResolution: 'MEDIA_RESOLUTION_LOW',
            speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } },
            $budget: 1024,
            $responseJsonSchema: true,
          },
        },
      },
    });
  });

  it('encodes back to the same body', () => {
    expect(gemini.request.encode(request)).toEqual(body);
  });
});

describe('responses with several candidates and candidate metadata', () => {
  const meta = { modelVersion: 'gemini-2.5-flash', responseId: 'resp-1' };
  const grounding = { webSearchQueries: ['capital of france'], groundingChunks: [{ web: { uri: 'https://example.com', title: 'Example' } }] };
  const safetyRatings = [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }];
  const usageMetadata = {
    promptTokenCount: 10,
    candidatesTokenCount: 6,
    thoughtsTokenCount: 4,
    cachedContentTokenCount: 2,
    toolUsePromptTokenCount: 3,
    totalTokenCount: 23,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: 10 }],
  };
  const json = {
    candidates: [
      {
        content: { role: 'model', parts: [{ text: 'Paris is the capital.' }] },
        finishReason: 'STOP',
        index: 0,
        safetyRatings,
        citationMetadata: {
          citations: [
            { startIndex: 0, endIndex: 5, uri: 'https://a.example' },
            { startIndex: 9, endIndex: 20, uri: 'https://b.example' },
          ],
        },
        groundingMetadata: grounding,
      },
      { content: { role: 'model', parts: [{ text: 'Paris' }] }, finishReason: 'MAX_TOKENS', index: 1 },
    ],
    usageMetadata,
    ...meta,
  };
  const expected = {
    id: 'resp-1',
    model: 'gemini-2.5-flash',
    choices: [
      {
        index: 0,
        content: [{ type: 'text', text: 'Paris is the capital.' }],
        rawFinishReason: 'STOP',
        finishReason: 'stop',
        extensions: { gemini: { safetyRatings, citationMetadata: json.candidates[0]!.citationMetadata, groundingMetadata: grounding } },
      },
      { index: 1, content: [{ type: 'text', text: 'Paris' }], rawFinishReason: 'MAX_TOKENS', finishReason: 'length' },
    ],
    // Prompt + tool-use prompt in, candidates + thoughts out; cached tokens are part of the prompt.
    usage: {
      inputTokens: 13,
      outputTokens: 10,
      totalTokens: 23,
      cacheReadTokens: 2,
      reasoningTokens: 4,
      toolUseInputTokens: 3,
      raw: { protocol: 'gemini', usage: usageMetadata },
    },
  };

  it('decodes to the exact canonical response and back', () => {
    const response = gemini.response.decode(json);
    expect(response).toEqual(expected);
    expect(gemini.response.encode(response)).toEqual(json);
  });

  it('the same answer streamed (interleaved candidates, citations per chunk) accumulates to the same response', async () => {
    const events = await decodeStream([
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'Paris is ' }] },
            index: 0,
            safetyRatings,
            citationMetadata: { citations: [json.candidates[0]!.citationMetadata!.citations[0]] },
          },
        ],
        ...meta,
      },
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Paris' }] }, finishReason: 'MAX_TOKENS', index: 1 }], ...meta },
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'the capital.' }] },
            finishReason: 'STOP',
            index: 0,
            safetyRatings,
            citationMetadata: { citations: [json.candidates[0]!.citationMetadata!.citations[1]] },
            groundingMetadata: grounding,
          },
        ],
        usageMetadata,
        ...meta,
      },
    ]);
    expect(accumulateEvents(events)).toEqual(expected);
    // Re-encoded, the metadata rides on each candidate's finishing chunk.
    const chunks = (await collect(streamOf(events).pipeThrough(gemini.stream.encode()))).map((event) => JSON.parse(event.data) as { candidates?: unknown[] });
    expect(chunks.at(-2)!.candidates).toEqual([{ finishReason: 'STOP', index: 0, ...expected.choices[0]!.extensions!.gemini }]);
    expect(accumulateEvents(await decodeStream(chunks))).toEqual(expected);
  });

  it.each([
    ['STOP', 'stop'],
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['BLOCKLIST', 'content_filter'],
    ['PROHIBITED_CONTENT', 'content_filter'],
    ['SPII', 'content_filter'],
    ['IMAGE_SAFETY', 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', 'error'],
    ['UNEXPECTED_TOOL_CALL', 'error'],
    ['TOO_MANY_TOOL_CALLS', 'error'],
    ['LANGUAGE', 'other'],
    ['OTHER', 'other'],
    ['FINISH_REASON_UNSPECIFIED', 'other'],
  ])('finishReason %s is %s and goes back unchanged', (raw, reason) => {
    const wire = { candidates: [{ content: { role: 'model', parts: [{ text: 'x' }] }, finishReason: raw, index: 0 }], modelVersion: 'm', responseId: 'r' };
    const response = gemini.response.decode(wire);
    expect([response.choices[0]!.finishReason, response.choices[0]!.rawFinishReason]).toEqual([reason, raw]);
    expect(gemini.response.encode(response)).toEqual(wire);
  });
});

describe('Vertex streamed function-call arguments', () => {
  const meta = { modelVersion: 'gemini-3-pro-preview', responseId: 'v1' };
  const call = (functionCall: unknown, extra: object = {}) => ({
    candidates: [{ content: { role: 'model', parts: [{ functionCall, ...extra }] }, index: 0 }],
    ...meta,
  });
  const chunks = [
    call(
      {
        name: 'write',
        partialArgs: [
          { jsonPath: '$.path', stringValue: '/tmp/a' },
          { jsonPath: '$.text', stringValue: 'hel', willContinue: true },
        ],
        willContinue: true,
      },
      { thoughtSignature: 'c2ln' },
    ),
    call({
      partialArgs: [
        { jsonPath: '$.text', stringValue: 'lo' },
        { jsonPath: '$.lines[0]', numberValue: 1 },
        { jsonPath: '$.force', boolValue: true },
      ],
      willContinue: true,
    }),
    call({}),
    {
      candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 9, totalTokenCount: 13 },
      ...meta,
    },
  ];

  it('are assembled into one whole call, closed by the empty functionCall', async () => {
    const events = await decodeStream(chunks);
    expect(events.slice(0, 4)).toEqual([
      { type: 'start', id: 'v1', model: 'gemini-3-pro-preview' },
      {
        type: 'block-start',
        index: 0,
        block: { kind: 'tool_call', id: 'call_v1_0', name: 'write', origin: { protocol: 'gemini', model: 'gemini-3-pro-preview' }, signature: 'c2ln' },
      },
      { type: 'tool-args-delta', index: 0, json: '{"path":"/tmp/a","text":"hello","lines":[1],"force":true}' },
      { type: 'block-end', index: 0 },
    ]);
    const answer = accumulateEvents(events).choices[0]!;
    expect([answer.content, answer.finishReason]).toEqual([
      [
        {
          type: 'tool-call',
          id: 'call_v1_0',
          name: 'write',
          arguments: '{"path":"/tmp/a","text":"hello","lines":[1],"force":true}',
          signature: 'c2ln',
          origin: { protocol: 'gemini', model: 'gemini-3-pro-preview' },
        },
      ],
      'tool_calls',
    ]);
    // Gemini clients get the call whole, with its signature, and without the id made up for it.
    const whole = { functionCall: { name: 'write', args: { path: '/tmp/a', text: 'hello', lines: [1], force: true } }, thoughtSignature: 'c2ln' };
    const encoded = (await collect(streamOf(events).pipeThrough(gemini.stream.encode()))).map((event) => JSON.parse(event.data) as unknown);
    expect(encoded[0]).toEqual({ candidates: [{ content: { parts: [whole], role: 'model' }, index: 0 }], ...meta });
    // Likewise as JSON, though the accumulated answer carries no mark of the made-up id.
    expect((gemini.response.encode(accumulateEvents(events)) as { candidates: unknown }).candidates).toEqual([
      { content: { parts: [whole], role: 'model' }, finishReason: 'STOP', index: 0 },
    ]);
  });

  it('decode alike under any byte split, with \n\n separators too', async () => {
    const bytes = utf8(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join(''));
    const whole = await decodeStream(chunks);
    const eventsOf = (parts: Uint8Array[]) => collect(decodeSse(streamOf(parts)).pipeThrough(gemini.stream.decode()));
    expect(await eventsOf([bytes])).toEqual(whole);
    for (const offset of splitOffsets(bytes.length, 60)) expect(await eventsOf(splitAt(bytes, [offset]))).toEqual(whole);
    expect(await eventsOf(byteAtATime(bytes))).toEqual(whole);
  });
});

describe('a prompt blocked in a stream', () => {
  const chunk = {
    promptFeedback: { blockReason: 'PROHIBITED_CONTENT', safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH' }] },
    usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 },
    modelVersion: 'gemini-2.5-flash',
    responseId: 'b1',
  };

  it('is a start holding the promptFeedback and a content_filter finish; re-encoded it is the same single chunk', async () => {
    const events = await decodeStream([chunk]);
    const usage = { inputTokens: 5, outputTokens: 0, totalTokens: 5, raw: { protocol: 'gemini', usage: chunk.usageMetadata } };
    expect(events).toEqual([
      { type: 'start', id: 'b1', model: 'gemini-2.5-flash', extensions: { gemini: { promptFeedback: chunk.promptFeedback } } },
      { type: 'finish', reason: 'content_filter', rawReason: 'PROHIBITED_CONTENT', usage },
    ]);
    const encoded = await collect(streamOf(events).pipeThrough(gemini.stream.encode()));
    expect(encoded.map((event) => JSON.parse(event.data) as unknown)).toEqual([chunk]);
    // The JSON form decodes to the same choice and feedback.
    const fromJson = gemini.response.decode(chunk);
    const streamed = accumulateEvents(events);
    expect([streamed.choices, streamed.usage, streamed.extensions?.gemini?.promptFeedback]).toEqual([fromJson.choices, fromJson.usage, chunk.promptFeedback]);
  });
});

describe("a thinking budget from another protocol, fitted to the Gemini 2.5 model's range", () => {
  const encode = (model: string, reasoning: LlmRequest['reasoning']) => {
    const warnings: LlmWarning[] = [];
    const wire = gemini.request.encode(
      { model, messages: [{ role: 'user', content: [{ type: 'text', text: 'Q' }] }], reasoning },
      { warn: (w) => warnings.push(w) },
    );
    return [wire.generationConfig?.thinkingConfig?.thinkingBudget, warnings.map(({ code, path, message }) => `${code} ${path}: ${message}`)];
  };
  it('raises and caps budgets per model, and reports the moved ones', () => {
    expect(encode('gemini-2.5-flash', { enabled: true, budgetTokens: 50_000 })).toEqual([
      24576,
      ['lossy-conversion reasoning.budgetTokens: thinking budget 50000 sent as 24576 (Gemini 2.5 Flash takes 1 to 24576)'],
    ]);
    expect(encode('gemini-2.5-pro', { enabled: true, budgetTokens: 50_000 })[0]).toBe(32768);
    expect(encode('gemini-2.5-flash-lite', { enabled: true, budgetTokens: 100 })).toEqual([
      512,
      ['lossy-conversion reasoning.budgetTokens: thinking budget 100 sent as 512 (Gemini 2.5 Flash-Lite takes 512 to 24576)'],
    ]);
    expect(encode('gemini-2.5-flash', { enabled: true, budgetTokens: 8000 })).toEqual([8000, []]);
    // Unknown models and Gemini 3 (which maps a budget to a level): as it is.
    expect(encode('my-model', { enabled: true, budgetTokens: 50_000 })).toEqual([50_000, []]);
  });
  it("Gemini 2.5 Pro cannot turn thinking off: its lowest budget, reported; an effort's budget is capped quietly", () => {
    expect(encode('gemini-2.5-pro', { enabled: false })).toEqual([
      128,
      ['lossy-conversion reasoning.enabled: Gemini 2.5 Pro cannot turn thinking off; its lowest budget (128) was used'],
    ]);
    expect(encode('gemini-2.5-flash', { enabled: false })).toEqual([0, []]);
    expect(encode('gemini-2.5-flash', { effort: 'xhigh' })).toEqual([24576, []]);
  });
  it("a Gemini client's own budget goes back as sent", () => {
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'Q' }] }],
      generationConfig: { thinkingConfig: { thinkingBudget: 50_000, includeThoughts: true } },
    };
    expect(gemini.request.encode(gemini.request.decode(body, { model: 'gemini-2.5-flash' }))).toEqual(body);
  });
});
