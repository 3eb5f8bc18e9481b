import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/ledger/sqlite.js';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type Gateway, startGateway } from '../src/server/start.js';
import { type RecordingUpstream, startRecordingUpstream } from './helpers/recording-upstream.js';

/**
 * The design's validation experiments E1-E5 for Claude Code on an OpenAI Chat upstream, through
 * the gateway with the README's "Claude Code on OpenAI" config: the Anthropic SDK as the client,
 * the mock Chat upstream recording what it receives. Each asserts what the upstream saw and what
 * the client got.
 */

const README_CONFIG =
  /## Claude Code on OpenAI\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readFileSync(new URL('../README.md', import.meta.url), 'utf8'))?.[1] ?? '';

/** The README's config against the recording upstream, `policies` changed by `overrides`. */
function readmeConfig(baseUrl: string, overrides: Record<string, unknown>, ledger: { path: string } | false = false) {
  const config = parseConfig(README_CONFIG, { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: 'sk-upstream' });
  return { ...config, policies: { ...config.policies, ...overrides }, ledger, maxRetries: 0 };
}

const REMINDER = '<system-reminder>\nThe date is 2026-11-25.\n</system-reminder>\n';
const SYSTEM: Anthropic.TextBlockParam[] = [
  { type: 'text', text: 'You are Claude Code.' },
  { type: 'text', text: `Help with the repository.\n${REMINDER}` },
];
const SCHEMA = { type: 'object' as const, properties: { file_path: { type: 'string' } }, required: ['file_path'] };
const CLIENT_TOOLS: Anthropic.Tool[] = ['Read', 'Grep', 'Edit', 'Write'].map((name) => ({ name, description: `${name} a file`, input_schema: SCHEMA }));
const chatTool = (name: string) => ({ type: 'function', function: { name, description: `${name} a file`, parameters: SCHEMA } });
const ALL_TOOLS = ['Read', 'Grep', 'Edit', 'Write'].map(chatTool);
const READ_TOOLS = ['Read', 'Grep'].map(chatTool);
const UP_FRONT =
  'Do not call a tool again with the same arguments once you have its result: use the result you already have. Call a tool again only when the user asks to refresh it.';
const SYSTEM_SEEN = [
  { role: 'system', content: 'You are Claude Code.\n\nHelp with the repository.\n' },
  { role: 'system', content: UP_FRONT },
];
const READ_CALL = { id: 'call_mock_read', type: 'function', function: { name: 'Read', arguments: '{"file_path":"README.md"}' } };
const README = '# Demo\nA demo repository.';

interface Setup {
  gateway: Gateway;
  upstream: RecordingUpstream;
  client: Anthropic;
}

interface SetupOptions {
  ledger?: { path: string };
  withoutStreamUsage?: boolean;
}

function gatewayWith(overrides: Record<string, unknown> = {}, options: SetupOptions = {}): Setup {
  const setup = {} as Setup;
  beforeAll(async () => {
    setup.upstream = await startRecordingUpstream('openai-chat', { withoutStreamUsage: options.withoutStreamUsage });
    setup.gateway = await startGateway(readmeConfig(setup.upstream.baseUrl, overrides, options.ledger ?? false), { port: 0, logger: createLogger('silent') });
    setup.client = new Anthropic({ apiKey: 'unused', baseURL: setup.gateway.url, maxRetries: 0 });
  });
  afterAll(async () => {
    await setup.gateway?.close();
    await setup.upstream?.close();
  });
  return setup;
}

/** The client's first turn and the assistant turn answering it with a Read call. */
const asked: Anthropic.MessageParam = {
  role: 'user',
  content: [
    { type: 'text', text: REMINDER },
    { type: 'text', text: 'read README.md' },
  ],
};
const readCall: Anthropic.MessageParam = {
  role: 'assistant',
  content: [{ type: 'tool_use', id: 'call_mock_read', name: 'Read', input: { file_path: 'README.md' } }],
};
const readResult = (...extra: Anthropic.TextBlockParam[]): Anthropic.MessageParam => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: 'call_mock_read', content: README }, ...extra],
});

const USER_READ = { role: 'user', content: [{ type: 'text', text: 'read README.md' }] };
const TOOL_LOOP = [USER_READ, { role: 'assistant', tool_calls: [READ_CALL] }, { role: 'tool', tool_call_id: 'call_mock_read', content: README }];

/** What the Chat upstream receives: the client's system text joined and cleaned, the up-front guard, then `messages`. */
function upstreamSaw(messages: unknown[], rest: Record<string, unknown>) {
  return { model: 'gpt-4.1', max_completion_tokens: 512, messages: [...SYSTEM_SEEN, ...messages], ...rest };
}

function request(messages: Anthropic.MessageParam[]): Anthropic.MessageCreateParamsNonStreaming {
  return { model: 'claude-sonnet-4-5', max_tokens: 512, system: SYSTEM, tools: CLIENT_TOOLS, messages, stream: false };
}

