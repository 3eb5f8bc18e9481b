// The router's MCP loop (issue 24) at the canonical level: clients and upstreams of the fake
// codecs (their wire is the canonical JSON, their traits the real ones), so every body and event
// the loop makes is asserted exactly. mcp-upstreams.test.ts runs it against the real Chat and
// Gemini wires.
import { describe, expect, it } from 'vitest';
import { NOT_AN_OBJECT_OUTPUT, TOO_MANY_CALLS_OUTPUT } from '../src/mcp/mcp-calls.js';
import { MAX_MCP_CALLS_PER_TURN, MAX_MCP_SERVERS_PER_REQUEST } from '../src/mcp/mcp-host.js';
import { DENIED_OUTPUT, UNAVAILABLE_OUTPUT } from '../src/mcp/mcp-loop.js';
import { createRouter } from '../src/handler.js';
import { fakeCodecs, fakeSse, parseFakeSse } from './fake-codec.js';
import { DOCS_TOOLS, fakeHost, replyText, scriptedRouter } from './mcp-fakes.js';
import { answer } from './upstream-answer.js';

const DOCS = { type: 'mcp', name: 'docs', url: 'https://mcp.example/mcp' };
const USER = { role: 'user', content: [{ type: 'text', text: 'find x' }] };
const SEARCH_FN = {
  type: 'function',
  name: 'mcp__docs__search',
  parameters: DOCS_TOOLS[0]?.inputSchema,
  description: 'Search the docs',
};
const FETCH_FN = { type: 'function', name: 'mcp__docs__fetch', parameters: DOCS_TOOLS[1]?.inputSchema, description: 'Fetch a page' };
const LISTING = { type: 'mcp-list-tools', id: expect.stringMatching(/^mcpl_[0-9a-f]{32}$/), server: 'docs', tools: DOCS_TOOLS };
const RESPONSE_ID = expect.stringMatching(/^resp_[0-9a-f]{32}$/);

type Usage = { inputTokens: number; outputTokens: number };

/** A JSON turn of a fake upstream. */
function turn(id: string, content: unknown[], finishReason: string, usage: Usage) {
  return answer(200, 'application/json', [JSON.stringify({ id, model: 'up-model', choices: [{ index: 0, content, finishReason }], usage })]);
}

/** A streamed turn of a fake upstream (`finish` left out: a cut stream). */
function streamedTurn(id: string, blocks: unknown[][], finish?: { reason: string; usage: Usage }) {
  const events: unknown[] = [{ type: 'start', id, model: 'up-model' }];
  blocks.forEach((block, index) => {
    const [start, ...deltas] = block as [Record<string, unknown>, ...Record<string, unknown>[]];
    events.push({ type: 'block-start', index, block: start }, ...deltas.map((delta) => ({ ...delta, index })), { type: 'block-end', index });
  });
  if (finish) events.push({ type: 'finish', ...finish });
  return answer(200, 'text/event-stream', [fakeSse(events)]);
}

const call = (id: string, name: string, args: string) => ({ type: 'tool-call', id, name, arguments: args });

/** A streamed first turn calling the docs server's search once. */
const searchTurn = () =>
  streamedTurn(
    't1',
    [
      [
        { kind: 'tool_call', id: 'call_1', name: 'mcp__docs__search' },
        { type: 'tool-args-delta', json: '{}' },
      ],
    ],
    {
      reason: 'tool_calls',
      usage: { inputTokens: 1, outputTokens: 1 },
    },
  );

function router(
  answers: Parameters<typeof scriptedRouter>[1],
  options: { host?: ReturnType<typeof fakeHost>; maxTurns?: number; timeBudgetMs?: number; upstream?: string } = {},
) {
  const host = options.host ?? fakeHost({ docs: DOCS_TOOLS });
  const scripted = scriptedRouter(
    {
      codecs: fakeCodecs(),
      upstreams: { up: { protocol: (options.upstream ?? 'openai-chat') as 'openai-chat', baseUrl: 'http://up.test' } },
      routes: [{ match: '*', upstream: 'up' }],
      mcp: { host, maxTurns: options.maxTurns, timeBudgetMs: options.timeBudgetMs },
    },
    answers,
  );
  return { ...scripted, host };
}

