import { LlmError, type LlmResponse, type LlmStreamEvent, type LlmWarning } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { bridge } from '../src/bridge.js';
import { claude as realClaude } from '@llm/claude';
import { openaiChat as realChat } from '@llm/openai-chat';
import { bytesOf, fakeCodec, fakeSse, parseFakeSse, textOf } from './fake-codec.js';

const chat = fakeCodec('openai-chat');
const claude = fakeCodec('claude');
const responses = fakeCodec('openai-responses');

const toolTurn: LlmResponse = {
  id: 'r1',
  model: 'm',
  choices: [
    {
      index: 0,
      content: [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool-call', id: 'call_1', name: 'read', arguments: '{"path":"a"}' },
      ],
      finishReason: 'stop',
      rawFinishReason: 'stop',
    },
  ],
};

const toolTurnEvents: LlmStreamEvent[] = [
  { type: 'start', id: 'r1', model: 'm' },
  { type: 'block-start', index: 0, block: { kind: 'text' } },
  { type: 'text-delta', index: 0, text: 'Let me look.' },
  { type: 'block-end', index: 0 },
  { type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'call_1', name: 'read' } },
  { type: 'tool-args-delta', index: 1, json: '{"path":"a"}' },
  { type: 'block-end', index: 1 },
  { type: 'finish', reason: 'stop', rawReason: 'stop', usage: { inputTokens: 3, outputTokens: 5, totalTokens: 8 } as never },
];

