import { LlmError, type LlmRequest, type LlmResponse, type LlmStreamEvent, type LlmUsage } from '@llm/core';

/**
 * A conformance scenario, written once in canonical form:
 * - `request`: what the client sends (rendered in the client protocol by its codec);
 * - `response`: what the upstream answers (rendered in the upstream protocol by its codec), or
 * - `events`: an upstream stream that does not come from a whole response (an error mid-stream), or
 * - `error`: an upstream error answer.
 * `followUp` builds a second turn from the answer the client got (opaque state across turns).
 */
export interface Scenario {
  id: string;
  title: string;
  request: LlmRequest;
  response?: LlmResponse;
  events?: LlmStreamEvent[];
  error?: { error: LlmError; headers?: Record<string, string> };
  /** Only meaningful streaming (the mid-stream error). */
  streamOnly?: boolean;
  /** A second request the client makes with the answer it received (reasoning across turns). */
  followUp?: (answer: LlmResponse) => LlmRequest;
}

const MODEL = 'test-model';
const usage = (inputTokens: number, outputTokens: number, extra: Partial<LlmUsage> = {}): LlmUsage => ({
  inputTokens,
  outputTokens,
  totalTokens: inputTokens + outputTokens,
  ...extra,
});
const text = (value: string) => ({ type: 'text' as const, text: value });
const say = (value: string): LlmRequest['messages'][number] => ({ role: 'user', content: [text(value)] });
const answer = (
  content: LlmResponse['choices'][number]['content'],
  finishReason: LlmResponse['choices'][number]['finishReason'],
  used = usage(10, 5),
): LlmResponse => ({
  id: 'resp_conformance',
  model: MODEL,
  choices: [{ index: 0, content, finishReason }],
  usage: used,
});
const weather = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjQKJcOkw7zDtsOfCjEgMCBvYmoKPDwvVHlwZS9DYXRhbG9nPj4KZW5kb2JqCnRyYWlsZXIKPDwvUm9vdCAxIDAgUj4+CiUlRU9G';

const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

const upstreamError = (id: string, title: string, error: LlmError, headers?: Record<string, string>): Scenario => ({
  id,
  title,
  request: { model: MODEL, messages: [say('Hello')] },
  error: headers ? { error, headers } : { error },
});

