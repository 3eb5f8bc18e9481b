import type { LlmMessage, LlmRequest } from '@llm/core';
import { describe, expect, it } from 'vitest';
import type { PolicyConfig, RouterConfig } from '../src/config.js';
import { createHandler } from '../src/handler.js';
import {
  DEFAULT_READ_WORDS,
  DEFAULT_WRITE_WORDS,
  LOOP_GUARD_INSTRUCTION,
  UP_FRONT_LOOP_GUARD_INSTRUCTION,
  applyPolicies,
  normaliseMessageContent,
} from '../src/policies.js';

// The rules of the Claude Code -> OpenAI design (R1, R2, R8, R10, read-only intent), each policy
// on canonical requests with the exact output, and R1 through the handler (it runs before decoding).

const text = (value: string) => ({ type: 'text' as const, text: value });
const user = (value: string): LlmMessage => ({ role: 'user', content: [text(value)] });
const system = (...values: string[]): LlmMessage => ({ role: 'system', content: values.map(text) });
const assistant = (value: string): LlmMessage => ({ role: 'assistant', content: [text(value)] });
const call = (id: string, name: string, args: string): LlmMessage => ({ role: 'assistant', content: [{ type: 'tool-call', id, name, arguments: args }] });
const result = (id: string, content: string): LlmMessage => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: id, content }] });
const tools = (...names: string[]) => names.map((name) => ({ type: 'function' as const, name, parameters: { type: 'object' } }));
const REMINDER = '<system-reminder>\nToday is Tuesday.\n</system-reminder>\n';

const run = (request: LlmRequest, policies: PolicyConfig): LlmRequest => applyPolicies(request, policies, { target: 'openai-chat' });

describe('R1 lenient content (before decoding)', () => {
  it('rewrites {text}, one unwrapped text block, {content: string} and {content: [blocks]}; leaves anything else', () => {
    const blocks = [{ type: 'text', text: 'b' }];
    const body = {
      messages: [
        { role: 'user', content: { text: 'a' } },
        { role: 'user', content: { type: 'text', text: 'a2' } },
        { role: 'assistant', content: { content: 'c' } },
        { role: 'user', content: { content: blocks } },
        { role: 'user', content: 'plain' },
        { role: 'user', content: { text: 'x', extra: 1 } },
        { role: 'user', content: { content: 3 } },
      ],
    };
    normaliseMessageContent(body);
    expect(body.messages).toEqual([
      { role: 'user', content: 'a' },
      { role: 'user', content: 'a2' },
      { role: 'assistant', content: 'c' },
      { role: 'user', content: blocks },
      { role: 'user', content: 'plain' },
      { role: 'user', content: { text: 'x', extra: 1 } },
      { role: 'user', content: { content: 3 } },
    ]);
  });

  const chatAnswer = {
    id: 'c',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-up',
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  };
  function handlerWith(policies: PolicyConfig | undefined, seen: unknown[]) {
    const config: RouterConfig = {
      upstreams: { up: { protocol: 'openai-chat', baseUrl: 'http://up.test/v1', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'up', model: 'gpt-up' }],
      transport: async (request) => {
        seen.push(JSON.parse(new TextDecoder().decode(request.body as Uint8Array)));
        return new Response(JSON.stringify(chatAnswer), { headers: { 'content-type': 'application/json' } });
      },
    };
    if (policies) config.policies = policies;
    return createHandler(config);
  }
  const claudeCall = (content: unknown) =>
    new Request('http://router.test/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content }] }),
    });

  it('off (the default): 400 naming the path, nothing sent upstream', async () => {
    const seen: unknown[] = [];
    const response = await handlerWith(undefined, seen)(claudeCall({ text: 'hi' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'messages[0].content: expected an array, got an object' },
    });
    expect(seen).toEqual([]);
  });

  it('on: a Claude client`s {content: [blocks]} reaches the Chat upstream as its text', async () => {
    const seen: unknown[] = [];
    const response = await handlerWith({ lenientContent: true }, seen)(claudeCall({ content: [{ type: 'text', text: 'hi' }] }));
    expect(response.status).toBe(200);
    expect(seen).toEqual([{ model: 'gpt-up', max_completion_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }]);
    const again: unknown[] = [];
    expect((await handlerWith({ lenientContent: true }, again)(claudeCall({ text: 'hi' }))).status).toBe(200);
    expect(again).toEqual([{ model: 'gpt-up', max_completion_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }]);
  });
});