describe('Claude Code on OpenAI: the validation experiments through the gateway', () => {
  const setup = gatewayWith();

  it('rejects a policy value the router does not know, naming the field', () => {
    const withPolicies = (policies: unknown) =>
      parseConfig(
        JSON.stringify({ upstreams: { a: { protocol: 'claude', baseUrl: 'http://up.test' } }, routes: [{ match: '*', upstream: 'a' }], policies }),
        {},
      );
    expect(() => withPolicies({ loopGuard: 'sometimes' })).toThrow('config: policies.loopGuard: expected (boolean | "up-front")');
    expect(() => withPolicies({ dedupeHistoryReplay: 'always' })).toThrow('config: policies.dedupeHistoryReplay: expected (boolean | "answered")');
    expect(() => withPolicies({ readOnlyTools: { allow: [], readWords: 'read' } })).toThrow('config: policies.readOnlyTools.readWords: expected Array');
  });

  it('runs the README`s config', () => {
    expect(readmeConfig('http://up.test/v1', {}).policies).toEqual({
      lenientContent: true,
      stripSystemReminders: true,
      joinSystemText: true,
      toolChoiceNoneAfterToolResults: true,
      dedupeHistoryReplay: 'answered',
      dropTextBesideToolResults: false,
      loopGuard: 'up-front',
      readOnlyTools: { allow: ['Read', 'Grep'] },
      estimateStreamUsage: true,
    });
  });

  it('E1 minimal tool chain: a Read call first, then after its result a text answer and no repeated Read', async () => {
    const first = await setup.client.messages.create(request([asked]));
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content).toEqual([{ type: 'tool_use', id: 'call_mock_read', name: 'Read', input: { file_path: 'README.md' } }]);
    const second = await setup.client.messages.create(request([asked, readCall, readResult()]));
    expect(second.stop_reason).toBe('end_turn');
    expect(second.content).toEqual([{ type: 'text', text: `Tool said: ${README}` }]);
    expect(setup.upstream.received.slice(-2)).toEqual([
      {
        model: 'gpt-4.1',
        max_completion_tokens: 512,
        messages: [...SYSTEM_SEEN, { role: 'user', content: [{ type: 'text', text: 'read README.md' }] }],
        stream: false,
        // R3: no tool_choice from the client, none written (Chat's default with tools is auto).
        tools: READ_TOOLS,
      },
      {
        model: 'gpt-4.1',
        max_completion_tokens: 512,
        messages: [
          ...SYSTEM_SEEN,
          { role: 'user', content: [{ type: 'text', text: 'read README.md' }] },
          { role: 'assistant', tool_calls: [READ_CALL] },
          { role: 'tool', tool_call_id: 'call_mock_read', content: README },
        ],
        stream: false,
        tools: READ_TOOLS,
        tool_choice: 'none',
      },
    ]);
  });

  it('E3 history replay: the user text replayed beside the tool result is not forwarded again; no new tool call', async () => {
    const answer = await setup.client.messages.create(request([asked, readCall, readResult({ type: 'text', text: 'read README.md' })]));
    expect(answer.content).toEqual([{ type: 'text', text: `Tool said: ${README}` }]);
    expect(setup.upstream.received.at(-1)).toEqual(upstreamSaw(TOOL_LOOP, { stream: false, tools: READ_TOOLS, tool_choice: 'none' }));
  });

  it('E4 intentional refresh: "re-read README.md" after the answer gets a new Read call', async () => {
    const answered: Anthropic.MessageParam = { role: 'assistant', content: [{ type: 'text', text: `Tool said: ${README}` }] };
    const refresh = await setup.client.messages.create(request([asked, readCall, readResult(), answered, { role: 'user', content: 're-read README.md' }]));
    expect(refresh.stop_reason).toBe('tool_use');
    expect(refresh.content).toEqual([{ type: 'tool_use', id: 'call_mock_read', name: 'Read', input: { file_path: 'README.md' } }]);
    expect(setup.upstream.received.at(-1)).toEqual(
      upstreamSaw(
        [...TOOL_LOOP, { role: 'assistant', content: [{ type: 'text', text: `Tool said: ${README}` }] }, { role: 'user', content: 're-read README.md' }],
        { stream: false, tools: READ_TOOLS },
      ),
    );
  });

  it('E5 streaming: the tool-discovery turn has no text deltas; after the tool result the text streams as content_block_delta', async () => {
    const events = async (messages: Anthropic.MessageParam[]) => {
      const out: unknown[] = [];
      for await (const event of await setup.client.messages.create({ ...request(messages), stream: true as const })) {
        if (event.type === 'content_block_delta' || event.type === 'content_block_start')
          out.push([event.type, event.index, event.type === 'content_block_delta' ? event.delta : event.content_block]);
        else out.push(event.type);
      }
      return out;
    };
    expect(await events([asked])).toEqual([
      'message_start',
      ['content_block_start', 0, { type: 'tool_use', id: 'call_mock_read', name: 'Read', input: {} }],
      ['content_block_delta', 0, { type: 'input_json_delta', partial_json: '{"file_path":"README.md"}' }],
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(await events([asked, readCall, readResult()])).toEqual([
      'message_start',
      ['content_block_start', 0, { type: 'text', text: '' }],
      ['content_block_delta', 0, { type: 'text_delta', text: 'Tool ' }],
      ['content_block_delta', 0, { type: 'text_delta', text: 'said: ' }],
      ['content_block_delta', 0, { type: 'text_delta', text: '# ' }],
      ['content_block_delta', 0, { type: 'text_delta', text: 'Demo\n' }],
      ['content_block_delta', 0, { type: 'text_delta', text: 'A ' }],
      ['content_block_delta', 0, { type: 'text_delta', text: 'demo ' }],
      ['content_block_delta', 0, { type: 'text_delta', text: 'repository.' }],
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const streamed = { stream: true, stream_options: { include_usage: true } };
    expect(setup.upstream.received.slice(-2)).toEqual([
      upstreamSaw([USER_READ], { ...streamed, tools: READ_TOOLS }),
      upstreamSaw(TOOL_LOOP, { ...streamed, tools: READ_TOOLS, tool_choice: 'none' }),
    ]);
  });

  it('read-only intent in Chinese: 解释 / 总结 keep Edit and Write out of the upstream`s tools, 修改 / 写 keep them', async () => {
    const toolsFor = async (question: string) => {
      await setup.client.messages.create(request([{ role: 'user', content: question }]));
      const sent = setup.upstream.received.at(-1) as { tools: { function: { name: string } }[] };
      return sent.tools.map((tool) => tool.function.name);
    };
    expect(await toolsFor('请解释 README.md 的内容')).toEqual(['Read', 'Grep']);
    expect(await toolsFor('总结这个仓库')).toEqual(['Read', 'Grep']);
    expect(await toolsFor('解释后修改 README.md')).toEqual(['Read', 'Grep', 'Edit', 'Write']);
    expect(await toolsFor('总结一下然后写测试')).toEqual(['Read', 'Grep', 'Edit', 'Write']);
  });

  it('R1 lenient content: a message content given as {content: [blocks]} is accepted', async () => {
    const wrapped = { role: 'user', content: { content: [{ type: 'text', text: 'hello' }] } } as unknown as Anthropic.MessageParam;
    const answer = await setup.client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: [wrapped] });
    expect(answer.content).toEqual([{ type: 'text', text: 'Mock openai-chat says: hello' }]);
    expect(setup.upstream.received.at(-1)).toEqual({
      model: 'gpt-4.1',
      max_completion_tokens: 64,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    });
  });
});

describe('E2 mixed turn (tool_result + text) for both settings of dropTextBesideToolResults', () => {
  const keeping = gatewayWith();
  const dropping = gatewayWith({ dropTextBesideToolResults: true });
  const mixed = [asked, readCall, readResult({ type: 'text', text: 'keep it short' })];

  it('off (the default): the text is forwarded after the result and answered', async () => {
    const answer = await keeping.client.messages.create(request(mixed));
    expect(answer.content).toEqual([{ type: 'text', text: 'Mock openai-chat says: keep it short' }]);
    expect(keeping.upstream.received).toEqual([
      upstreamSaw([...TOOL_LOOP, { role: 'user', content: [{ type: 'text', text: 'keep it short' }] }], {
        stream: false,
        tools: ALL_TOOLS,
        tool_choice: 'none',
      }),
    ]);
  });

  it('on: only the tool result is forwarded, and answered', async () => {
    const answer = await dropping.client.messages.create(request(mixed));
    expect(answer.content).toEqual([{ type: 'text', text: `Tool said: ${README}` }]);
    expect(dropping.upstream.received).toEqual([upstreamSaw(TOOL_LOOP, { stream: false, tools: READ_TOOLS, tool_choice: 'none' })]);
  });
});

describe('streaming usage from an upstream that reports none', () => {
  const ledgerPath = join(mkdtempSync(join(tmpdir(), 'claude-on-openai-')), 'usage.db');
  const setup = gatewayWith({}, { ledger: { path: ledgerPath }, withoutStreamUsage: true });

  it('the client gets an estimate, not zeros; the ledger row is marked estimated', async () => {
    const stream = setup.client.messages.stream(request([asked, readCall, readResult()]));
    const message = await stream.finalMessage();
    const sentBytes = Buffer.byteLength(JSON.stringify(setup.upstream.received.at(-1)));
    const output = Math.ceil(Buffer.byteLength(`Tool said: ${README}`) / 3);
    expect(message.usage).toEqual({
      input_tokens: Math.ceil(sentBytes / 3),
      output_tokens: output,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    // Closing flushes the ledger; afterAll then has no gateway to close.
    await setup.gateway.close();
    setup.gateway = undefined as unknown as Gateway;
    const db = openDatabase(ledgerPath, { readonly: true });
    expect(db.prepare('SELECT stream, input_tokens, output_tokens, usage_estimated FROM requests').all()).toEqual([
      { stream: 1, input_tokens: Math.ceil(sentBytes / 3), output_tokens: output, usage_estimated: 1 },
    ]);
    db.close();
  });
});
