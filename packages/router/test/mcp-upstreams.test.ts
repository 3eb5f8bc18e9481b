// The MCP loop against the real Chat and Gemini wires (upstreams without hosted MCP): the
// upstream bodies each turn sends and the answers they read are the real codecs'; the clients
// are the fake Responses and Claude codecs (canonical wire, real traits), so the answer the loop
// builds is asserted event by event. How Responses and Claude clients write MCP parts is their
// codecs' (issue 24's mapping).
import { describe, expect, it } from 'vitest';
import type { ProtocolId } from '@llm/core';
import { defaultCodecs } from '../src/registry.js';
import { fakeCodec, parseFakeSse } from './fake-codec.js';
import { DOCS_TOOLS, fakeHost, replyText, scriptedRouter } from './mcp-fakes.js';
import { answer } from './upstream-answer.js';

const DOCS = { type: 'mcp', name: 'docs', url: 'https://mcp.example/mcp' };
const USER = { role: 'user', content: [{ type: 'text', text: 'find x' }] };
const LISTING = { type: 'mcp-list-tools', id: expect.stringMatching(/^mcpl_[0-9a-f]{32}$/), server: 'docs', tools: DOCS_TOOLS };
const SUMMED = { inputTokens: 40, outputTokens: 12, totalTokens: 52 };

const sse = (items: unknown[], done = '') => items.map((item) => `data: ${JSON.stringify(item)}\n\n`).join('') + done;
const json = (body: unknown) => answer(200, 'application/json', [JSON.stringify(body)]);
const events = (body: unknown[], done = '') => answer(200, 'text/event-stream', [sse(body, done)]);

function loopRouter(client: ProtocolId, upstream: ProtocolId, answers: Parameters<typeof scriptedRouter>[1]) {
  const host = fakeHost({ docs: DOCS_TOOLS });
  const scripted = scriptedRouter(
    {
      codecs: { ...defaultCodecs(), [client]: fakeCodec(client) },
      upstreams: { up: { protocol: upstream, baseUrl: 'http://up.test', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'up' }],
      mcp: { host },
    },
    answers,
  );
  return { ...scripted, host };
}

const part = (index: number, value: unknown) => [
  { type: 'block-start', index, block: { kind: 'part', part: value } },
  { type: 'block-end', index },
];

// Chat's tools and turns.
const CHAT_TOOLS = [
  { type: 'function', function: { name: 'mcp__docs__search', description: 'Search the docs', parameters: DOCS_TOOLS[0]?.inputSchema } },
  { type: 'function', function: { name: 'mcp__docs__fetch', description: 'Fetch a page', parameters: DOCS_TOOLS[1]?.inputSchema } },
];
const chunk = (id: string, choices: unknown[], extra: Record<string, unknown> = {}) => ({
  id,
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-x',
  choices,
  ...extra,
});
const chatUsage = (prompt: number, completion: number) => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion });

