// Golden tests for requests: exact canonical values for each wire feature, the identity back, and
// the encode direction from hand-built canonical requests (losses as warnings, strict as errors).
import type { LlmRequest, LlmWarning } from '@llm/core';
import { LlmError } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { openaiChat } from '../src/index.js';

const P = 'openai-chat';

/** Decodes, checks the canonical value, and checks the body comes back unchanged. */
function golden(body: Record<string, unknown>, expected: LlmRequest): void {
  const decoded = openaiChat.request.decode(body);
  expect(decoded).toEqual(expected);
  expect(openaiChat.request.encode(decoded)).toEqual(body);
}

const base = { model: 'gpt-5', messages: [{ role: 'user', content: 'Hi' }] };
const baseCanonical: LlmRequest = {
  model: 'gpt-5',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }], stringContent: true }],
};

describe('request decode: messages', () => {
  it('system, developer (string and parts), user with name', () => {
    golden(
      {
        model: 'gpt-5',
        messages: [
          { role: 'system', content: 'Be terse.' },
          { role: 'developer', content: [{ type: 'text', text: 'Rule 1' }], name: 'ops' },
          { role: 'user', content: 'Hi', name: 'alice' },
        ],
      },
      {
        model: 'gpt-5',
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'Be terse.' }] },
          {
            role: 'system',
            developer: true,
            name: 'ops',
            content: [{ type: 'text', text: 'Rule 1' }],
            extensions: { [P]: { $array: true } },
          },
          { role: 'user', content: [{ type: 'text', text: 'Hi' }], stringContent: true, name: 'alice' },
        ],
      },
    );
  });

  it('user content parts: text, image_url (url and data URL, detail), input_audio, file (id, data)', () => {
    golden(
      {
        model: 'gpt-4o',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Look' },
              { type: 'image_url', image_url: { url: 'https://x.test/a.png', detail: 'high' } },
              { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
              { type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } },
              { type: 'file', file: { file_id: 'file-abc' } },
              { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' } },
            ],
          },
        ],
      },
      {
        model: 'gpt-4o',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Look' },
              { type: 'image', source: { kind: 'url', url: 'https://x.test/a.png' }, detail: 'high' },
              { type: 'image', source: { kind: 'base64', mediaType: 'image/jpeg', data: 'AAAA' } },
              { type: 'audio', source: { kind: 'base64', mediaType: 'audio/wav', data: 'UklG' }, format: 'wav' },
              { type: 'file', source: { kind: 'file', fileId: 'file-abc', provider: P } },
              { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBE' }, filename: 'a.pdf' },
            ],
          },
        ],
      },
    );
  });

  it('assistant: null content with tool_calls (function and custom), refusal, name; tool results', () => {
    golden(
      {
        model: 'gpt-5',
        messages: [
          {
            role: 'assistant',
            content: null,
            name: 'bot',
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_2', type: 'custom', custom: { name: 'shell', input: 'ls -la' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
          { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'a.txt' }] },
          { role: 'assistant', content: 'No.', refusal: 'I cannot help with that.' },
        ],
      },
      {
        model: 'gpt-5',
        messages: [
          {
            role: 'assistant',
            name: 'bot',
            content: [
              { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
              { type: 'tool-call', id: 'call_2', name: 'shell', arguments: 'ls -la', freeform: true },
            ],
            extensions: { [P]: { content: null } },
          },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', content: '{"temp":21}' }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_2', content: [{ type: 'text', text: 'a.txt' }] }] },
          {
            role: 'assistant',
            stringContent: true,
            content: [
              { type: 'text', text: 'No.' },
              { type: 'refusal', text: 'I cannot help with that.' },
            ],
          },
        ],
      },
    );
  });

  it('assistant refusal as a content part', () => {
    golden(
      { model: 'gpt-5', messages: [{ role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] }] },
      {
        model: 'gpt-5',
        messages: [{ role: 'assistant', content: [{ type: 'refusal', text: 'No.', extensions: { [P]: { $inContent: true } } }] }],
      },
    );
  });

  it('legacy functions, function_call and the function role', () => {
    golden(
      {
        model: 'gpt-3.5-turbo',
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '{}' } },
          { role: 'function', name: 'get_weather', content: 'sunny' },
        ],
        functions: [{ name: 'get_weather', parameters: { type: 'object', properties: {} } }],
        function_call: 'auto',
      },
      {
        model: 'gpt-3.5-turbo',
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Weather?' }], stringContent: true },
          {
            role: 'assistant',
            content: [{ type: 'tool-call', id: 'get_weather', name: 'get_weather', arguments: '{}', extensions: { [P]: { $legacy: true } } }],
            extensions: { [P]: { content: null } },
          },
          {
            role: 'tool',
            content: [{ type: 'tool-result', toolCallId: 'get_weather', toolName: 'get_weather', content: 'sunny' }],
            extensions: { [P]: { $function: true } },
          },
        ],
        // Legacy `functions` / `function_call` have no canonical home beside `tools`: kept whole.
        extensions: { [P]: { functions: [{ name: 'get_weather', parameters: { type: 'object', properties: {} } }], function_call: 'auto' } },
      },
    );
  });

  it('reasoning_content (DeepSeek, vLLM, xAI) and reasoning (OpenRouter) on assistant messages', () => {
    golden(
      {
        model: 'deepseek-reasoner',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello', reasoning_content: 'The user greets.' },
          { role: 'assistant', content: 'Yo', reasoning: 'Short.' },
        ],
      },
      {
        model: 'deepseek-reasoner',
        messages: [
          baseCanonical.messages[0]!,
          {
            role: 'assistant',
            stringContent: true,
            content: [
              { type: 'reasoning', text: 'The user greets.', origin: { protocol: P } },
              { type: 'text', text: 'Hello' },
            ],
          },
          {
            role: 'assistant',
            stringContent: true,
            content: [
              { type: 'reasoning', text: 'Short.', origin: { protocol: P }, extensions: { [P]: { $field: 'reasoning' } } },
              { type: 'text', text: 'Yo' },
            ],
          },
        ],
      },
    );
  });
});