describe('the MCP loop, JSON answers', () => {
  it('lists, offers the tools as functions, runs the call, feeds the result back and answers once with the MCP parts and summed usage', async () => {
    const {
      call: send,
      bodies,
      records,
      host,
    } = router([
      turn('t1', [call('call_1', 'mcp__docs__search', '{"q":"x"}')], 'tool_calls', { inputTokens: 10, outputTokens: 5 }),
      turn('t2', [{ type: 'text', text: 'Found it.' }], 'stop', { inputTokens: 30, outputTokens: 7 }),
    ]);
    const reply = await send('/openai-responses/generate', { model: 'm', messages: [USER], tools: [DOCS] }, {}, 'key-1');
    expect(reply.status).toBe(200);
    expect(JSON.parse(await replyText(reply))).toEqual({
      id: RESPONSE_ID,
      model: 'up-model',
      choices: [
        {
          index: 0,
          content: [
            LISTING,
            { type: 'mcp-call', id: 'call_1', server: 'docs', name: 'search', arguments: '{"q":"x"}' },
            { type: 'mcp-result', callId: 'call_1', content: 'search({"q":"x"})' },
            { type: 'text', text: 'Found it.' },
          ],
          finishReason: 'stop',
        },
      ],
      usage: { inputTokens: 40, outputTokens: 12, totalTokens: 52 },
    });
    expect(bodies()).toEqual([
      { model: 'm', messages: [USER], tools: [SEARCH_FN, FETCH_FN] },
      {
        model: 'm',
        messages: [
          USER,
          { role: 'assistant', content: [call('call_1', 'mcp__docs__search', '{"q":"x"}')] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'mcp__docs__search', content: 'search({"q":"x"})' }] },
        ],
        tools: [SEARCH_FN, FETCH_FN],
      },
    ]);
    expect(host.seen).toEqual([
      { op: 'list', server: 'docs', source: 'client', clientKeyId: 'key-1' },
      { op: 'call', server: 'docs', tool: 'search', args: { q: 'x' }, source: 'client', clientKeyId: 'key-1' },
    ]);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      status: 200,
      upstream: 'up',
      usage: { inputTokens: 40, outputTokens: 12, totalTokens: 52 },
      mcpCalls: [{ server: 'docs', tool: 'search', ms: expect.any(Number), isError: false }],
    });
  });

  it('offers only allowed tools, under names clear of the client’s own', async () => {
    const { call: send, bodies } = router([turn('t1', [{ type: 'text', text: 'ok' }], 'stop', { inputTokens: 1, outputTokens: 1 })]);
    const own = { type: 'function', name: 'mcp__docs__search', parameters: { type: 'object' } };
    const reply = await send('/openai-responses/generate', { model: 'm', messages: [USER], tools: [own, { ...DOCS, allowedTools: ['search'] }] });
    expect(reply.status).toBe(200);
    expect(bodies()[0]?.tools).toEqual([own, { ...SEARCH_FN, name: 'mcp__docs__search_2' }]);
    const content = (JSON.parse(await replyText(reply)) as { choices: [{ content: unknown[] }] }).choices[0].content;
    expect(content[0]).toEqual({ ...LISTING, tools: [DOCS_TOOLS[0]] });
  });

  it('answers a refused server (listTools throwing) with that error in the client’s protocol, before any upstream call', async () => {
    const { call: send, sent, records } = router([]);
    const reply = await send('/openai-responses/generate', {
      model: 'm',
      messages: [USER],
      tools: [{ ...DOCS, name: 'elsewhere', url: 'http://10.0.0.1/mcp' }],
    });
    expect(reply.status).toBe(403);
    expect(JSON.parse(await replyText(reply))).toEqual({
      error: { protocol: 'openai-responses', kind: 'permission', message: 'MCP server http://10.0.0.1/mcp is not allowed' },
    });
    expect(sent).toHaveLength(0);
    expect(records[0]).toMatchObject({ status: 403, errorKind: 'permission' });
  });

  it('feeds a failing tool’s isError result back to the model and shows it as an error result', async () => {
    const host = fakeHost({ docs: DOCS_TOOLS }, () => ({ content: 'page not found', isError: true }));
    const {
      call: send,
      bodies,
      records,
    } = router(
      [
        turn('t1', [call('call_1', 'mcp__docs__fetch', '{"url":"u"}')], 'tool_calls', { inputTokens: 1, outputTokens: 1 }),
        turn('t2', [{ type: 'text', text: 'It is gone.' }], 'stop', { inputTokens: 1, outputTokens: 1 }),
      ],
      { host },
    );
    const reply = await send('/openai-responses/generate', { model: 'm', messages: [USER], tools: [DOCS] });
    const content = (JSON.parse(await replyText(reply)) as { choices: [{ content: unknown[] }] }).choices[0].content;
    expect(content.slice(1)).toEqual([
      { type: 'mcp-call', id: 'call_1', server: 'docs', name: 'fetch', arguments: '{"url":"u"}' },
      { type: 'mcp-result', callId: 'call_1', content: 'page not found', isError: true },
      { type: 'text', text: 'It is gone.' },
    ]);
    expect((bodies()[1]?.messages as unknown[])[2]).toEqual({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'mcp__docs__fetch', content: 'page not found', isError: true }],
    });
    expect(records[0]?.mcpCalls).toEqual([{ server: 'docs', tool: 'fetch', ms: expect.any(Number), isError: true }]);
  });

  it('stops at maxTurns with a paused answer (the calls of the last turn shown, no further upstream call)', async () => {
    const again = (n: number) => turn(`t${n}`, [call(`call_${n}`, 'mcp__docs__search', `{"q":"${n}"}`)], 'tool_calls', { inputTokens: 1, outputTokens: 1 });
    const { call: send, sent, records } = router([again(1), again(2), again(3)], { maxTurns: 2 });
    const reply = await send('/openai-responses/generate', { model: 'm', messages: [USER], tools: [DOCS] });
    const body = JSON.parse(await replyText(reply)) as { choices: [{ content: Array<{ type: string }>; finishReason: string }]; usage: unknown };
    expect(sent).toHaveLength(2);
    expect(body.choices[0].finishReason).toBe('pause');
    expect(body.choices[0].content.map((part) => part.type)).toEqual(['mcp-list-tools', 'mcp-call', 'mcp-result', 'mcp-call', 'mcp-result']);
    expect(body.usage).toEqual({ inputTokens: 2, outputTokens: 2, totalTokens: 4 });
    expect(records[0]?.mcpCalls).toHaveLength(2);
  });

  it('stops when the time budget is spent, before the next upstream call', async () => {
    const { call: send, sent } = router([turn('t1', [call('call_1', 'mcp__docs__search', '{"q":"x"}')], 'tool_calls', { inputTokens: 1, outputTokens: 1 })], {
      timeBudgetMs: 0,
    });
    const reply = await send('/openai-responses/generate', { model: 'm', messages: [USER], tools: [DOCS] });
    const body = JSON.parse(await replyText(reply)) as { choices: [{ finishReason: string }] };
    expect(sent).toHaveLength(1);
    expect(body.choices[0].finishReason).toBe('pause');
  });

  it('runs the MCP calls of a turn that also calls the client’s own tool, then returns that call after the MCP parts', async () => {
    const own = { type: 'function', name: 'lookup', parameters: { type: 'object' } };
    const {
      call: send,
      bodies,
      sent,
    } = router([
      turn('t1', [call('call_1', 'mcp__docs__search', '{"q":"x"}'), call('call_2', 'lookup', '{}')], 'tool_calls', { inputTokens: 1, outputTokens: 1 }),
      turn('t2', [{ type: 'text', text: 'Both done.' }], 'stop', { inputTokens: 1, outputTokens: 1 }),
    ]);
    const reply = await send('/openai-chat/generate', { model: 'm', messages: [USER], tools: [own, DOCS] });
    const body = JSON.parse(await replyText(reply)) as { choices: [{ content: unknown[]; finishReason: string }] };
    expect(sent).toHaveLength(1);
    expect(body.choices[0]).toEqual({
      index: 0,
      content: [
        LISTING,
        { type: 'mcp-call', id: 'call_1', server: 'docs', name: 'search', arguments: '{"q":"x"}' },
        { type: 'mcp-result', callId: 'call_1', content: 'search({"q":"x"})' },
        call('call_2', 'lookup', '{}'),
      ],
      finishReason: 'tool_calls',
    });
    // The next turn: the client sends the answer back with its result; the upstream gets both calls in one turn.
    const next = await send('/openai-chat/generate', {
      model: 'm',
      messages: [
        USER,
        { role: 'assistant', content: body.choices[0].content },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_2', content: 'looked up' }] },
      ],
      tools: [own, DOCS],
    });
    expect(next.status).toBe(200);
    expect(bodies()[1]?.messages).toEqual([
      USER,
      { role: 'assistant', content: [call('call_1', 'mcp__docs__search', '{"q":"x"}'), call('call_2', 'lookup', '{}')] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'mcp__docs__search', content: 'search({"q":"x"})' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_2', content: 'looked up' }] },
    ]);
  });

  it('runs route-configured servers for a client that knows nothing of MCP, and sends an upstream hosting MCP the client’s own MCP tools as they are', async () => {
    const host = fakeHost({ docs: DOCS_TOOLS, wiki: [{ name: 'read', inputSchema: { type: 'object' } }] });
    const scripted = scriptedRouter(
      {
        codecs: fakeCodecs(),
        upstreams: { up: { protocol: 'openai-responses', baseUrl: 'http://up.test' } },
        routes: [{ match: '*', upstream: 'up', mcpServers: ['wiki'] }],
        mcp: { host, servers: { wiki: { type: 'mcp', name: 'ignored', url: 'https://wiki.internal/mcp' } } },
      },
      [
        turn('t1', [call('call_1', 'mcp__wiki__read', '{}')], 'tool_calls', { inputTokens: 1, outputTokens: 1 }),
        turn('t2', [{ type: 'text', text: 'Read.' }], 'stop', { inputTokens: 1, outputTokens: 1 }),
      ],
    );
    const reply = await scripted.call('/claude/generate', { model: 'm', messages: [USER], tools: [DOCS] });
    expect(reply.status).toBe(200);
    expect(scripted.bodies()[0]?.tools).toEqual([DOCS, { type: 'function', name: 'mcp__wiki__read', parameters: { type: 'object' } }]);
    expect(host.seen.map((seen) => `${seen.op} ${seen.server} ${seen.source}`)).toEqual(['list wiki gateway', 'call wiki gateway']);
  });

  it('answers a call whose arguments are not a JSON object with an error result, calling nothing', async () => {
    const {
      call: send,
      bodies,
      host,
      records,
    } = router([
      turn('t1', [call('call_1', 'mcp__docs__search', '[1,2]')], 'tool_calls', { inputTokens: 1, outputTokens: 1 }),
      turn('t2', [{ type: 'text', text: 'Sorry.' }], 'stop', { inputTokens: 1, outputTokens: 1 }),
    ]);
    await replyText(await send('/openai-responses/generate', { model: 'm', messages: [USER], tools: [DOCS] }));
    expect((bodies()[1]?.messages as unknown[])[2]).toEqual({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'mcp__docs__search', content: NOT_AN_OBJECT_OUTPUT, isError: true }],
    });
    expect(host.seen.filter((seen) => seen.op === 'call')).toEqual([]);
    expect(records[0]?.mcpCalls).toEqual([{ server: 'docs', tool: 'search', ms: expect.any(Number), isError: true }]);
  });

  it('fails the request when the host throws on a call (the detail to the record only)', async () => {
    const host = fakeHost({ docs: DOCS_TOOLS }, () => {
      throw new Error('socket closed at 10.1.2.3');
    });
    const { call: send, records } = router([turn('t1', [call('call_1', 'mcp__docs__search', '{}')], 'tool_calls', { inputTokens: 1, outputTokens: 1 })], {
      host,
    });
    const reply = await send('/openai-responses/generate', { model: 'm', messages: [USER], tools: [DOCS] });
    expect(reply.status).toBe(500);
    const body = JSON.parse(await replyText(reply)) as { error: { kind: string; message: string } };
    expect(body.error.kind).toBe('server');
    expect(body.error.message).toBe(`internal error (request id ${records[0]?.requestId})`);
    expect(records[0]).toMatchObject({ status: 500, errorKind: 'server', errorDetail: expect.stringContaining('socket closed at 10.1.2.3') });
  });

  it('refuses two MCP servers under one label (400, nothing sent)', async () => {
    const { call: send, sent } = router([]);
    const reply = await send('/openai-responses/generate', { model: 'm', messages: [USER], tools: [DOCS, { ...DOCS, url: 'https://other.example/mcp' }] });
    expect(reply.status).toBe(400);
    expect(JSON.parse(await replyText(reply))).toEqual({
      error: { protocol: 'openai-responses', kind: 'invalid_request', message: 'MCP server label docs is used twice' },
    });
    expect(sent).toHaveLength(0);
  });

  it('refuses more than MAX_MCP_SERVERS_PER_REQUEST servers (400, nothing listed or sent)', async () => {
    const { call: send, sent, host } = router([]);
    const tools = Array.from({ length: MAX_MCP_SERVERS_PER_REQUEST + 1 }, (_, index) => ({ ...DOCS, name: `s${index}` }));
    const reply = await send('/openai-responses/generate', { model: 'm', messages: [USER], tools });
    expect(reply.status).toBe(400);
    expect(JSON.parse(await replyText(reply))).toEqual({
      error: { protocol: 'openai-responses', kind: 'invalid_request', message: 'at most 16 MCP servers per request (17 given)' },
    });
    expect([sent.length, host.seen.length]).toEqual([0, 0]);
  });

  it('runs at most MAX_MCP_CALLS_PER_TURN calls of one turn and tells the model the others were not run', async () => {
    const calls = Array.from({ length: MAX_MCP_CALLS_PER_TURN + 1 }, (_, index) => call(`call_${index}`, 'mcp__docs__search', `{"q":"${index}"}`));
    const {
      call: send,
      bodies,
      host,
      records,
    } = router([
      turn('t1', calls, 'tool_calls', { inputTokens: 1, outputTokens: 1 }),
      turn('t2', [{ type: 'text', text: 'ok' }], 'stop', { inputTokens: 1, outputTokens: 1 }),
    ]);
    await replyText(await send('/openai-responses/generate', { model: 'm', messages: [USER], tools: [DOCS] }));
    expect(host.seen.filter((seen) => seen.op === 'call')).toHaveLength(MAX_MCP_CALLS_PER_TURN);
    const results = (bodies()[1]?.messages as Array<{ content: Array<{ content: unknown; isError?: boolean }> }>)[2]?.content;
    expect(results?.at(-1)).toEqual({
      type: 'tool-result',
      toolCallId: 'call_16',
      toolName: 'mcp__docs__search',
      content: TOO_MANY_CALLS_OUTPUT,
      isError: true,
    });
    expect(results?.filter((result) => result.isError)).toHaveLength(1);
    // Recorded as it ended: at once, before the calls that ran.
    expect(records[0]?.mcpCalls?.[0]).toEqual({ server: 'docs', tool: 'search', ms: 0, isError: true });
    expect(records[0]?.mcpCalls).toHaveLength(MAX_MCP_CALLS_PER_TURN + 1);
  });

  it('runs the client’s own MCP tools for an upstream that could host them when the route says run: gateway', async () => {
    const host = fakeHost({ docs: DOCS_TOOLS });
    const scripted = scriptedRouter(
      {
        codecs: fakeCodecs(),
        upstreams: { up: { protocol: 'openai-responses', baseUrl: 'http://up.test' } },
        routes: [{ match: '*', upstream: 'up', mcp: { run: 'gateway' } }],
        mcp: { host },
      },
      [turn('t1', [{ type: 'text', text: 'ok' }], 'stop', { inputTokens: 1, outputTokens: 1 })],
    );
    const reply = await scripted.call('/openai-responses/generate', { model: 'm', messages: [USER], tools: [DOCS] });
    expect(reply.status).toBe(200);
    expect(scripted.bodies()[0]?.tools).toEqual([SEARCH_FN, FETCH_FN]);
    expect(host.seen).toEqual([{ op: 'list', server: 'docs', source: 'client' }]);
  });

  it('keeps its answer for previous_response_id even when the upstream stores answers (the upstream never saw the id): the next request replays it', async () => {
    const host = fakeHost({ wiki: [{ name: 'read', inputSchema: { type: 'object' } }] });
    const scripted = scriptedRouter(
      {
        codecs: fakeCodecs(),
        upstreams: { up: { protocol: 'openai-responses', baseUrl: 'http://up.test' } },
        routes: [{ match: '*', upstream: 'up', mcpServers: ['wiki'] }],
        mcp: { host, servers: { wiki: { type: 'mcp', name: 'wiki', url: 'https://wiki.internal/mcp' } } },
      },
      [
        turn('up_1', [call('call_1', 'mcp__wiki__read', '{}')], 'tool_calls', { inputTokens: 1, outputTokens: 1 }),
        turn('up_2', [{ type: 'text', text: 'Read.' }], 'stop', { inputTokens: 1, outputTokens: 1 }),
        turn('up_3', [{ type: 'text', text: 'Again.' }], 'stop', { inputTokens: 1, outputTokens: 1 }),
      ],
    );
    const first = JSON.parse(await replyText(await scripted.call('/openai-responses/generate', { model: 'm', messages: [USER] }, {}, 'alice'))) as {
      id: string;
    };
    expect(first.id).toMatch(/^resp_[0-9a-f]{32}$/);
    const more = { role: 'user', content: [{ type: 'text', text: 'more' }] };
    const reply = await scripted.call('/openai-responses/generate', { model: 'm', previous_response_id: first.id, messages: [more] }, {}, 'alice');
    expect(reply.status).toBe(200);
    const third = scripted.bodies()[2] as { messages: unknown[]; previousResponseId?: string };
    expect(third.previousResponseId).toBeUndefined();
    expect(third.messages).toEqual([
      USER,
      { role: 'assistant', content: [call('call_1', 'mcp__wiki__read', '{}')] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'mcp__wiki__read', content: 'read({})' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Read.' }] },
      more,
    ]);
  });

  it('refuses a route naming an MCP server the config lacks', () => {
    expect(() => createRouter({ upstreams: {}, routes: [{ match: '*', upstream: 'up', mcpServers: ['nope'] }], mcp: { host: fakeHost({}) } })).toThrow(
      'routes name MCP servers missing from mcp.servers: nope',
    );
  });
});

