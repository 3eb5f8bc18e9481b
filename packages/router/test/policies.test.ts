import type { LlmMessage, LlmRequest } from '@llm/core';
import { decodeSse } from '@llm/core';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { afterEach, describe, expect, it } from 'vitest';
import { bridge } from '../src/bridge.js';
import type { PolicyConfig } from '../src/config.js';
import { createHandler } from '../src/handler.js';
import { LOOP_GUARD_INSTRUCTION, applyPolicies } from '../src/policies.js';
import { startUpstream, type MockUpstream } from './mock-upstream.js';

// Validation plan of the gateway design the policies come from: a minimal tool chain, a mixed
// tool_result + text turn, a history replay, an intentional refresh, and streaming. Each policy is
// also checked alone on canonical requests (exact expected output).

const text = (value: string) => ({ type: 'text' as const, text: value });
const user = (value: string): LlmMessage => ({ role: 'user', content: [text(value)] });
const assistant = (value: string): LlmMessage => ({ role: 'assistant', content: [text(value)] });
const call = (id: string, name: string, args: string): LlmMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', id, name, arguments: args }],
});
const result = (id: string, content: string): LlmMessage => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: id, content }] });
const tools = (...names: string[]) => names.map((name) => ({ type: 'function' as const, name, parameters: { type: 'object' } }));
const REMINDER = '<system-reminder>\nAs you answer, keep the todo list in mind.\n</system-reminder>\n';

function run(request: LlmRequest, policies: PolicyConfig, target: LlmRequest['model'] = 'openai-chat'): LlmRequest {
  return applyPolicies(request, policies, { target: target as never });
}

describe('policies, one at a time', () => {
  it('are all off without configuration', () => {
    const request: LlmRequest = { model: 'm', messages: [user(`${REMINDER}hi`), user(`${REMINDER}hi`)], tools: tools('ls') };
    const copy = structuredClone(request);
    expect(applyPolicies(request, undefined, { target: 'claude' })).toEqual(copy);
    expect(applyPolicies(request, {}, { target: 'claude' })).toEqual(copy);
  });

  it('system-reminder stripping cleans user text and tool results, dropping parts left empty', () => {
    const out = run(
      {
        model: 'm',
        messages: [
          { role: 'user', content: [text(REMINDER), text('list the files')] },
          call('c1', 'ls', '{}'),
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', content: [text('a.txt'), text(REMINDER)] }] },
          result('c2', `b.txt\n${REMINDER}`),
          user(REMINDER),
        ],
      },
      { stripSystemReminders: true },
    );
    expect(out.messages).toEqual([
      { role: 'user', content: [text('list the files')] },
      call('c1', 'ls', '{}'),
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', content: [text('a.txt')] }] },
      result('c2', 'b.txt\n'),
    ]);
  });

  it('loop guard: an identical call (same arguments in any spacing and key order) adds the instruction', () => {
    const messages = [
      user('read it'),
      call('c1', 'read', '{"path":"a","n":1}'),
      result('c1', 'A'),
      call('c2', 'read', '{ "n": 1, "path": "a" }'),
      result('c2', 'A'),
    ];
    expect(run({ model: 'm', messages: structuredClone(messages) }, { loopGuard: true }).messages).toEqual([
      ...messages,
      { role: 'system', content: [text(LOOP_GUARD_INSTRUCTION)] },
    ]);
    const different = [user('read it'), call('c1', 'read', '{"path":"a"}'), result('c1', 'A'), call('c2', 'read', '{"path":"b"}'), result('c2', 'B')];
    expect(run({ model: 'm', messages: structuredClone(different) }, { loopGuard: true }).messages).toEqual(different);
    const textBetween = [call('c1', 'read', '{}'), result('c1', 'A'), assistant('done'), user('again'), call('c2', 'read', '{}'), result('c2', 'A')];
    expect(run({ model: 'm', messages: structuredClone(textBetween) }, { loopGuard: true }).messages).toEqual(textBetween);
  });

  it('read-only intent limits tools to the allowlist and keeps tool_choice valid (REGRESSIONS #18)', () => {
    const policies: PolicyConfig = { readOnlyTools: { allow: ['read', 'grep'] } };
    const asked = (question: string, choice?: LlmRequest['toolChoice']): LlmRequest => {
      const request: LlmRequest = { model: 'm', messages: [user(question)], tools: tools('read', 'write', 'grep') };
      if (choice) request.toolChoice = choice;
      return run(request, policies);
    };
    expect(asked('explain what main.ts does')).toEqual({ model: 'm', messages: [user('explain what main.ts does')], tools: tools('read', 'grep') });
    expect(asked('show the config', { type: 'tool', name: 'write' }).toolChoice).toEqual({ type: 'required' });
    expect(asked('show the config', { type: 'allowed', names: ['write', 'grep'], mode: 'auto' }).toolChoice).toEqual({
      type: 'allowed',
      names: ['grep'],
      mode: 'auto',
    });
    // A write word wins over a read word.
    expect(asked('explain and fix the bug').tools).toEqual(tools('read', 'write', 'grep'));
    // Nothing allowed: the tools stay declared (history may call them) but none may be called.
    const none = run({ model: 'm', messages: [user('list files')], tools: tools('write') }, policies);
    expect(none).toEqual({ model: 'm', messages: [user('list files')], tools: tools('write'), toolChoice: { type: 'none' } });
  });
});