describe('request decode: tools and tool_choice', () => {
  const tools = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Weather by city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
        strict: true,
      },
    },
    { type: 'custom', custom: { name: 'shell', description: 'Runs a command', format: { type: 'text' } } },
  ];
  const canonicalTools: LlmRequest['tools'] = [
    {
      type: 'function',
      name: 'get_weather',
      description: 'Weather by city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
      strict: true,
    },
    { type: 'custom', name: 'shell', description: 'Runs a command', format: { type: 'text' } },
  ];

  it('function and custom tools, parallel_tool_calls', () => {
    golden({ ...base, tools, parallel_tool_calls: false }, { ...baseCanonical, tools: canonicalTools, parallelToolCalls: false });
  });

  it.each([
    ['none', { type: 'none' }],
    ['auto', { type: 'auto' }],
    ['required', { type: 'required' }],
    [
      { type: 'function', function: { name: 'get_weather' } },
      { type: 'tool', name: 'get_weather' },
    ],
    [
      { type: 'custom', custom: { name: 'shell' } },
      { type: 'tool', name: 'shell' },
    ],
    [
      {
        type: 'allowed_tools',
        allowed_tools: {
          mode: 'required',
          tools: [
            { type: 'function', function: { name: 'get_weather' } },
            { type: 'custom', custom: { name: 'shell' } },
          ],
        },
      },
      { type: 'allowed', names: ['get_weather', 'shell'], mode: 'required' },
    ],
    [
      { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'get_weather' } }] } },
      { type: 'allowed', names: ['get_weather'], mode: 'auto' },
    ],
  ] as const)('tool_choice %j', (wire, canonical) => {
    golden({ ...base, tools, tool_choice: wire }, { ...baseCanonical, tools: canonicalTools, toolChoice: canonical as LlmRequest['toolChoice'] });
  });
});