describe('a Chat upstream calling MCP tools for a Responses client', () => {
  it('JSON: two turns, the second with the call and its result as Chat messages', async () => {
    const { call, bodies, sent } = loopRouter('openai-responses', 'openai-chat', [
      json({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-x',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'mcp__docs__search', arguments: '{"q":"x"}' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: chatUsage(10, 5),
      }),
      json({
        id: 'chatcmpl-2',
        object: 'chat.completion',
        created: 2,
        model: 'gpt-x',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Found.' }, finish_reason: 'stop' }],
        usage: chatUsage(30, 7),
      }),
    ]);
    const reply = await call('/openai-responses/generate', { model: 'm', messages: [USER], tools: [DOCS] });
    expect(reply.status).toBe(200);
    expect(sent.map((request) => request.url)).toEqual(['http://up.test/chat/completions', 'http://up.test/chat/completions']);
    expect(bodies()).toEqual([
      { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'find x' }] }], tools: CHAT_TOOLS },
      {
        model: 'm',
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'find x' }] },
          { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'mcp__docs__search', arguments: '{"q":"x"}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: 'search({"q":"x"})' },
        ],
        tools: CHAT_TOOLS,
      },
    ]);
    const body = JSON.parse(await replyText(reply)) as { id: string; choices: [{ content: unknown[]; finishReason: string }]; usage: unknown };
    expect(body.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(body.choices[0].content).toEqual([
      LISTING,
      { type: 'mcp-call', id: 'call_1', server: 'docs', name: 'search', arguments: '{"q":"x"}' },
      { type: 'mcp-result', callId: 'call_1', content: 'search({"q":"x"})' },
      { type: 'text', text: 'Found.' },
    ]);
    expect(body.choices[0].finishReason).toBe('stop');
    expect(body.usage).toEqual(SUMMED);
  });

  it('reports a translation loss of the request once, not once per turn', async () => {
    const { call, records, sent } = loopRouter('openai-responses', 'openai-chat', [
      json({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-x',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'mcp__docs__search', arguments: '{}' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
      }),
      json({
        id: 'chatcmpl-2',
        object: 'chat.completion',
        created: 2,
        model: 'gpt-x',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      }),
    ]);
    const reply = await call('/openai-responses/generate', { model: 'm', messages: [USER], tools: [DOCS], sampling: { topK: 5 } });
    expect(reply.status).toBe(200);
    expect(sent).toHaveLength(2);
    expect(records[0]?.warnings).toEqual([{ code: 'dropped-field', path: 'sampling.topK', message: 'openai-chat has no top_k', protocol: 'openai-chat' }]);
  });

  it('streamed: one continuous stream over both turns, usage summed from the usage chunks', async () => {
    const { call, bodies, records } = loopRouter('openai-responses', 'openai-chat', [
      events(
        [
          chunk('chatcmpl-1', [{ index: 0, delta: { role: 'assistant', content: 'Looking.' }, finish_reason: null }]),
          chunk('chatcmpl-1', [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'mcp__docs__search', arguments: '' } }] },
              finish_reason: null,
            },
          ]),
          chunk('chatcmpl-1', [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"q":"x"}' } }] }, finish_reason: null }]),
          chunk('chatcmpl-1', [{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
          chunk('chatcmpl-1', [], { usage: chatUsage(10, 5) }),
        ],
        'data: [DONE]\n\n',
      ),
      events(
        [
          chunk('chatcmpl-2', [{ index: 0, delta: { role: 'assistant', content: 'Found.' }, finish_reason: null }]),
          chunk('chatcmpl-2', [{ index: 0, delta: {}, finish_reason: 'stop' }]),
          chunk('chatcmpl-2', [], { usage: chatUsage(30, 7) }),
        ],
        'data: [DONE]\n\n',
      ),
    ]);
    const reply = await call('/openai-responses/generate', { model: 'm', stream: true, messages: [USER], tools: [DOCS] });
    expect(parseFakeSse(await replyText(reply))).toEqual([
      { type: 'start', id: expect.stringMatching(/^resp_[0-9a-f]{32}$/), model: 'gpt-x', created: 1 },
      ...part(0, LISTING),
      { type: 'block-start', index: 1, block: { kind: 'text' } },
      { type: 'text-delta', index: 1, text: 'Looking.' },
      { type: 'block-end', index: 1 },
      ...part(2, { type: 'mcp-call', id: 'call_1', server: 'docs', name: 'search', arguments: '{"q":"x"}' }),
      ...part(3, { type: 'mcp-result', callId: 'call_1', content: 'search({"q":"x"})' }),
      { type: 'block-start', index: 4, block: { kind: 'text' } },
      { type: 'text-delta', index: 4, text: 'Found.' },
      { type: 'block-end', index: 4 },
      { type: 'finish', reason: 'stop', rawReason: 'stop', usage: SUMMED },
    ]);
    expect(bodies()[1]?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'find x' }] },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Looking.' }],
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'mcp__docs__search', arguments: '{"q":"x"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'search({"q":"x"})' },
    ]);
    expect(bodies()[1]?.stream_options).toEqual({ include_usage: true });
    expect(records[0]).toMatchObject({ status: 200, stream: true, usage: SUMMED, mcpCalls: [{ server: 'docs', tool: 'search', isError: false }] });
  });
});

// Gemini's tools and turns.
const GEMINI_TOOLS = [
  {
    functionDeclarations: [
      { name: 'mcp__docs__search', description: 'Search the docs', parametersJsonSchema: DOCS_TOOLS[0]?.inputSchema },
      { name: 'mcp__docs__fetch', description: 'Fetch a page', parametersJsonSchema: DOCS_TOOLS[1]?.inputSchema },
    ],
  },
];
const candidate = (parts: unknown[], finishReason?: string) => ({ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) });
const geminiUsage = (prompt: number, candidates: number) => ({
  promptTokenCount: prompt,
  candidatesTokenCount: candidates,
  totalTokenCount: prompt + candidates,
});