describe('context strategies', () => {
  const claudeOrigin = { protocol: 'claude' as const };
  const conversation = (): LlmMessage[] => [
    user('find the bug'),
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'look at main', signature: 'sig-1', origin: claudeOrigin },
        text('Reading.'),
        { type: 'tool-call', id: 'c1', name: 'read', arguments: { path: 'main.ts' } },
      ],
    },
    result('c1', 'code'),
    assistant('Line 3 is wrong.'),
    user('fix it'),
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'edit line 3', signature: 'sig-2', origin: claudeOrigin },
        { type: 'tool-call', id: 'c2', name: 'edit', arguments: { line: 3 } },
      ],
    },
    result('c2', 'edited'),
  ];

  it('full keeps everything', () => {
    expect(run({ model: 'm', messages: conversation() }, { contextStrategy: 'full' }, 'gemini').messages).toEqual(conversation());
  });

  it('tool drops the reasoning of earlier turns, keeps the current tool loop whole', () => {
    const expected = conversation();
    expected[1] = { role: 'assistant', content: [text('Reading.'), { type: 'tool-call', id: 'c1', name: 'read', arguments: { path: 'main.ts' } }] };
    expect(run({ model: 'm', messages: conversation() }, { contextStrategy: 'tool' }, 'gemini').messages).toEqual(expected);
  });

  it('minimal drops reasoning and tool segments of earlier turns, keeps the current tool loop whole', () => {
    const current = conversation().slice(4);
    expect(run({ model: 'm', messages: conversation() }, { contextStrategy: 'minimal' }, 'gemini').messages).toEqual([
      user('find the bug'),
      { role: 'assistant', content: [text('Reading.')] },
      assistant('Line 3 is wrong.'),
      ...current,
    ]);
  });

  it('adaptive drops reasoning the target cannot verify, and nothing toward its issuer', () => {
    const stripped = conversation().map((message) =>
      message.role === 'assistant' ? { ...message, content: message.content.filter((part) => part.type !== 'reasoning') } : message,
    );
    expect(run({ model: 'm', messages: conversation() }, { contextStrategy: 'adaptive' }, 'gemini').messages).toEqual(stripped);
    expect(run({ model: 'm', messages: conversation() }, { contextStrategy: 'adaptive' }, 'claude').messages).toEqual(conversation());
  });
});

// The validation plan, through a real bridge: an OpenAI Chat client (Claude Code style history
// through a Chat-speaking tool) to an OpenAI Responses upstream.
const ALL: PolicyConfig = {
  stripSystemReminders: true,
  toolChoiceNoneAfterToolResults: true,
  dedupeHistoryReplay: true,
  loopGuard: true,
  readOnlyTools: { allow: ['ls', 'read'] },
  contextStrategy: 'minimal',
};
const chatTools = ['ls', 'read', 'write'].map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } }));
const responsesTools = ['ls', 'read', 'write'].map((name) => ({ type: 'function', name, parameters: { type: 'object' }, strict: false }));

function viaPolicies(policies: PolicyConfig) {
  return bridge({
    client: openaiChat,
    upstream: openaiResponses,
    transformRequest: (request) => applyPolicies(request, policies, { target: 'openai-responses' }),
  });
}

