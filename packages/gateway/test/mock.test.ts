import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { mockSignature } from '../src/mock/script.js';

let chat: MockUpstream;
let responses: MockUpstream;
let claude: MockUpstream;
let gemini: MockUpstream;

beforeAll(async () => {
  [chat, responses, claude, gemini] = await Promise.all([
    startMockUpstream({ protocol: 'openai-chat' }),
    startMockUpstream({ protocol: 'openai-responses' }),
    startMockUpstream({ protocol: 'claude' }),
    startMockUpstream({ protocol: 'gemini' }),
  ]);
});
afterAll(async () => {
  await Promise.all([chat, responses, claude, gemini].map((m) => m.close()));
});

const weatherTool = {
  name: 'get_weather',
  description: 'weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('openai-chat mock', () => {
  const client = () => new OpenAI({ apiKey: 'k', baseURL: chat.baseUrl, maxRetries: 0 });
  it('answers text', async () => {
    const res = await client().chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi there' }] });
    expect(res.choices[0]?.message.content).toBe('Mock openai-chat says: hi there');
    expect(res.choices[0]?.finish_reason).toBe('stop');
  });
  it('streams a tool call the SDK accumulates, then accepts the tool result', async () => {
    const tools = [{ type: 'function' as const, function: weatherTool }];
    const stream = client().chat.completions.stream({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'weather please' }],
      tools,
      stream_options: { include_usage: true },
    });
    const first = await stream.finalChatCompletion();
    const message = first.choices[0]!.message;
    expect(message.tool_calls).toEqual([{ id: 'call_mock_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]);
    const second = await client().chat.completions.create({
      model: 'gpt-4.1',
      tools,
      messages: [
        { role: 'user', content: 'weather please' },
        { role: 'assistant', content: null, tool_calls: message.tool_calls as never },
        { role: 'tool', tool_call_id: 'call_mock_1', content: 'sunny' },
      ],
    });
    expect(second.choices[0]?.message.content).toBe('Tool said: sunny');
  });
  it('rejects a tool message without a preceding call', async () => {
    await expect(
      client().chat.completions.create({
        model: 'm',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'nope', content: 'r' },
        ],
      }),
    ).rejects.toMatchObject({ status: 400 });
  });
  it('answers a scripted 429 with retry-after', async () => {
    const res = await fetch(`${chat.baseUrl}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'error 429' }] }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toEqual({ error: { message: 'scripted 429', type: 'rate_limit_exceeded', param: null, code: 'rate_limit_exceeded' } });
  });
});

describe('openai-responses mock', () => {
  const client = () => new OpenAI({ apiKey: 'k', baseURL: responses.baseUrl, maxRetries: 0 });
  it('refuses max_output_tokens below 16, as the API does', async () => {
    await expect(client().responses.create({ model: 'gpt-5', input: 'x', store: false, max_output_tokens: 15 })).rejects.toMatchObject({
      status: 400,
      message: "400 Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 15 instead.",
    });
    await expect(client().responses.create({ model: 'gpt-5', input: 'x', store: false, reasoning: { effort: 'max' as never } })).rejects.toMatchObject({
      status: 400,
      message: "400 Invalid value: 'max'. Supported values are: 'none', 'minimal', 'low', 'medium', 'high', and 'xhigh'.",
    });
    const ok = await client().responses.create({ model: 'gpt-5', input: 'x', store: false, max_output_tokens: 16 });
    expect(ok.output_text).toBe('Mock openai-responses says: x');
  });
  it('streams reasoning and a call, and validates the replayed reasoning item', async () => {
    const tools = [{ type: 'function' as const, strict: false, ...weatherTool }];
    const stream = client().responses.stream({ model: 'gpt-5', input: 'think then use the tool', tools });
    const final = await stream.finalResponse();
    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    const next = await client().responses.create({
      model: 'gpt-5',
      tools,
      input: [
        { role: 'user', content: 'think then use the tool' },
        ...(final.output as never[]),
        { type: 'function_call_output', call_id: 'call_mock_1', output: 'rain' },
      ],
    });
    expect(next.output_text).toBe('Tool said: rain');
    const tampered = final.output.map((item) => (item.type === 'reasoning' ? { ...item, encrypted_content: 'forged' } : item));
    await expect(
      client().responses.create({
        model: 'gpt-5',
        input: [{ role: 'user', content: 'x' }, ...(tampered as never[]), { type: 'function_call_output', call_id: 'call_mock_1', output: 'r' }],
      }),
    ).rejects.toMatchObject({ status: 400 });
  });
  it('rejects an output without its call', async () => {
    await expect(client().responses.create({ model: 'gpt-5', input: [{ type: 'function_call_output', call_id: 'zz', output: 'r' }] })).rejects.toMatchObject({
      status: 400,
    });
  });
});

describe('claude mock', () => {
  const client = () => new Anthropic({ apiKey: 'k', baseURL: claude.baseUrl, maxRetries: 0 });
  const tools = [{ name: 'get_weather', description: 'weather', input_schema: weatherTool.parameters as never }];
  it('streams thinking + parallel calls the SDK accumulates, and checks the replay', async () => {
    const stream = client().messages.stream({ model: 'claude-x', max_tokens: 100, tools, messages: [{ role: 'user', content: 'think and call in parallel' }] });
    const message = await stream.finalMessage();
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'tool_use', 'tool_use']);
    expect(message.stop_reason).toBe('tool_use');
    const results = [
      { type: 'tool_result' as const, tool_use_id: 'toolu_call_mock_1', content: 'a' },
      { type: 'tool_result' as const, tool_use_id: 'toolu_call_mock_2', content: 'b' },
    ];
    const ok = await client().messages.create({
      model: 'claude-x',
      max_tokens: 100,
      tools,
      messages: [
        { role: 'user', content: 'think and call in parallel' },
        { role: 'assistant', content: message.content as never },
        { role: 'user', content: results },
      ],
    });
    expect(ok.content).toEqual([{ type: 'text', text: 'Tool said: a | b' }]);
    const forged = message.content.map((b) => (b.type === 'thinking' ? { ...b, signature: 'x' } : b));
    await expect(
      client().messages.create({
        model: 'claude-x',
        max_tokens: 100,
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: forged as never },
          { role: 'user', content: results },
        ],
      }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      client().messages.create({
        model: 'claude-x',
        max_tokens: 100,
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: message.content as never },
          { role: 'user', content: [{ type: 'text', text: 'hi' }, ...results] },
        ],
      }),
    ).rejects.toMatchObject({ status: 400 });
  });
  it('requires max_tokens and alternation', async () => {
    const post = (body: unknown) => fetch(`${claude.baseUrl}/v1/messages`, { method: 'POST', body: JSON.stringify(body) });
    expect((await post({ model: 'c', messages: [{ role: 'user', content: 'x' }] })).status).toBe(400);
    const res = await post({
      model: 'c',
      max_tokens: 5,
      messages: [
        { role: 'user', content: 'x' },
        { role: 'user', content: 'y' },
      ],
    });
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'messages.1: roles must alternate between "user" and "assistant"' },
    });
  });
  it('bounds max_tokens and a manual thinking budget as the API does (budget >= 1024 and, without tools, below max_tokens)', async () => {
    const post = async (body: unknown) => {
      const res = await fetch(`${claude.baseUrl}/v1/messages`, { method: 'POST', body: JSON.stringify(body) });
      return { status: res.status, message: ((await res.json()) as { error?: { message: string } }).error?.message };
    };
    const messages = [{ role: 'user', content: 'x' }];
    const enabled = (budget_tokens: unknown) => ({ type: 'enabled', budget_tokens });
    expect(await post({ model: 'c', max_tokens: 0, messages })).toEqual({ status: 400, message: 'max_tokens: Input should be greater than or equal to 1' });
    expect(await post({ model: 'c', max_tokens: 1.5, messages })).toEqual({ status: 400, message: 'max_tokens: Input should be greater than or equal to 1' });
    expect(await post({ model: 'c', max_tokens: 4096, thinking: enabled(1000), messages })).toEqual({
      status: 400,
      message: 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024',
    });
    expect(await post({ model: 'c', max_tokens: 4096, thinking: enabled(8000), messages })).toEqual({
      status: 400,
      message:
        '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size',
    });
    expect(await post({ model: 'c', max_tokens: 4096, thinking: enabled(4096), messages })).toMatchObject({ status: 400 });
    expect(await post({ model: 'c', max_tokens: 4097, thinking: enabled(4096), messages })).toEqual({ status: 200, message: undefined });
    // With tools (interleaved thinking) the budget may exceed max_tokens.
    expect(await post({ model: 'c', max_tokens: 4096, thinking: enabled(8000), tools, messages })).toEqual({ status: 200, message: undefined });
    expect(await post({ model: 'c', max_tokens: 4096, thinking: { type: 'disabled' }, messages })).toEqual({ status: 200, message: undefined });
  });
  it('bounds sampling as the API does: temperature 0 to 1, and beside thinking no sampling change and no forced tool', async () => {
    const post = async (body: Record<string, unknown>) => {
      const res = await fetch(`${claude.baseUrl}/v1/messages`, {
        method: 'POST',
        body: JSON.stringify({ model: 'c', max_tokens: 4096, messages: [{ role: 'user', content: 'x' }], ...body }),
      });
      return { status: res.status, message: ((await res.json()) as { error?: { message: string } }).error?.message };
    };
    const thinking = { type: 'enabled', budget_tokens: 2048 };
    expect(await post({ temperature: 1.5 })).toEqual({ status: 400, message: 'temperature: range: 0..1' });
    expect(await post({ temperature: 0, top_k: 5 })).toEqual({ status: 200, message: undefined });
    expect(await post({ temperature: 0, top_p: 0.5 })).toEqual({
      status: 400,
      message: '`temperature` and `top_p` cannot both be specified for this model. Please use only one.',
    });
    expect(await post({ thinking, temperature: 0.5 })).toMatchObject({ status: 400, message: expect.stringMatching(/^`temperature` may only be set to 1/) });
    expect(await post({ thinking: { type: 'adaptive' }, top_k: 5 })).toEqual({ status: 400, message: '`top_k` may not be set when thinking is enabled' });
    expect(await post({ thinking, top_p: 0.9 })).toEqual({ status: 400, message: '`top_p` must be between 0.95 and 1 when thinking is enabled' });
    expect(await post({ thinking, tools, tool_choice: { type: 'any' } })).toEqual({
      status: 400,
      message: 'Thinking may not be enabled when tool_choice forces tool use.',
    });
    expect(await post({ thinking, top_p: 0.95, tools, tool_choice: { type: 'auto' } })).toEqual({ status: 200, message: undefined });
    expect(await post({ thinking, temperature: 1 })).toEqual({ status: 200, message: undefined });
  });
  it('answers a scripted 529 overloaded', async () => {
    await expect(client().messages.create({ model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'error 529' }] })).rejects.toMatchObject({
      status: 529,
    });
  });
});

describe('gemini mock', () => {
  const client = () => new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: gemini.baseUrl } });
  const tools = [{ functionDeclarations: [{ name: 'get_weather', description: 'weather', parametersJsonSchema: weatherTool.parameters }] }];
  it('streams text over SSE', async () => {
    let text = '';
    for await (const chunk of await client().models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hello gemini' })) text += chunk.text ?? '';
    expect(text).toBe('Mock gemini says: hello gemini');
  });
  it('signs Gemini-3 calls and requires the signature on replay', async () => {
    const first = await client().models.generateContent({ model: 'gemini-3-pro', contents: 'use the tool', config: { tools } });
    const part = first.candidates?.[0]?.content?.parts?.[0];
    expect(part).toEqual({ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: mockSignature('gemini', 'get_weather') });
    const reply = { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { result: 'fog' } } }] };
    const ok = await client().models.generateContent({
      model: 'gemini-3-pro',
      config: { tools },
      contents: [{ role: 'user', parts: [{ text: 'use the tool' }] }, { role: 'model', parts: [part!] }, reply],
    });
    expect(ok.text).toBe('Tool said: {"result":"fog"}');
    const unsigned = { role: 'model', parts: [{ functionCall: part!.functionCall }] };
    await expect(
      client().models.generateContent({ model: 'gemini-3-pro', contents: [{ role: 'user', parts: [{ text: 'q' }] }, unsigned, reply] }),
    ).rejects.toThrow(/thought_signature/);
  });
  it('rejects a function response without a call turn', async () => {
    const res = await fetch(`${gemini.baseUrl}/v1beta/models/g:generateContent`, {
      method: 'POST',
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] }] }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe('INVALID_ARGUMENT');
  });
});

describe('gemini mock thinking budgets', () => {
  it('bounds a Gemini 2.5 thinking budget per model, as the API does', async () => {
    const post = async (model: string, thinkingBudget: number) => {
      const res = await fetch(`${gemini.baseUrl}/v1beta/models/${model}:generateContent`, {
        method: 'POST',
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }], generationConfig: { thinkingConfig: { thinkingBudget } } }),
      });
      return { status: res.status, message: ((await res.json()) as { error?: { message: string } }).error?.message };
    };
    expect(await post('gemini-2.5-flash', 24577)).toEqual({ status: 400, message: 'The thinking budget (24577) is invalid.' });
    expect(await post('gemini-2.5-flash', 0)).toEqual({ status: 200, message: undefined });
    expect(await post('gemini-2.5-pro', 0)).toEqual({ status: 400, message: 'Budget 0 is invalid. This model only works in thinking mode.' });
    expect(await post('gemini-2.5-pro', 32768)).toEqual({ status: 200, message: undefined });
    expect(await post('gemini-2.5-flash-lite', 100)).toEqual({ status: 400, message: 'The thinking budget (100) is invalid.' });
    expect(await post('gemini-2.5-flash-lite', -1)).toEqual({ status: 200, message: undefined });
  });
});

describe('token counting', () => {
  it('counts tokens for Claude and Gemini after validating the body', async () => {
    const claudeRes = await fetch(`${claude.baseUrl}/v1/messages/count_tokens`, {
      method: 'POST',
      body: JSON.stringify({ model: 'c', messages: [{ role: 'user', content: 'count me' }] }),
    });
    expect(await claudeRes.json()).toEqual({ input_tokens: 16 });
    const geminiRes = await fetch(`${gemini.baseUrl}/v1beta/models/g:countTokens`, {
      method: 'POST',
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'count me' }] }] }),
    });
    expect(await geminiRes.json()).toEqual({ totalTokens: 15 });
    const bad = await fetch(`${claude.baseUrl}/v1/messages/count_tokens`, { method: 'POST', body: JSON.stringify({ model: 'c', messages: [] }) });
    expect(bad.status).toBe(400);
  });
});