describe('R1 lenient content on count-tokens calls', () => {
  it('the upstream`s own count gets the normalised body', async () => {
    const seen: unknown[] = [];
    const handler = createHandler({
      upstreams: { up: { protocol: 'claude', baseUrl: 'http://up.test', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'up', model: 'claude-up' }],
      countTokens: 'upstream',
      policies: { lenientContent: true },
      transport: async (request) => {
        seen.push(JSON.parse(String(request.body)));
        return new Response('{"input_tokens":5}', { headers: { 'content-type': 'application/json' } });
      },
    });
    const response = await handler(
      new Request('http://router.test/v1/messages/count_tokens', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'claude-x', messages: [{ role: 'user', content: { text: 'hi' } }] }),
      }),
    );
    expect(await response.json()).toEqual({ input_tokens: 5 });
    expect(seen).toEqual([{ model: 'claude-up', messages: [{ role: 'user', content: 'hi' }] }]);
  });
});

describe('R2 system text', () => {
  it('system reminders are stripped from system text too; a system message left empty goes', () => {
    const out = run(
      { model: 'm', messages: [system(`You are an agent.\n${REMINDER}`, REMINDER), system(REMINDER), user('hi')] },
      { stripSystemReminders: true },
    );
    expect(out.messages).toEqual([system('You are an agent.\n'), user('hi')]);
  });

  it('joinSystemText joins blocks with a blank line (or the separator given), keeping the last cache breakpoint', () => {
    const cached: LlmMessage = {
      role: 'system',
      content: [{ ...text('You are Claude Code.'), cache: { ttl: '1h' } }, { ...text('Be brief.'), cache: { ttl: '5m' } }, text('Use tools.')],
    };
    expect(run({ model: 'm', messages: [structuredClone(cached), user('hi')] }, { joinSystemText: true }).messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'You are Claude Code.\n\nBe brief.\n\nUse tools.', cache: { ttl: '5m' } }] },
      user('hi'),
    ]);
    expect(run({ model: 'm', messages: [system('a', 'b'), system('c')] }, { joinSystemText: ' | ' }).messages).toEqual([system('a | b'), system('c')]);
  });
});

describe('R8 replayed and mixed turns', () => {
  const history = (): LlmMessage[] => [
    user('read README'),
    call('c1', 'Read', '{"file_path":"README.md"}'),
    result('c1', '# Demo'),
    assistant('It is a demo.'),
  ];

  it('dedupeHistoryReplay: answered drops a user text already answered, anywhere in the history', () => {
    const messages = [...history(), user('read README'), assistant('Still a demo.'), user('now list the tests')];
    expect(run({ model: 'm', messages: structuredClone(messages) }, { dedupeHistoryReplay: 'answered' }).messages).toEqual([
      ...history(),
      assistant('Still a demo.'),
      user('now list the tests'),
    ]);
    // `true` keeps its meaning: only an immediate repeat goes, a repeat after an answer stays.
    expect(run({ model: 'm', messages: structuredClone(messages) }, { dedupeHistoryReplay: true }).messages).toEqual(messages);
    // A refresh worded differently is new text.
    const refresh = [...history(), user('re-read README')];
    expect(run({ model: 'm', messages: structuredClone(refresh) }, { dedupeHistoryReplay: 'answered' }).messages).toEqual(refresh);
    // Asked but not yet answered (a retry): the immediate rule drops the repeat.
    expect(run({ model: 'm', messages: [user('q'), user('q')] }, { dedupeHistoryReplay: 'answered' }).messages).toEqual([user('q')]);
  });

  it('dropTextBesideToolResults drops plain text in turns carrying results, before or after them; images stay', () => {
    const image = { type: 'image' as const, source: { kind: 'url' as const, url: 'https://example.com/a.png' } };
    const messages: LlmMessage[] = [
      user('read README'),
      call('c1', 'Read', '{}'),
      result('c1', '# Demo'),
      { role: 'user', content: [text('also check the docs'), image] },
      call('c2', 'Read', '{}'),
      user('before'),
      result('c2', '# Docs'),
    ];
    expect(run({ model: 'm', messages }, { dropTextBesideToolResults: true }).messages).toEqual([
      user('read README'),
      call('c1', 'Read', '{}'),
      result('c1', '# Demo'),
      { role: 'user', content: [image] },
      call('c2', 'Read', '{}'),
      result('c2', '# Docs'),
    ]);
    const textOnly = [user('a'), assistant('b'), user('c')];
    expect(run({ model: 'm', messages: structuredClone(textOnly) }, { dropTextBesideToolResults: true }).messages).toEqual(textOnly);
  });
});