describe('the MCP loop, streamed', () => {
  it('streams one answer: one start, blocks of every turn renumbered, each MCP call’s parts as it ends, one finish with the summed usage', async () => {
    let releaseSearch: () => void = () => undefined;
    const host = fakeHost({ docs: DOCS_TOOLS }, async (_server, tool, args) => {
      // search ends after fetch: parallel calls show in the order they end.
      if (tool === 'search') await new Promise<void>((resolve) => (releaseSearch = resolve));
      else setTimeout(() => releaseSearch(), 5);
      return { content: `${tool}(${JSON.stringify(args)})`, isError: false };
    });
    const { call: send, records } = router(
      [
        streamedTurn(
          't1',
          [
            [{ kind: 'text' }, { type: 'text-delta', text: 'Let me look.' }],
            [
              { kind: 'tool_call', id: 'call_1', name: 'mcp__docs__search' },
              { type: 'tool-args-delta', json: '{"q":"x"}' },
            ],
            [
              { kind: 'tool_call', id: 'call_2', name: 'mcp__docs__fetch' },
              { type: 'tool-args-delta', json: '{"url":"u"}' },
            ],
          ],
          { reason: 'tool_calls', usage: { inputTokens: 10, outputTokens: 5 } },
        ),
        streamedTurn('t2', [[{ kind: 'text' }, { type: 'text-delta', text: 'Done.' }]], { reason: 'stop', usage: { inputTokens: 30, outputTokens: 7 } }),
      ],
      { host },
    );
    const reply = await send('/openai-responses/generate', { model: 'm', stream: true, messages: [USER], tools: [DOCS] });
    expect(reply.status).toBe(200);
    const part = (index: number, value: unknown) => [
      { type: 'block-start', index, block: { kind: 'part', part: value } },
      { type: 'block-end', index },
    ];
    expect(parseFakeSse(await replyText(reply))).toEqual([
      { type: 'start', id: RESPONSE_ID, model: 'up-model' },
      ...part(0, LISTING),
      { type: 'block-start', index: 1, block: { kind: 'text' } },
      { type: 'text-delta', index: 1, text: 'Let me look.' },
      { type: 'block-end', index: 1 },
      ...part(2, { type: 'mcp-call', id: 'call_2', server: 'docs', name: 'fetch', arguments: '{"url":"u"}' }),
      ...part(3, { type: 'mcp-result', callId: 'call_2', content: 'fetch({"url":"u"})' }),
      ...part(4, { type: 'mcp-call', id: 'call_1', server: 'docs', name: 'search', arguments: '{"q":"x"}' }),
      ...part(5, { type: 'mcp-result', callId: 'call_1', content: 'search({"q":"x"})' }),
      { type: 'block-start', index: 6, block: { kind: 'text' } },
      { type: 'text-delta', index: 6, text: 'Done.' },
      { type: 'block-end', index: 6 },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 40, outputTokens: 12, totalTokens: 52 } },
    ]);
    expect(host.seen.filter((seen) => seen.op === 'call').map((seen) => seen.tool)).toEqual(['search', 'fetch']);
    expect(records[0]?.mcpCalls?.map((mcpCall) => mcpCall.tool)).toEqual(['fetch', 'search']);
    expect(records[0]).toMatchObject({ status: 200, stream: true, usage: { inputTokens: 40, outputTokens: 12, totalTokens: 52 } });
  });

  it('holds the client’s own call of a turn until its MCP calls ran, then ends with tool_calls', async () => {
    const { call: send } = router([
      streamedTurn(
        't1',
        [
          [
            { kind: 'tool_call', id: 'call_1', name: 'lookup' },
            { type: 'tool-args-delta', json: '{}' },
          ],
          [
            { kind: 'tool_call', id: 'call_2', name: 'mcp__docs__search' },
            { type: 'tool-args-delta', json: '{"q":"x"}' },
          ],
        ],
        { reason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 1 } },
      ),
    ]);
    const own = { type: 'function', name: 'lookup', parameters: { type: 'object' } };
    const reply = await send('/claude/generate', { model: 'm', stream: true, messages: [USER], tools: [own, DOCS] });
    expect(parseFakeSse(await replyText(reply))).toEqual([
      { type: 'start', id: 't1', model: 'up-model' },
      { type: 'block-start', index: 0, block: { kind: 'part', part: LISTING } },
      { type: 'block-end', index: 0 },
      {
        type: 'block-start',
        index: 1,
        block: { kind: 'part', part: { type: 'mcp-call', id: 'call_2', server: 'docs', name: 'search', arguments: '{"q":"x"}' } },
      },
      { type: 'block-end', index: 1 },
      { type: 'block-start', index: 2, block: { kind: 'part', part: { type: 'mcp-result', callId: 'call_2', content: 'search({"q":"x"})' } } },
      { type: 'block-end', index: 2 },
      { type: 'block-start', index: 3, block: { kind: 'tool_call', id: 'call_1', name: 'lookup' } },
      { type: 'tool-args-delta', index: 3, json: '{}' },
      { type: 'block-end', index: 3 },
      { type: 'finish', reason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
    ]);
  });

  it('ends the client’s stream with an error, never a finish, when an upstream stream is cut mid-loop', async () => {
    const { call: send, records } = router([searchTurn(), streamedTurn('t2', [[{ kind: 'text' }, { type: 'text-delta', text: 'Half' }]])]);
    const reply = await send('/claude/generate', { model: 'm', stream: true, messages: [USER], tools: [DOCS] });
    const events = parseFakeSse(await replyText(reply)) as Array<{ type: string; error?: { kind: string } }>;
    expect(events.map((event) => event.type)).toEqual([
      'start',
      'block-start',
      'block-end',
      'block-start',
      'block-end',
      'block-start',
      'block-end',
      'block-start',
      'text-delta',
      'block-end',
      'error',
    ]);
    expect(events.at(-1)?.error?.kind).toBe('upstream');
    expect(records[0]).toMatchObject({ status: 200, errorKind: 'upstream' });
  });

  it('ends the stream with a generic error event when the host throws on a call', async () => {
    const host = fakeHost({ docs: DOCS_TOOLS }, () => {
      throw new Error('socket closed at 10.1.2.3');
    });
    const { call: send, records } = router([searchTurn()], { host });
    const reply = await send('/claude/generate', { model: 'm', stream: true, messages: [USER], tools: [DOCS] });
    const events = parseFakeSse(await replyText(reply)) as Array<{ type: string }>;
    expect(events.at(-1)).toEqual({ type: 'error', error: { kind: 'server', message: `internal error (request id ${records[0]?.requestId})` } });
    expect(records[0]).toMatchObject({ status: 200, errorKind: 'server', errorDetail: expect.stringContaining('socket closed at 10.1.2.3') });
  });

  it('ends the stream with an error when a later turn’s upstream answers an error status', async () => {
    const { call: send } = router([searchTurn(), answer(400, 'application/json', [JSON.stringify({ error: { message: 'context too long' } })])]);
    const reply = await send('/claude/generate', { model: 'm', stream: true, messages: [USER], tools: [DOCS] });
    const events = parseFakeSse(await replyText(reply)) as Array<{ type: string; error?: { kind: string; message: string } }>;
    expect(events.at(-1)).toEqual({ type: 'error', error: { kind: 'invalid_request', message: 'context too long' } });
    expect(events.some((event) => event.type === 'finish')).toBe(false);
  });
});