describe('a Gemini upstream calling MCP tools for a Claude client', () => {
  it('JSON: parallel calls in one turn, both answered by name in the next', async () => {
    const { call, bodies, host } = loopRouter('claude', 'gemini', [
      json({
        candidates: [
          candidate(
            [{ functionCall: { name: 'mcp__docs__search', args: { q: 'x' } } }, { functionCall: { name: 'mcp__docs__fetch', args: { url: 'u' } } }],
            'STOP',
          ),
        ],
        usageMetadata: geminiUsage(10, 5),
        modelVersion: 'gemini-x',
        responseId: 'g1',
      }),
      json({ candidates: [candidate([{ text: 'Found.' }], 'STOP')], usageMetadata: geminiUsage(30, 7), modelVersion: 'gemini-x', responseId: 'g2' }),
    ]);
    const reply = await call('/claude/generate', { model: 'm', messages: [USER], tools: [DOCS] });
    expect(reply.status).toBe(200);
    expect(bodies()).toEqual([
      { contents: [{ role: 'user', parts: [{ text: 'find x' }] }], tools: GEMINI_TOOLS },
      {
        contents: [
          { role: 'user', parts: [{ text: 'find x' }] },
          {
            role: 'model',
            parts: [
              // The ids the Gemini codec made up for id-less calls stay its own (it sends them on results only).
              { functionCall: { name: 'mcp__docs__search', args: { q: 'x' } } },
              { functionCall: { name: 'mcp__docs__fetch', args: { url: 'u' } } },
            ],
          },
          {
            role: 'user',
            parts: [
              { functionResponse: { name: 'mcp__docs__search', response: { output: 'search({"q":"x"})' }, id: 'call_g1_0' } },
              { functionResponse: { name: 'mcp__docs__fetch', response: { output: 'fetch({"url":"u"})' }, id: 'call_g1_1' } },
            ],
          },
        ],
        tools: GEMINI_TOOLS,
      },
    ]);
    const body = JSON.parse(await replyText(reply)) as { id: string; choices: [{ content: unknown[]; finishReason: string }]; usage: unknown };
    expect(body.id).toBe('g1');
    expect(body.choices[0].content).toEqual([
      LISTING,
      { type: 'mcp-call', id: 'call_g1_0', server: 'docs', name: 'search', arguments: '{"q":"x"}' },
      { type: 'mcp-result', callId: 'call_g1_0', content: 'search({"q":"x"})' },
      { type: 'mcp-call', id: 'call_g1_1', server: 'docs', name: 'fetch', arguments: '{"url":"u"}' },
      { type: 'mcp-result', callId: 'call_g1_1', content: 'fetch({"url":"u"})' },
      { type: 'text', text: 'Found.' },
    ]);
    expect(body.usage).toEqual(SUMMED);
    expect(host.seen.filter((seen) => seen.op === 'call').map((seen) => seen.tool)).toEqual(['search', 'fetch']);
  });

  it('streamed: one start (the first turn’s id), the calls as parts, one finish with summed usage', async () => {
    const { call, records } = loopRouter('claude', 'gemini', [
      events([
        {
          candidates: [candidate([{ functionCall: { name: 'mcp__docs__search', args: { q: 'x' } } }], 'STOP')],
          usageMetadata: geminiUsage(10, 5),
          modelVersion: 'gemini-x',
          responseId: 'g1',
        },
      ]),
      events([
        { candidates: [candidate([{ text: 'Found.' }])], modelVersion: 'gemini-x', responseId: 'g2' },
        { candidates: [candidate([{ text: '' }], 'STOP')], usageMetadata: geminiUsage(30, 7), modelVersion: 'gemini-x', responseId: 'g2' },
      ]),
    ]);
    const reply = await call('/claude/generate', { model: 'm', stream: true, messages: [USER], tools: [DOCS] });
    expect(parseFakeSse(await replyText(reply))).toEqual([
      { type: 'start', id: 'g1', model: 'gemini-x' },
      ...part(0, LISTING),
      ...part(1, { type: 'mcp-call', id: 'call_g1_0', server: 'docs', name: 'search', arguments: '{"q":"x"}' }),
      ...part(2, { type: 'mcp-result', callId: 'call_g1_0', content: 'search({"q":"x"})' }),
      { type: 'block-start', index: 3, block: { kind: 'text' } },
      { type: 'text-delta', index: 3, text: 'Found.' },
      { type: 'block-end', index: 3 },
      { type: 'finish', reason: 'stop', rawReason: 'STOP', usage: SUMMED },
    ]);
    expect(records[0]).toMatchObject({ status: 200, stream: true, usage: SUMMED });
  });
});