describe('request decode: generation settings', () => {
  it('max_completion_tokens', () => {
    golden({ ...base, max_completion_tokens: 500 }, { ...baseCanonical, maxOutputTokens: 500 });
  });
  it('legacy max_tokens is remembered', () => {
    golden({ ...base, max_tokens: 300 }, { ...baseCanonical, maxOutputTokens: 300, extensions: { [P]: { $legacyMax: true } } });
  });
  it('both: max_completion_tokens wins, max_tokens is kept', () => {
    golden({ ...base, max_completion_tokens: 500, max_tokens: 300 }, { ...baseCanonical, maxOutputTokens: 500, extensions: { [P]: { $maxTokens: 300 } } });
  });
  it('sampling: temperature, top_p, penalties, seed, logit_bias', () => {
    golden(
      { ...base, temperature: 0.2, top_p: 0.9, frequency_penalty: 0.5, presence_penalty: -0.5, seed: 42, logit_bias: { '50256': -100 } },
      {
        ...baseCanonical,
        sampling: { temperature: 0.2, topP: 0.9, frequencyPenalty: 0.5, presencePenalty: -0.5, seed: 42, logitBias: { '50256': -100 } },
      },
    );
  });
  it('stop as a string and as an array', () => {
    golden({ ...base, stop: 'END' }, { ...baseCanonical, stop: ['END'], extensions: { [P]: { $stopString: true } } });
    golden({ ...base, stop: ['a', 'b'] }, { ...baseCanonical, stop: ['a', 'b'] });
  });
  it('n, logprobs and top_logprobs', () => {
    golden({ ...base, n: 3, logprobs: true, top_logprobs: 5 }, { ...baseCanonical, candidateCount: 3, logprobs: { top: 5 } });
    golden({ ...base, logprobs: true }, { ...baseCanonical, logprobs: {} });
    // `logprobs: false` asks for nothing: kept for identity only.
    golden({ ...base, logprobs: false }, { ...baseCanonical, extensions: { [P]: { logprobs: false } } });
  });
  it('response_format: text, json_object, json_schema', () => {
    golden({ ...base, response_format: { type: 'text' } }, { ...baseCanonical, responseFormat: { type: 'text' } });
    golden({ ...base, response_format: { type: 'json_object' } }, { ...baseCanonical, responseFormat: { type: 'json' } });
    golden(
      {
        ...base,
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'answer',
            description: 'The answer',
            schema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'], additionalProperties: false },
            strict: true,
          },
        },
      },
      {
        ...baseCanonical,
        responseFormat: {
          type: 'json-schema',
          name: 'answer',
          description: 'The answer',
          schema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'], additionalProperties: false },
          strict: true,
        },
      },
    );
  });
  it('reasoning_effort and verbosity', () => {
    golden({ ...base, reasoning_effort: 'minimal', verbosity: 'low' }, { ...baseCanonical, reasoning: { effort: 'minimal' }, verbosity: 'low' });
    golden({ ...base, reasoning_effort: 'none' }, { ...baseCanonical, reasoning: { effort: 'none' } });
  });
  it('stream and stream_options', () => {
    golden({ ...base, stream: true, stream_options: { include_usage: true } }, { ...baseCanonical, stream: true, streamUsage: true });
    golden(
      { ...base, stream: true, stream_options: { include_usage: false, include_obfuscation: false } },
      { ...baseCanonical, stream: true, streamUsage: false, extensions: { [P]: { stream_options: { include_obfuscation: false } } } },
    );
  });
  it('store, metadata, service_tier, prompt_cache_key', () => {
    golden(
      { ...base, store: true, metadata: { team: 'a' }, service_tier: 'flex', prompt_cache_key: 'k1' },
      { ...baseCanonical, store: true, metadata: { team: 'a' }, serviceTier: 'flex', promptCacheKey: 'k1' },
    );
  });
  it('user and safety_identifier', () => {
    golden({ ...base, safety_identifier: 'u-1' }, { ...baseCanonical, user: 'u-1' });
    golden({ ...base, user: 'u-2' }, { ...baseCanonical, user: 'u-2', extensions: { [P]: { $legacyUser: true } } });
    golden({ ...base, safety_identifier: 'u-1', user: 'u-2' }, { ...baseCanonical, user: 'u-1', extensions: { [P]: { $user: 'u-2' } } });
  });
  it('modalities, audio and prediction travel in the extension bag', () => {
    const extras = {
      modalities: ['text', 'audio'],
      audio: { voice: 'alloy', format: 'wav' },
      prediction: { type: 'content', content: 'const x = 1;' },
    };
    golden({ ...base, ...extras }, { ...baseCanonical, extensions: { [P]: extras } });
  });
  it('web_search_options is the canonical hosted web search tool, after the function tools', () => {
    const web_search_options = { search_context_size: 'low', user_location: { type: 'approximate', approximate: { country: 'FR' } } };
    golden(
      { ...base, web_search_options },
      { ...baseCanonical, tools: [{ type: 'web_search', name: 'web_search', contextSize: 'low', userLocation: { country: 'FR' } }] },
    );
    const fn = { type: 'function', function: { name: 'f' } };
    golden(
      { ...base, tools: [fn], web_search_options: {} },
      {
        ...baseCanonical,
        tools: [
          { type: 'function', name: 'f' },
          { type: 'web_search', name: 'web_search', extensions: { [P]: { $tools: true } } },
        ],
      },
    );
    // Shapes with no canonical meaning are kept for Chat.
    const odd = { search_context_size: 'huge', user_location: { type: 'approximate', approximate: { country: 'FR', city: null } } };
    golden(
      { ...base, web_search_options: odd },
      { ...baseCanonical, tools: [{ type: 'web_search', name: 'web_search', userLocation: { country: 'FR' }, extensions: { [P]: odd } }] },
    );
  });
  it('unknown fields and explicit nulls survive', () => {
    golden(
      { ...base, temperature: null, some_vendor_flag: { a: 1 } },
      { ...baseCanonical, extensions: { [P]: { temperature: null, some_vendor_flag: { a: 1 } } } },
    );
  });
});