describe('validation plan through a Chat -> Responses bridge', () => {
  it('minimal tool chain: reminders stripped, read-only tools, tool_choice none after the result', () => {
    const sent = viaPolicies(ALL).request({
      model: 'gpt-5',
      messages: [
        { role: 'system', content: 'You are a coding agent.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: REMINDER },
            { type: 'text', text: 'list the files' },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: `a.txt\n${REMINDER}` },
      ],
      tools: chatTools,
    });
    expect(sent.body).toEqual({
      model: 'gpt-5',
      instructions: 'You are a coding agent.',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list the files' }] },
        { type: 'function_call', call_id: 'call_1', name: 'ls', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'a.txt\n' },
      ],
      tools: responsesTools.slice(0, 2),
      tool_choice: 'none',
    });
  });

  it('mixed tool_result + text turn: the results still end the tool chain; a text-only turn does not', () => {
    const history = [
      { role: 'user', content: 'what is in a.txt?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'hello' },
    ];
    const policies: PolicyConfig = { toolChoiceNoneAfterToolResults: true };
    const mixed = viaPolicies(policies).request({ model: 'gpt-5', messages: [...history, { role: 'user', content: 'and in b.txt?' }], tools: chatTools });
    expect(mixed.body).toEqual({
      model: 'gpt-5',
      input: [
        { type: 'message', role: 'user', content: 'what is in a.txt?' },
        { type: 'function_call', call_id: 'call_1', name: 'read', arguments: '{"path":"a.txt"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'hello' },
        { type: 'message', role: 'user', content: 'and in b.txt?' },
      ],
      tools: responsesTools,
      tool_choice: 'none',
    });
    const answered = viaPolicies(policies).request({
      model: 'gpt-5',
      messages: [...history, { role: 'assistant', content: 'It says hello.' }, { role: 'user', content: 'and in b.txt?' }],
      tools: chatTools,
    });
    expect((answered.body as Record<string, unknown>).tool_choice).toBeUndefined();
  });

  it('history replay: a re-sent user turn (reminder aside) is dropped once', () => {
    const sent = viaPolicies(ALL).request({
      model: 'gpt-5',
      messages: [
        { role: 'user', content: 'write the tests' },
        { role: 'user', content: `${REMINDER}write the tests` },
      ],
    });
    // A lone user string is written as Responses' string input.
    expect(sent.body).toEqual({ model: 'gpt-5', input: 'write the tests' });
  });

  it('intentional refresh: the same question after an answer is kept', () => {
    const sent = viaPolicies(ALL).request({
      model: 'gpt-5',
      messages: [
        { role: 'user', content: 'write the tests' },
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: 'write the tests' },
      ],
    });
    expect(sent.body).toEqual({
      model: 'gpt-5',
      input: [
        { type: 'message', role: 'user', content: 'write the tests' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] },
        { type: 'message', role: 'user', content: 'write the tests' },
      ],
    });
  });
});

describe('streaming through the handler', () => {
  let mock: MockUpstream | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('policies shape the upstream request of a streaming client; the stream passes through', async () => {
    const chunks = [
      {
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'gpt-up',
        choices: [{ index: 0, delta: { role: 'assistant', content: 'a.txt' }, finish_reason: null }],
      },
      { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-up', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ];
    mock = await startUpstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`);
    });
    const handler = createHandler({
      upstreams: { up: { protocol: 'openai-chat', baseUrl: `${mock.baseUrl}/v1`, apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'up', model: 'gpt-up' }],
      policies: ALL,
    });
    const response = await handler(
      new Request('http://router.test/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'gpt-5',
          stream: true,
          messages: [
            { role: 'user', content: `${REMINDER}list the files` },
            { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
            { role: 'tool', tool_call_id: 'call_1', content: 'a.txt' },
          ],
          tools: chatTools,
        }),
      }),
    );
    expect(response.status).toBe(200);
    const events = [];
    for await (const event of decodeSse(response.body as ReadableStream<Uint8Array>) as unknown as AsyncIterable<{ data: string }>) events.push(event.data);
    expect(events.map((data) => (data === '[DONE]' ? data : (JSON.parse(data) as { choices: unknown[] }).choices))).toEqual([
      [{ index: 0, delta: { role: 'assistant', content: 'a.txt' }, finish_reason: null }],
      [{ index: 0, delta: {}, finish_reason: 'stop' }],
      '[DONE]',
    ]);
    expect(mock.received[0]?.body).toEqual({
      model: 'gpt-up',
      stream: true,
      // Asked of every streaming Chat upstream so the ledger sees usage; the client did not ask, so gets no usage chunk.
      stream_options: { include_usage: true },
      messages: [
        { role: 'user', content: 'list the files' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'a.txt' },
      ],
      tools: chatTools.slice(0, 2),
      tool_choice: 'none',
    });
  });
});