describe('bridge requests', () => {
  it('rewrites the model and leaves the output limit to the upstream codec (no router default)', () => {
    const warnings: LlmWarning[] = [];
    const out = bridge({ client: chat, upstream: claude, warn: (w) => warnings.push(w) }).request(
      { model: 'gpt-x', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
      { upstreamModel: 'claude-y' },
    );
    expect(out.body).toEqual({
      model: 'claude-y',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(out).toMatchObject({ model: 'claude-y', clientModel: 'gpt-x', stream: false });
    expect(warnings).toEqual([]);
  });

  it('same protocol keeps the payload intact except the model', () => {
    const body = { model: 'a', messages: [], unknownField: { deep: [1, 2] } };
    const same = bridge({ client: chat, upstream: fakeCodec('openai-chat') });
    expect(same.request(body).body).toBe(body);
    expect(same.request(body, { upstreamModel: 'b' }).body).toEqual({ ...body, model: 'b' });
    const response = { id: 'r', model: 'a', choices: [], anything: true };
    expect(same.response(response)).toBe(response);
    // Not an answer at all: the 502 a decoded answer would get, never passed through (issue 17).
    expect(() => same.response({ anything: true })).toThrow(
      expect.objectContaining({ kind: 'upstream', status: 502, message: 'invalid Chat Completions answer at choices', path: 'choices' }),
    );
  });

  it('cuts stop sequences to the target limit with a warning', () => {
    const warnings: LlmWarning[] = [];
    const out = bridge({ client: claude, upstream: chat, warn: (w) => warnings.push(w) }).request({
      model: 'm',
      messages: [],
      stop: ['a', 'b', 'c', 'd', 'e'],
    });
    expect((out.body as { stop: string[] }).stop).toEqual(['a', 'b', 'c', 'd']);
    expect(warnings.map((w) => w.code)).toEqual(['dropped-field']);
  });

  it('strict mode turns a loss into an unsupported error', () => {
    const body = {
      model: 'm',
      messages: [{ role: 'assistant', content: [{ type: 'reasoning', text: '', signature: 'sig', origin: { protocol: 'gemini' } }] }],
    };
    const strict = bridge({ client: chat, upstream: claude, strict: true });
    expect(() => strict.request(body)).toThrowError(expect.objectContaining({ kind: 'unsupported', code: 'foreign-state' }));
  });
});

describe('bridge responses and streams', () => {
  it('REGRESSIONS #16: a tool-call turn whose finish says stop reaches the client as tool_calls', () => {
    const out = bridge({ client: claude, upstream: chat }).response(structuredClone(toolTurn)) as LlmResponse;
    expect(out.choices[0]?.finishReason).toBe('tool_calls');
    expect(out.choices[0]?.rawFinishReason).toBe('stop');
  });

  it('hands the canonical response it decoded to onDecoded (once), and none on a same-protocol pass-through', () => {
    const seen: LlmResponse[] = [];
    const usage = { inputTokens: 3, outputTokens: 5, totalTokens: 8 } as LlmResponse['usage'];
    bridge({ client: chat, upstream: claude }).response({ ...structuredClone(toolTurn), usage }, (response) => seen.push(response));
    expect(seen).toHaveLength(1);
    expect(seen[0]?.choices[0]?.finishReason).toBe('tool_calls');
    expect(seen[0]?.usage).toEqual(usage);
    const body = structuredClone(toolTurn);
    const passed = bridge({ client: claude, upstream: claude }).response(body, (response) => seen.push(response));
    expect(passed).toBe(body);
    expect(seen).toHaveLength(1);
  });

  it('REGRESSIONS #15: a streamed text+tool turn with finish stop ends as tool_calls', async () => {
    const out = bridge({ client: claude, upstream: chat }).stream(bytesOf(fakeSse(toolTurnEvents)));
    const events = parseFakeSse(await textOf(out));
    expect(events).toEqual([...toolTurnEvents.slice(0, -1), { ...toolTurnEvents[7], reason: 'tool_calls' }]);
  });

  it('REGRESSIONS #17: a non-streaming tool turn served to a streaming Responses client finishes with tool_calls', async () => {
    const out = bridge({ client: responses, upstream: chat }).responseToStream(structuredClone(toolTurn));
    const events = parseFakeSse(await textOf(out)) as LlmStreamEvent[];
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'tool_calls' });
    expect(events.filter((e) => e.type === 'block-start').map((e) => (e as { block: { kind: string } }).block.kind)).toEqual(['text', 'tool_call']);
  });

  it('a streaming upstream serves a non-streaming client', async () => {
    const onEvent: LlmStreamEvent[] = [];
    const out = (await bridge({ client: claude, upstream: chat }).streamToResponse(bytesOf(fakeSse(toolTurnEvents)), {
      onEvent: (e) => onEvent.push(e),
    })) as LlmResponse;
    expect(out.choices[0]?.content).toEqual(toolTurn.choices[0]?.content);
    expect(out.choices[0]?.finishReason).toBe('tool_calls');
    expect(onEvent).toHaveLength(toolTurnEvents.length);
  });

  it('same-protocol streams pass bytes through and still report events', async () => {
    const seen: string[] = [];
    const sse = fakeSse(toolTurnEvents);
    const out = bridge({ client: chat, upstream: fakeCodec('openai-chat') }).stream(bytesOf(sse), { onEvent: (e) => seen.push(e.type) });
    expect(await textOf(out)).toBe(sse);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toContain('finish');
  });

  it('translates upstream errors into the client protocol', () => {
    const out = bridge({ client: claude, upstream: chat }).error(429, { error: { message: 'slow down' } }, new Headers({ 'retry-after': '2' }));
    expect(out).toEqual({
      status: 429,
      body: { error: { protocol: 'claude', kind: 'rate_limit', message: 'slow down' } },
      headers: { 'retry-after': '2' },
    });
  });

  it('encodes any thrown error in the client protocol', () => {
    const out = bridge({ client: claude, upstream: chat }).encodeError(new LlmError({ kind: 'not_found', message: 'nope' }));
    expect(out.status).toBe(404);
  });
});

describe('one bridge, many exchanges (stateless bridge, per-exchange answers)', () => {
  const claudeToolAnswer = (id: string) => ({
    id,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [{ type: 'tool_use', id: `toolu_${id}`, name: 'mcp_read', input: { path: 'a' } }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 3, output_tokens: 5 },
  });
  const chatRequest = (toolName: string) => ({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'read a' }],
    tools: [{ type: 'function', function: { name: toolName, parameters: { type: 'object', properties: {} } } }],
  });
  const toolNamesOf = (answer: unknown): string[] =>
    (answer as { choices: Array<{ message: { tool_calls: Array<{ function: { name: string } }> } }> }).choices[0]!.message.tool_calls.map(
      (call) => call.function.name,
    );

  it('restores each answer with its own request tool-name map, interleaved', async () => {
    const via = bridge({ client: realChat, upstream: realClaude });
    // Both names reach Claude as `mcp_read`; each client gets its own back.
    const slash = via.request(chatRequest('mcp/read'));
    const dot = via.request(chatRequest('mcp.read'));
    expect((slash.body as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual(['mcp_read']);
    expect((dot.body as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual(['mcp_read']);
    expect(toolNamesOf(slash.answers.response(claudeToolAnswer('msg_1')))).toEqual(['mcp/read']);
    expect(toolNamesOf(dot.answers.response(claudeToolAnswer('msg_2')))).toEqual(['mcp.read']);
    // A third exchange translated after both does not change the first two.
    via.request(chatRequest('mcp:read'));
    expect(toolNamesOf(slash.answers.response(claudeToolAnswer('msg_3')))).toEqual(['mcp/read']);
    // Streams too: the slash exchange's stream, read after the dot exchange was made.
    const sse = [
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_4","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":0}}}\n\n',
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_4","name":"mcp_read","input":{}}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}\n\n',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":5}}\n\n',
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ].join('');
    const names = (text: string) =>
      text
        .split('\n\n')
        .filter((line) => line.startsWith('data: {'))
        .flatMap(
          (line) =>
            (JSON.parse(line.slice(6)) as { choices: Array<{ delta: { tool_calls?: Array<{ function?: { name?: string } }> } }> }).choices[0]?.delta
              .tool_calls ?? [],
        )
        .flatMap((call) => (call.function?.name === undefined ? [] : [call.function.name]));
    expect(names(await textOf(slash.answers.stream(bytesOf(sse))))).toEqual(['mcp/read']);
    expect(names(await textOf(dot.answers.stream(bytesOf(sse))))).toEqual(['mcp.read']);
  });

  it('an exchange that renamed no tool streams its calls as they came (no restore step runs)', async () => {
    const via = bridge({ client: realChat, upstream: realClaude });
    const plain = via.request(chatRequest('mcp_read'));
    const sse = [
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_6","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":0}}}\n\n',
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_6","name":"mcp_read","input":{}}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"path\\":\\"a\\"}"}}\n\n',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":5}}\n\n',
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ].join('');
    const calls = (await textOf(plain.answers.stream(bytesOf(sse))))
      .split('\n\n')
      .filter((line) => line.startsWith('data: {'))
      .flatMap((line) => (JSON.parse(line.slice(6)) as { choices: Array<{ delta: { tool_calls?: unknown[] } }> }).choices[0]?.delta.tool_calls ?? []);
    expect(calls).toEqual([
      { index: 0, id: 'toolu_6', type: 'function', function: { name: 'mcp_read', arguments: '' } },
      { index: 0, function: { arguments: '{"path":"a"}' } },
    ]);
  });

  it("the bridge's own answer translators restore nothing (no request of theirs was adapted)", () => {
    const via = bridge({ client: realChat, upstream: realClaude });
    via.request(chatRequest('mcp/read'));
    expect(toolNamesOf(via.response(claudeToolAnswer('msg_5')))).toEqual(['mcp_read']);
  });

  it('an exchange whose request needed no adaptation shares the bridge translators (no per-request object)', () => {
    const via = bridge({ client: realChat, upstream: realClaude });
    expect(via.request(chatRequest('read')).answers).toBe(via.request(chatRequest('read')).answers);
    expect(via.request(chatRequest('mcp/read')).answers).not.toBe(via.request(chatRequest('mcp/read')).answers);
  });
});