describe('R10 up-front loop guard', () => {
  it('up-front: the instruction follows the system messages of every request with tools', () => {
    const out = run({ model: 'm', messages: [system('You are an agent.'), user('read README')], tools: tools('Read') }, { loopGuard: 'up-front' });
    expect(out.messages).toEqual([system('You are an agent.'), system(UP_FRONT_LOOP_GUARD_INSTRUCTION), user('read README')]);
    const noTools = [system('s'), user('hi')];
    expect(run({ model: 'm', messages: structuredClone(noTools) }, { loopGuard: 'up-front' }).messages).toEqual(noTools);
    expect(run({ model: 'm', messages: [user('hi')], tools: tools('Read') }, { loopGuard: true }).messages).toEqual([user('hi')]);
  });

  it('up-front keeps the after-repeat instruction', () => {
    const repeat = [user('read it'), call('c1', 'Read', '{"a":1}'), result('c1', 'A'), call('c2', 'Read', '{"a":1}'), result('c2', 'A')];
    expect(run({ model: 'm', messages: structuredClone(repeat), tools: tools('Read') }, { loopGuard: 'up-front' }).messages).toEqual([
      system(UP_FRONT_LOOP_GUARD_INSTRUCTION),
      ...repeat,
      system(LOOP_GUARD_INSTRUCTION),
    ]);
  });
});

describe('read-only intent words', () => {
  const offered = (question: string, policy: PolicyConfig['readOnlyTools'] = { allow: ['Read', 'Grep'] }) =>
    run({ model: 'm', messages: [user(question)], tools: tools('Read', 'Grep', 'Edit', 'Write') }, { readOnlyTools: policy }).tools?.map((tool) => tool.name);
  const ALL = ['Read', 'Grep', 'Edit', 'Write'];
  const READ_ONLY = ['Read', 'Grep'];

  // Each of the design's words, in an English and in a Chinese sentence.
  it.each([
    ['read', 'read src/main.ts', '请 read 一下 main.ts'],
    ['readme', 'open the README', '看看 README 文件'],
    ['summary', 'give me a summary', '给我一个 summary'],
    ['summarize', 'summarize this repo', '请 summarize 这个仓库'],
    ['解释', 'please 解释 main.ts', '解释一下这个函数'],
    ['总结', 'please 总结 the changes', '总结这个项目'],
  ])('read word %s marks a read-only request', (_word, english, chinese) => {
    expect(offered(english)).toEqual(READ_ONLY);
    expect(offered(chinese)).toEqual(READ_ONLY);
  });

  it.each([
    ['edit', 'read and edit main.ts', '请 read 然后 edit main.ts'],
    ['update', 'read the README and update it', '解释并 update 这个文件'],
    ['修改', 'read main.ts, then 修改 it', '解释并修改这个函数'],
    ['写', 'read the spec and 写 the code', '总结一下然后写测试'],
  ])('write word %s wins over a read word', (_word, english, chinese) => {
    expect(offered(english)).toEqual(ALL);
    expect(offered(chinese)).toEqual(ALL);
  });

  it('Latin words match whole words only; the lists are configurable', () => {
    expect(offered('I already did')).toEqual(ALL);
    expect(offered('reading list')).toEqual(READ_ONLY); // `list`
    expect(offered('查看 main.ts', { allow: ['Read'], readWords: ['查看'] })).toEqual(['Read']);
    expect(offered('read main.ts', { allow: ['Read'], readWords: ['查看'] })).toEqual(ALL);
    expect(offered('read and add a test', { allow: ['Read'], writeWords: [] })).toEqual(['Read']);
    expect(DEFAULT_READ_WORDS.slice(0, 7)).toEqual(['read', 'readme', 'summary', 'summarize', 'summarise', '解释', '总结']);
    expect(DEFAULT_WRITE_WORDS.slice(0, 4)).toEqual(['edit', 'update', '修改', '写']);
  });
});