describe('MCP approvals', () => {
  const GUARDED = { ...DOCS, requireApproval: 'always' };
  const first = () => turn('t1', [call('call_1', 'mcp__docs__search', '{"q":"x"}')], 'tool_calls', { inputTokens: 10, outputTokens: 5 });

  async function askApproval(scripted: ReturnType<typeof router>) {
    const reply = await scripted.call('/openai-responses/generate', { model: 'm', messages: [USER], tools: [GUARDED] }, {}, 'alice');
    const body = JSON.parse(await replyText(reply)) as { id: string; choices: [{ content: Array<{ type: string; id: string }>; finishReason: string }] };
    return body;
  }

  it('stops at a call needing approval, and resumes it approved from the stored state', async () => {
    const scripted = router([first(), turn('t2', [{ type: 'text', text: 'Found it.' }], 'stop', { inputTokens: 30, outputTokens: 7 })]);
    const asked = await askApproval(scripted);
    const request = asked.choices[0].content[1] as { id: string };
    expect(asked.choices[0]).toEqual({
      index: 0,
      content: [
        LISTING,
        { type: 'mcp-approval-request', id: expect.stringMatching(/^mcpr_[0-9a-f]{32}$/), server: 'docs', name: 'search', arguments: '{"q":"x"}' },
      ],
      finishReason: 'tool_calls',
    });
    expect(scripted.host.seen.filter((seen) => seen.op === 'call')).toEqual([]);

    const approval = { role: 'user', content: [{ type: 'mcp-approval-response', approvalRequestId: request.id, approve: true }] };
    const reply = await scripted.call(
      '/openai-responses/generate',
      { model: 'm', previous_response_id: asked.id, messages: [approval], tools: [GUARDED] },
      {},
      'alice',
    );
    expect(reply.status).toBe(200);
    const body = JSON.parse(await replyText(reply)) as { id: string; choices: [{ content: unknown[] }] };
    expect(body.id).not.toBe(asked.id);
    expect(body.choices[0].content).toEqual([
      LISTING,
      {
        type: 'mcp-call',
        id: expect.stringMatching(/^mcp_[0-9a-f]{32}$/),
        server: 'docs',
        name: 'search',
        arguments: '{"q":"x"}',
        approvalRequestId: request.id,
      },
      { type: 'mcp-result', callId: expect.stringMatching(/^mcp_/), content: 'search({"q":"x"})' },
      { type: 'text', text: 'Found it.' },
    ]);
    expect(scripted.bodies()[1]?.messages).toEqual([
      USER,
      { role: 'assistant', content: [call(request.id, 'mcp__docs__search', '{"q":"x"}')] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: request.id, toolName: 'mcp__docs__search', content: 'search({"q":"x"})' }] },
    ]);
    expect(scripted.host.seen.filter((seen) => seen.op === 'call')).toEqual([
      { op: 'call', server: 'docs', tool: 'search', args: { q: 'x' }, source: 'client', clientKeyId: 'alice' },
    ]);
  });

  it('tells the model a denied call was not approved, and runs nothing', async () => {
    const scripted = router([first(), turn('t2', [{ type: 'text', text: 'Understood.' }], 'stop', { inputTokens: 1, outputTokens: 1 })]);
    const asked = await askApproval(scripted);
    const request = asked.choices[0].content[1] as { id: string };
    const denial = { role: 'user', content: [{ type: 'mcp-approval-response', approvalRequestId: request.id, approve: false }] };
    const reply = await scripted.call(
      '/openai-responses/generate',
      { model: 'm', previous_response_id: asked.id, messages: [denial], tools: [GUARDED] },
      {},
      'alice',
    );
    const body = JSON.parse(await replyText(reply)) as { choices: [{ content: unknown[] }] };
    expect(body.choices[0].content).toEqual([LISTING, { type: 'text', text: 'Understood.' }]);
    expect((scripted.bodies()[1]?.messages as unknown[])[2]).toEqual({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: request.id, toolName: 'mcp__docs__search', content: DENIED_OUTPUT, isError: true }],
    });
    expect(scripted.host.seen.filter((seen) => seen.op === 'call')).toEqual([]);
  });

  it('tells the model an approved call’s tool is no longer offered, and runs nothing', async () => {
    const scripted = router([first(), turn('t2', [{ type: 'text', text: 'Cannot.' }], 'stop', { inputTokens: 1, outputTokens: 1 })]);
    const asked = await askApproval(scripted);
    const request = asked.choices[0].content[1] as { id: string };
    const approval = { role: 'user', content: [{ type: 'mcp-approval-response', approvalRequestId: request.id, approve: true }] };
    const narrowed = { ...GUARDED, allowedTools: ['fetch'] };
    await replyText(
      await scripted.call('/openai-responses/generate', { model: 'm', previous_response_id: asked.id, messages: [approval], tools: [narrowed] }, {}, 'alice'),
    );
    expect((scripted.bodies()[1]?.messages as unknown[])[2]).toEqual({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: request.id, toolName: 'mcp__docs__search', content: UNAVAILABLE_OUTPUT, isError: true }],
    });
    expect(scripted.host.seen.filter((seen) => seen.op === 'call')).toEqual([]);
  });

  it('keeps nothing for a client that asked for no storage (store: false): its approval cannot resume by id', async () => {
    const scripted = router([first()]);
    const reply = await scripted.call('/openai-responses/generate', { model: 'm', store: false, messages: [USER], tools: [GUARDED] }, {}, 'alice');
    expect(reply.retrievable).toBe(false);
    const asked = JSON.parse(await replyText(reply)) as { id: string; choices: [{ content: Array<{ id: string }> }] };
    const approval = { role: 'user', content: [{ type: 'mcp-approval-response', approvalRequestId: asked.choices[0].content[1]?.id, approve: true }] };
    const resumed = await scripted.call(
      '/openai-responses/generate',
      { model: 'm', previous_response_id: asked.id, messages: [approval], tools: [GUARDED] },
      {},
      'alice',
    );
    expect(resumed.status).toBe(404);
    expect(scripted.sent).toHaveLength(1);
  });

  it('runs at most MAX_MCP_CALLS_PER_TURN approved calls of a sent conversation and tells the model the others were not run', async () => {
    const scripted = router([turn('t1', [{ type: 'text', text: 'ok' }], 'stop', { inputTokens: 1, outputTokens: 1 })]);
    const ids = Array.from({ length: MAX_MCP_CALLS_PER_TURN + 1 }, (_, index) => `mcpr_${index}`);
    const asked = { role: 'assistant', content: ids.map((id) => ({ type: 'mcp-approval-request', id, server: 'docs', name: 'search', arguments: '{}' })) };
    const approvals = { role: 'user', content: ids.map((id) => ({ type: 'mcp-approval-response', approvalRequestId: id, approve: true })) };
    const reply = await scripted.call('/openai-responses/generate', { model: 'm', messages: [USER, asked, approvals], tools: [GUARDED] }, {}, 'alice');
    expect(reply.status).toBe(200);
    await replyText(reply);
    expect(scripted.host.seen.filter((seen) => seen.op === 'call')).toHaveLength(MAX_MCP_CALLS_PER_TURN);
    const results = (scripted.bodies()[0]?.messages as Array<{ content: Array<{ content: unknown; isError?: boolean }> }>)[2]?.content;
    expect(results?.at(-1)).toEqual({
      type: 'tool-result',
      toolCallId: 'mcpr_16',
      toolName: 'mcp__docs__search',
      content: TOO_MANY_CALLS_OUTPUT,
      isError: true,
    });
    expect(results?.filter((result) => result.isError)).toHaveLength(1);
  });

  it('lets no other key resume a paused loop (404, nothing run or sent)', async () => {
    const scripted = router([first()]);
    const asked = await askApproval(scripted);
    const request = asked.choices[0].content[1] as { id: string };
    const approval = { role: 'user', content: [{ type: 'mcp-approval-response', approvalRequestId: request.id, approve: true }] };
    const reply = await scripted.call(
      '/openai-responses/generate',
      { model: 'm', previous_response_id: asked.id, messages: [approval], tools: [GUARDED] },
      {},
      'mallory',
    );
    expect(reply.status).toBe(404);
    expect(JSON.parse(await replyText(reply))).toEqual({
      error: { protocol: 'openai-responses', kind: 'not_found', message: `previous response ${asked.id} not found` },
    });
    expect(scripted.sent).toHaveLength(1);
    expect(scripted.host.seen.filter((seen) => seen.op === 'call')).toEqual([]);
  });
});