/** Every scenario of the list, in table order. */
const written: Scenario[] = [
  {
    id: 'text',
    title: 'plain text',
    request: { model: MODEL, messages: [say('Say hello.')] },
    response: answer([text('Hello!')], 'stop'),
  },
  {
    id: 'system',
    title: 'system prompt',
    request: { model: MODEL, messages: [{ role: 'system', content: [text('Answer in French.')] }, say('Say hello.')] },
    response: answer([text('Bonjour !')], 'stop'),
  },
  {
    id: 'multi-turn',
    title: 'multi-turn',
    request: {
      model: MODEL,
      messages: [say('My name is Ada.'), { role: 'assistant', content: [text('Nice to meet you, Ada.')] }, say('What is my name?')],
    },
    response: answer([text('Your name is Ada.')], 'stop'),
  },
  {
    id: 'image',
    title: 'image',
    request: {
      model: MODEL,
      messages: [{ role: 'user', content: [text('What is in this image?'), { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG } }] }],
    },
    response: answer([text('A single pixel.')], 'stop'),
  },
  {
    id: 'pdf',
    title: 'PDF',
    request: {
      model: MODEL,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', filename: 'doc.pdf', source: { kind: 'base64', mediaType: 'application/pdf', data: PDF } },
            text('Summarize the document.'),
          ],
        },
      ],
    },
    response: answer([text('An empty PDF.')], 'stop'),
  },
  {
    id: 'tool-call',
    title: 'one tool call',
    request: { model: MODEL, messages: [say('Weather in Paris?')], tools: [weather] },
    response: answer([{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }], 'tool_calls'),
  },
  {
    id: 'parallel-tools',
    title: 'parallel tool calls',
    request: { model: MODEL, messages: [say('Weather in Paris and Rome?')], tools: [weather] },
    response: answer(
      [
        { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'tool-call', id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' },
      ],
      'tool_calls',
    ),
  },
  {
    id: 'tool-loop',
    title: 'three-step tool loop',
    request: {
      model: MODEL,
      tools: [weather],
      messages: [
        say('Compare the weather in Paris, Rome and Oslo.'),
        { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', content: 'sunny, 21C' }] },
        { role: 'assistant', content: [text('Now Rome.'), { type: 'tool-call', id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_2', content: 'cloudy, 18C' }] },
      ],
    },
    response: answer([{ type: 'tool-call', id: 'call_3', name: 'get_weather', arguments: '{"city":"Oslo"}' }], 'tool_calls'),
  },
  {
    id: 'tool-error',
    title: 'tool error result',
    request: {
      model: MODEL,
      tools: [weather],
      messages: [
        say('Weather in Atlantis?'),
        { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Atlantis"}' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', content: 'unknown city', isError: true }] },
      ],
    },
    response: answer([text('I could not find Atlantis.')], 'stop'),
  },
  {
    id: 'reasoning-tools',
    title: 'reasoning with tools across turns',
    request: { model: MODEL, messages: [say('Weather in Paris?')], tools: [weather], reasoning: { effort: 'high' } },
    response: answer(
      [
        { type: 'reasoning', text: 'The user wants the weather; call the tool.', signature: 'sig-reasoning-1' },
        { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ],
      'tool_calls',
      usage(20, 30, { reasoningTokens: 12 }),
    ),
    followUp: (previous) => ({
      model: MODEL,
      tools: [weather],
      reasoning: { effort: 'high' },
      messages: [
        say('Weather in Paris?'),
        { role: 'assistant', content: previous.choices[0]?.content ?? [] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: toolCallIdOf(previous), content: 'sunny, 21C' }] },
      ],
    }),
  },
  {
    id: 'structured',
    title: 'structured output',
    request: {
      model: MODEL,
      messages: [say('Give me a city.')],
      responseFormat: {
        type: 'json-schema',
        name: 'city',
        schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
        strict: true,
      },
    },
    response: answer([text('{"name":"Paris"}')], 'stop'),
  },
  {
    id: 'hosted-mcp',
    title: 'hosted MCP',
    request: {
      model: MODEL,
      messages: [say('What is MCP?')],
      tools: [{ type: 'mcp', name: 'deepwiki', url: 'https://mcp.deepwiki.com/mcp', allowedTools: ['ask_question'] }],
    },
    response: answer(
      [
        { type: 'mcp-call', id: 'mcp_1', server: 'deepwiki', name: 'ask_question', arguments: { question: 'MCP' } },
        { type: 'mcp-result', callId: 'mcp_1', content: 'A protocol.' },
        text('MCP is a protocol.'),
      ],
      'stop',
    ),
  },
  {
    id: 'web-search',
    title: 'web search with citations',
    request: { model: MODEL, messages: [say('When does the Rust 2027 edition ship?')], tools: [{ type: 'web_search', name: 'web_search' }] },
    response: answer(
      [
        {
          type: 'text',
          text: 'It ships in 2027.',
          citations: [{ kind: 'url', url: 'https://blog.rust-lang.org/2027', title: 'Rust 2027', startIndex: 0, endIndex: 17 }],
        },
      ],
      'stop',
    ),
  },
  {
    id: 'audio',
    title: 'audio input',
    request: {
      model: MODEL,
      messages: [
        { role: 'user', content: [text('Transcribe this.'), { type: 'audio', source: { kind: 'base64', mediaType: 'audio/wav', data: WAV }, format: 'wav' }] },
      ],
    },
    response: answer([text('Hello.')], 'stop'),
  },
  {
    id: 'logprobs',
    title: 'logprobs',
    request: { model: MODEL, messages: [say('Greet me.')], logprobs: { top: 2 } },
    response: {
      ...answer([text('Hi there')], 'stop'),
      choices: [
        {
          index: 0,
          content: [text('Hi there')],
          finishReason: 'stop',
          logprobs: [
            {
              token: 'Hi',
              logprob: -0.01,
              top: [
                { token: 'Hi', logprob: -0.01 },
                { token: 'Hello', logprob: -4.6 },
              ],
            },
            {
              token: ' there',
              logprob: -0.2,
              top: [
                { token: ' there', logprob: -0.2 },
                { token: '!', logprob: -1.7 },
              ],
            },
          ],
        },
      ],
    },
  },
  {
    id: 'stop-sequence',
    title: 'stop sequence',
    request: { model: MODEL, messages: [say('Count to five.')], stop: ['4'] },
    response: answer([text('1, 2, 3, ')], 'stop'),
  },
  {
    id: 'max-tokens',
    title: 'max-tokens cut-off',
    request: { model: MODEL, messages: [say('Write a long story.')], maxOutputTokens: 5 },
    response: answer([text('Once upon a time')], 'length'),
  },
  {
    id: 'refusal',
    title: 'refusal',
    request: { model: MODEL, messages: [say('Help me do something harmful.')] },
    response: answer([{ type: 'refusal', text: 'I cannot help with that.' }], 'refusal'),
  },
  {
    // A Claude classifier refusal (stop_reason 'refusal') after some text, and before any.
    id: 'claude-refusal-partial',
    title: 'refusal after partial text (Claude)',
    request: { model: MODEL, messages: [say('Explain how to pick a lock.')] },
    response: answer([text('Here is how to')], 'refusal'),
  },
  {
    id: 'claude-refusal-empty',
    title: 'refusal without text (Claude)',
    request: { model: MODEL, messages: [say('Help me do something harmful.')] },
    response: answer([], 'refusal'),
  },
  {
    id: 'content-filter',
    title: 'content filter',
    request: { model: MODEL, messages: [say('Something filtered.')] },
    response: answer([text('Partial')], 'content_filter'),
  },
  {
    id: 'usage',
    title: 'usage with cache and reasoning tokens',
    request: { model: MODEL, messages: [say('Think, then answer.')] },
    response: answer([text('42')], 'stop', usage(1200, 300, { cacheReadTokens: 1000, reasoningTokens: 250 })),
  },
  upstreamError('error-400', 'upstream 400', new LlmError({ kind: 'invalid_request', message: 'messages: bad request' })),
  upstreamError('error-401', 'upstream 401', new LlmError({ kind: 'authentication', message: 'invalid api key' })),
  upstreamError('error-429', 'upstream 429 + retry-after', new LlmError({ kind: 'rate_limit', message: 'slow down', retryAfterMs: 7000 }), {
    'retry-after': '7',
  }),
  upstreamError('error-500', 'upstream 500', new LlmError({ kind: 'server', message: 'internal error' })),
  upstreamError('error-529', 'upstream overloaded (503 / 529)', new LlmError({ kind: 'overloaded', message: 'overloaded' })),
  {
    id: 'stream-error',
    title: 'error mid-stream',
    request: { model: MODEL, messages: [say('Tell me a story.')] },
    streamOnly: true,
    events: [
      { type: 'start', id: 'resp_conformance', model: MODEL },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'Once upon' },
      { type: 'block-end', index: 0 },
      { type: 'error', error: new LlmError({ kind: 'overloaded', message: 'overloaded mid-stream' }) },
    ],
  },
];

/**
 * Clients name an output budget (Claude requires one), so no cell sees the router's default:
 * that default has its own router test.
 */
const BUDGET = 1024;
const budgeted = (request: LlmRequest): LlmRequest => ({ ...request, maxOutputTokens: request.maxOutputTokens ?? BUDGET });

export const scenarios: Scenario[] = written.map((scenario) => {
  const followUp = scenario.followUp;
  return { ...scenario, request: budgeted(scenario.request), ...(followUp ? { followUp: (answer: LlmResponse) => budgeted(followUp(answer)) } : {}) };
});

function toolCallIdOf(response: LlmResponse): string {
  const call = response.choices[0]?.content.find((part) => part.type === 'tool-call');
  return call && call.type === 'tool-call' ? call.id : '';
}