describe('streaming usage estimate', () => {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-up', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  // An OpenAI-compatible upstream that ignores stream_options.include_usage.
  const noUsage = `${chunk({ role: 'assistant', content: '' })}${chunk({ content: 'Hello 世界' })}${chunk({}, 'stop')}data: [DONE]\n\n`;
  const claudeStream = JSON.stringify({ model: 'claude-x', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] });

  async function streamed(policies: PolicyConfig | undefined, upstreamText: string) {
    const records: { usage?: unknown; usageEstimated?: boolean }[] = [];
    let sentBytes = 0;
    const config: RouterConfig = {
      upstreams: { up: { protocol: 'openai-chat', baseUrl: 'http://up.test/v1', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'up', model: 'gpt-up' }],
      transport: async (request) => {
        sentBytes = (request.body as Uint8Array).length;
        return new Response(upstreamText, { headers: { 'content-type': 'text/event-stream' } });
      },
      hooks: { onRequestEnd: (record) => records.push(record) },
    };
    if (policies) config.policies = policies;
    const response = await createHandler(config)(
      new Request('http://router.test/v1/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: claudeStream,
      }),
    );
    const text = await response.text();
    const delta = text.split('\n').find((line) => line.startsWith('data: {"type":"message_delta"'));
    return { delta: JSON.parse(delta?.slice(6) ?? 'null') as { usage: unknown }, record: records[0], sentBytes };
  }

  it('off (the default): the client gets the zeros the upstream implied, the record no usage', async () => {
    const { delta, record } = await streamed(undefined, noUsage);
    expect(delta.usage).toEqual({ input_tokens: 0, output_tokens: 0 });
    expect(record?.usage).toBeUndefined();
    expect(record?.usageEstimated).toBeUndefined();
  });

  it('on: input from the upstream body size, output one token per three UTF-8 bytes streamed; the record says estimated', async () => {
    const { delta, record, sentBytes } = await streamed({ estimateStreamUsage: true }, noUsage);
    const input = Math.ceil(sentBytes / 3);
    // 'Hello 世界': 6 ASCII bytes + 2 three-byte characters = 12 bytes -> 4 tokens.
    expect(delta.usage).toEqual({ input_tokens: input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 4 });
    expect(record?.usage).toEqual({ inputTokens: input, outputTokens: 4, totalTokens: input + 4 });
    expect(record?.usageEstimated).toBe(true);
  });

  it('on, with usage reported: the upstream`s numbers pass unchanged and nothing is marked', async () => {
    const usage = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-up', choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } })}\n\n`;
    const { delta, record } = await streamed({ estimateStreamUsage: true }, noUsage.replace('data: [DONE]', `${usage}data: [DONE]`));
    expect(delta.usage).toEqual({ input_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 3 });
    expect(record?.usageEstimated).toBeUndefined();
  });
});