function encodeWithWarnings(request: LlmRequest): { body: unknown; warnings: LlmWarning[] } {
  const warnings: LlmWarning[] = [];
  const body = openaiChat.request.encode(request, { warn: (warning) => warnings.push(warning) });
  return { body, warnings };
}

describe('request encode from hand-built canonical values', () => {
  it('writes the modern field names by default', () => {
    const { body, warnings } = encodeWithWarnings({
      model: 'gpt-5',
      messages: [
        {
          role: 'system',
          content: [
            { type: 'text', text: 'A' },
            { type: 'text', text: 'B' },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'thinking', origin: { protocol: P } },
            { type: 'text', text: 'Calling' },
            { type: 'tool-call', id: 'toolu_1', name: 'f', arguments: { x: 1 } },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'toolu_1', content: [{ type: 'json', value: { ok: true } }] },
            { type: 'tool-result', toolCallId: 'toolu_2', content: 'done' },
          ],
        },
      ],
      maxOutputTokens: 100,
      user: 'u',
      reasoning: { enabled: false },
      stop: ['x'],
      responseFormat: { type: 'json-schema', schema: { type: 'object' } },
      streamUsage: true,
    });
    expect(body).toEqual({
      model: 'gpt-5',
      messages: [
        { role: 'system', content: 'AB' },
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        {
          role: 'assistant',
          reasoning_content: 'thinking',
          content: [{ type: 'text', text: 'Calling' }],
          tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: [{ type: 'text', text: '{"ok":true}' }] },
        { role: 'tool', tool_call_id: 'toolu_2', content: 'done' },
      ],
      max_completion_tokens: 100,
      safety_identifier: 'u',
      reasoning_effort: 'none',
      stop: ['x'],
      // An unnamed format is an enforced schema (Gemini, Claude): named "response" and sent strict.
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'response', schema: { type: 'object', properties: {}, required: [], additionalProperties: false }, strict: true },
      },
      stream_options: { include_usage: true },
    });
    expect(warnings).toEqual([
      {
        code: 'lossy-conversion',
        path: 'responseFormat.schema.additionalProperties',
        message: 'open object closed (additionalProperties: false): strict mode allows no undeclared properties',
      },
    ]);
  });

  it('a custom tool choice names the custom tool', () => {
    const body = openaiChat.request.encode({
      ...baseCanonical,
      tools: [{ type: 'custom', name: 'shell' }],
      toolChoice: { type: 'allowed', names: ['shell'], mode: 'auto' },
    });
    expect(body).toMatchObject({
      tools: [{ type: 'custom', custom: { name: 'shell' } }],
      tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'custom', custom: { name: 'shell' } }] } },
    });
  });

  const lossy: LlmRequest = {
    model: 'claude-sonnet-4-5',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'image', source: { kind: 'file', fileId: 'file_01', provider: 'claude' } },
          { type: 'file', source: { kind: 'url', url: 'https://x.test/a.pdf' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'hmm', signature: 'sig', origin: { protocol: 'claude' } },
          { type: 'reasoning', text: '', redacted: true, signature: 'opaque', origin: { protocol: 'claude' } },
          { type: 'text', text: 'ok' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', content: 'boom', isError: true }] },
    ],
    tools: [{ type: 'provider', protocol: 'claude', name: 'web_search_20250305', value: { type: 'web_search_20250305' } }],
    sampling: { topK: 40 },
    reasoning: { enabled: true, budgetTokens: 2048 },
    maxToolCalls: 3,
    previousResponseId: 'resp_1',
  };

  it('reports every loss as a warning and still writes the rest', () => {
    const { body, warnings } = encodeWithWarnings(lossy);
    expect(body).toEqual({
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'user', content: [] },
        { role: 'assistant', reasoning_content: 'hmm', content: [{ type: 'text', text: 'ok' }] },
        { role: 'tool', tool_call_id: 't1', content: 'boom' },
      ],
      // Every tool was dropped: no empty `tools` array (OpenAI rejects one).
    });
    expect(warnings.map((warning) => [warning.code, warning.path])).toEqual([
      ['dropped-part', 'messages[0].content[0]'],
      ['dropped-part', 'messages[0].content[1]'],
      ['foreign-state', 'messages[1].content[0]'],
      ['foreign-state', 'messages[1].content[1]'],
      ['dropped-field', 'messages[2].content[0]'],
      ['dropped-field', 'sampling.topK'],
      ['dropped-tool', 'tools[0]'],
      ['dropped-field', 'reasoning.budgetTokens'],
      ['dropped-field', 'maxToolCalls'],
      ['dropped-field', 'previousResponseId'],
    ]);
    expect(warnings.every((warning) => warning.protocol === P)).toBe(true);
  });

  it('strict mode turns the first loss into an unsupported error', () => {
    let error: unknown;
    try {
      openaiChat.request.encode(lossy, { strict: true });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).kind).toBe('unsupported');
    expect((error as LlmError).path).toBe('messages[0].content[0]');
  });

  it('effort max is sent as xhigh with a lossy-conversion warning', () => {
    const { body, warnings } = encodeWithWarnings({ ...baseCanonical, reasoning: { effort: 'max' } });
    expect(body).toEqual({ ...base, reasoning_effort: 'xhigh' });
    expect(warnings.map((warning) => warning.code)).toEqual(['lossy-conversion']);
  });
});
